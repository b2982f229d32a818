// The projects' metadata, loaded in the background and kept fresh: the enums and cf_ parameters of the schemas.
import type { Logger, SharedPluginState } from '../../contract/index.js';
import type { JiraClient } from './client.js';
import { type JiraMetadata, type ProjectMeta, loadMetadata } from './metadata-load.js';
import type { JiraSettings } from './options.js';
import {
  type RefreshingMetadata,
  createRefreshingMetadata,
  metadataSharing,
  sharedMetadataKey,
} from '../kit/index.js';

export type { JiraMetadata, ProjectMeta } from './metadata-load.js';

export interface MetadataStore extends RefreshingMetadata<JiraMetadata> {
  /** One project's metadata, when loaded. */
  project(key: string): ProjectMeta | undefined;
  /** Why the schemas are generic, when they are: still loading, or the last load's failure. */
  problem(): string | undefined;
}

function fingerprint(data: JiraMetadata): string {
  return JSON.stringify([
    [...data.projects.values()],
    [...data.failed.keys()],
    data.priorities,
    data.linkTypes,
    data.special,
  ]);
}

export function createMetadataStore(
  client: JiraClient,
  settings: JiraSettings,
  logger: Logger,
  /** The cluster's store (`PluginContext.sharedState`): one process loads, the others read its copy. */
  sharedState?: SharedPluginState,
): MetadataStore {
  const { baseUrl, flavor, projects, email = '', token } = settings;
  const store = createRefreshingMetadata(
    {
      what: `the metadata of ${settings.projects.join(', ')}`,
      ttlMs: settings.metadataTtlMs,
      fingerprint,
      load: (signal) => loadMetadata(client, { signal }, settings.projects, settings.flavor),
    },
    logger,
    metadataSharing(
      sharedState,
      sharedMetadataKey({ what: 'jira metadata', baseUrl, flavor, projects }, `${email}:${token}`),
    ),
  );
  return {
    ...store,
    project: (key) => store.current()?.projects.get(key),
    problem() {
      if (store.current() !== undefined) return undefined;
      const failure = store.failure();
      return failure === undefined ? 'still loading' : `could not be loaded (${failure})`;
    },
  };
}
