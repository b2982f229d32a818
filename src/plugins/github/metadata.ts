// The repository's labels and milestones, loaded in the background and kept fresh: the enums of the issue schemas.
import type { Logger } from '../../host/index.js';
import type { GitHubClient } from './client.js';
import type { GitHubSettings } from './options.js';
import { type RefreshingMetadata, createRefreshingMetadata } from '../kit/index.js';

export interface RepoMetadata {
  labels: string[];
  /** Open milestones: title → number (the API takes numbers). */
  milestones: Map<string, number>;
}

export type MetadataStore = RefreshingMetadata<RepoMetadata>;

const fingerprint = (data: RepoMetadata) => JSON.stringify([data.labels, [...data.milestones]]);

export function createMetadataStore(
  client: GitHubClient,
  settings: GitHubSettings,
  logger: Logger,
): MetadataStore {
  const { owner, repo } = settings;
  return createRefreshingMetadata(
    {
      what: `labels and milestones of ${settings.fullName}`,
      ttlMs: settings.metadataTtlMs,
      fingerprint,
      async load(signal) {
        // The signal ends a load on shutdown or when it takes too long: octokit passes it to each page's fetch.
        const request = { signal };
        const [labels, milestones] = await Promise.all([
          client.paginate(client.rest.issues.listLabelsForRepo, { owner, repo, per_page: 100, request }),
          client.paginate(client.rest.issues.listMilestones, {
            owner,
            repo,
            state: 'open',
            per_page: 100,
            request,
          }),
        ]);
        return {
          labels: labels.map((label) => label.name),
          milestones: new Map(milestones.map((milestone) => [milestone.title, milestone.number])),
        };
      },
    },
    logger,
  );
}
