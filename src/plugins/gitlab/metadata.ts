// The project's labels, active milestones and default branch, loaded in the background and kept fresh: the enums of the schemas.
import type { Logger, SharedPluginState } from '../../contract/index.js';
import { type GitLabClient, listPage } from './client.js';
import type { GitLabSettings } from './options.js';
import {
  type RefreshingMetadata,
  createRefreshingMetadata,
  metadataSharing,
  sharedMetadataKey,
} from '../kit/index.js';

export interface ProjectMetadata {
  /** Empty when the project has more labels than are worth an enum (over 1000). */
  labels: string[];
  /** Active milestones of the project and its groups: title → global id (what milestone_id takes). */
  milestones: Map<string, number>;
  defaultBranch?: string;
  /** e.g. https://gitlab.com/group/project, for links to notes and diffs. */
  webUrl?: string;
}

export type MetadataStore = RefreshingMetadata<ProjectMetadata>;

/** Most pages of labels or milestones read per load (100 each). */
const MAX_PAGES = 10;

const fingerprint = (data: ProjectMetadata) => JSON.stringify([data.labels, [...data.milestones]]);

/** Every item, or undefined when there are more than MAX_PAGES pages (an enum of part of them would refuse the rest). */
async function allPages<T>(fetch: (page: number) => Promise<unknown>): Promise<T[] | undefined> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const result = await listPage<T>(fetch(page));
    items.push(...result.items);
    if (!result.hasNext) return items;
  }
  return undefined;
}

export function createMetadataStore(
  client: GitLabClient,
  settings: GitLabSettings,
  logger: Logger,
  /** The cluster's store (`PluginContext.sharedState`): one process loads, the others read its copy. */
  sharedState?: SharedPluginState,
): MetadataStore {
  const { projectId, baseUrl, projectName, auth, token = '' } = settings;
  const key = sharedMetadataKey(
    { what: 'gitlab metadata', baseUrl, project: projectName },
    `${auth}:${token}`,
  );
  return createRefreshingMetadata(
    {
      what: `labels and milestones of ${settings.projectName}`,
      ttlMs: settings.metadataTtlMs,
      fingerprint,
      async load(signal) {
        const api = client.api(signal);
        const [project, labels, milestones] = await Promise.all([
          api.projects.show(projectId) as Promise<{ default_branch?: string | null; web_url?: string }>,
          allPages<{ name: string }>((page) =>
            api.labels.all(projectId, { perPage: 100, page, showExpanded: true }),
          ),
          allPages<{ id: number; title: string }>((page) => {
            // include_ancestors (GitLab 16.7+) adds the groups' milestones, which project issues can take too.
            const options = {
              state: 'active',
              includeAncestors: true,
              perPage: 100,
              page,
              showExpanded: true,
            };
            return api.milestones.all(projectId, options);
          }),
        ]);
        return {
          labels: (labels ?? []).map((label) => label.name),
          milestones: new Map((milestones ?? []).map((milestone) => [milestone.title, milestone.id])),
          ...(project.default_branch ? { defaultBranch: project.default_branch } : {}),
          ...(project.web_url ? { webUrl: project.web_url } : {}),
        };
      },
    },
    logger,
    metadataSharing(sharedState, key),
  );
}
