// The repository's labels and milestones, loaded in the background and kept fresh: the enums of the issue schemas.
import type { Logger } from '../../host/index.js';
import type { GitHubClient } from './client.js';
import type { GitHubSettings } from './options.js';

export interface RepoMetadata {
  labels: string[];
  /** Open milestones: title → number (the API takes numbers). */
  milestones: Map<string, number>;
}

export interface MetadataStore {
  /** Undefined until the first load succeeds. */
  current(): RepoMetadata | undefined;
  /** Loads now and then every TTL; never throws (failures are logged and retried at the next tick). */
  start(): void;
  stop(): void;
  /** Called after a load that changed labels or milestones. */
  onChange(listener: () => void): void;
}

const fingerprint = (data: RepoMetadata) => JSON.stringify([data.labels, [...data.milestones]]);

export function createMetadataStore(
  client: GitHubClient,
  settings: GitHubSettings,
  logger: Logger,
): MetadataStore {
  let data: RepoMetadata | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const listeners: (() => void)[] = [];
  const { owner, repo } = settings;

  const load = async () => {
    try {
      const [labels, milestones] = await Promise.all([
        client.paginate(client.rest.issues.listLabelsForRepo, { owner, repo, per_page: 100 }),
        client.paginate(client.rest.issues.listMilestones, { owner, repo, state: 'open', per_page: 100 }),
      ]);
      const next: RepoMetadata = {
        labels: labels.map((label) => label.name),
        milestones: new Map(milestones.map((milestone) => [milestone.title, milestone.number])),
      };
      const changed = data === undefined || fingerprint(data) !== fingerprint(next);
      data = next;
      if (changed && !stopped) for (const listener of listeners) listener();
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        `cannot load labels and milestones of ${settings.fullName}; schemas stay generic until the next try`,
      );
    }
  };

  return {
    current: () => data,
    start() {
      const tick = () => {
        void load().finally(() => {
          if (!stopped) timer = setTimeout(tick, settings.metadataTtlMs).unref();
        });
      };
      tick();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
