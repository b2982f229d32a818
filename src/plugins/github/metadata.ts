// The repository's labels and milestones, loaded in the background and kept fresh: the enums of the issue schemas.
import type { Logger, SharedPluginState } from '../../contract/index.js';
import type { GitHubClient, RequestScope } from './client.js';
import type { GitHubSettings } from './options.js';
import { allPages } from './paging.js';
import { githubTarget } from './review-context.js';
import {
  type RefreshingMetadata,
  createRefreshingMetadata,
  metadataSharing,
  sharedMetadataKey,
} from '../kit/index.js';

export interface RepoMetadata {
  /** Undefined while they cannot be read: the schemas then take any label. */
  labels: string[] | undefined;
  /** Open milestones: title → number (the API takes numbers). Undefined while they cannot be read. */
  milestones: Map<string, number> | undefined;
  /** The part that failed in the last load, and why; its value above is the last good one, if any. */
  failed: Map<MetadataPart, string>;
}

export type MetadataPart = 'labels' | 'milestones';

export interface MetadataStore extends RefreshingMetadata<RepoMetadata> {
  /** The part a load that succeeded could not read, and why, for the health detail; undefined when none failed. */
  partialFailure(): string | undefined;
}

/** Pages of 100 read per list: 5,000 labels or milestones are more than any schema should list. */
const MAX_PAGES = 50;

const fingerprint = (data: RepoMetadata) =>
  JSON.stringify([data.labels, data.milestones ? [...data.milestones] : null]);

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createMetadataStore(
  client: GitHubClient,
  settings: GitHubSettings,
  logger: Logger,
  /** The cluster's store (`PluginContext.sharedState`): one process loads, the others read its copy. */
  sharedState?: SharedPluginState,
): MetadataStore {
  const { owner, repo, fullName, baseUrl, token = '' } = settings;
  const target = githubTarget(settings);

  /**
   * Labels and milestones load apart: a repository whose milestones cannot be read (issues turned off, a
   * token without access) still gets its labels' enum, and the reverse. Only both failing fails the load.
   */
  async function load(signal: AbortSignal): Promise<RepoMetadata> {
    // The metadata store reports what failed (below, at warn): the request log need not say it at error too.
    const scope: RequestScope = { signal, expectedStatuses: [403, 404, 410] };
    const [labels, milestones] = await Promise.allSettled([
      allPages(client, target('the labels'), scope, MAX_PAGES, () =>
        client.rest.issues.listLabelsForRepo({ owner, repo, per_page: 100, request: scope }),
      ).then(({ items }) => items.map((label) => (label as { name: string }).name)),
      allPages(client, target('the open milestones'), scope, MAX_PAGES, () =>
        client.rest.issues.listMilestones({ owner, repo, state: 'open', per_page: 100, request: scope }),
      ).then(
        ({ items }) =>
          new Map(
            items.map((entry) => {
              const milestone = entry as { title: string; number: number };
              return [milestone.title, milestone.number];
            }),
          ),
      ),
    ]);
    if (labels.status === 'rejected' && milestones.status === 'rejected') {
      const [first, second] = [reason(labels.reason), reason(milestones.reason)];
      throw new Error(first === second ? first : `${first}; ${second}`);
    }
    const before = store.current();
    const failed = new Map<MetadataPart, string>();
    for (const [part, result] of [
      ['labels', labels],
      ['milestones', milestones],
    ] as const) {
      if (result.status === 'fulfilled') continue;
      const why = reason(result.reason);
      failed.set(part, why);
      const kept = before?.[part] !== undefined;
      // A lasting failure (milestones of a repository without issues) is said once, then at each change.
      const level = before?.failed.get(part) === why ? 'debug' : 'warn';
      logger[level](
        { err: why },
        kept
          ? `cannot reload the ${part} of ${fullName}; their enum keeps the last load until the next try`
          : `cannot load the ${part} of ${fullName}; the schemas take any until the next try`,
      );
    }
    return {
      labels: labels.status === 'fulfilled' ? labels.value : before?.labels,
      milestones: milestones.status === 'fulfilled' ? milestones.value : before?.milestones,
      failed,
    };
  }

  const store = createRefreshingMetadata(
    { what: `labels and milestones of ${fullName}`, ttlMs: settings.metadataTtlMs, fingerprint, load },
    logger,
    metadataSharing(
      sharedState,
      sharedMetadataKey({ what: 'github metadata', baseUrl, repo: fullName }, token),
    ),
  );
  return {
    ...store,
    partialFailure() {
      const failed = [...(store.current()?.failed ?? [])];
      if (failed.length === 0) return undefined;
      const parts = failed.map(([part, why]) => `${part} could not be loaded (${why})`).join('; ');
      return `${parts}; their schemas take any value until the next load`;
    },
  };
}
