// Each configured list's statuses, custom fields and members, loaded in the background and kept fresh: the
// enums and typed parameters of the schemas. Until a first load succeeds the tools stay generic; a list that
// fails to load stays generic on its own while the others are served.
import type { Logger, SharedPluginState } from '../../contract/index.js';
import type { ClickUpFieldJson, ClickUpStatusJson, ClickUpUserJson } from './api-types.js';
import type { ClickUpClient } from './client.js';
import { readFields, readList, readMembers, readWorkspaceMembers } from './list-reads.js';
import type { ClickUpSettings } from './options.js';
import {
  type RefreshingMetadata,
  createRefreshingMetadata,
  metadataSharing,
  sharedMetadataKey,
} from '../kit/index.js';

export interface ListMetadata {
  id: string;
  name: string;
  statuses: ClickUpStatusJson[];
  fields: ClickUpFieldJson[];
  members: ClickUpUserJson[];
}

/** A configured list whose metadata did not load, and why (ClickUp's answer, without the token). */
export interface FailedList {
  id: string;
  reason: string;
}

export interface WorkspaceMetadata {
  /** The lists that loaded, in the configured order. */
  lists: ListMetadata[];
  /** The lists that did not; their schemas stay generic and say so. Absent when none failed. */
  failedLists?: FailedList[];
  /** Everyone in the workspace (GET /team), when team_id is configured; else empty. */
  workspaceMembers: ClickUpUserJson[];
  /** Why GET /team failed, when it did (workspaceMembers is then empty, not the workspace). */
  workspaceFailure?: string;
}

export type MetadataStore = RefreshingMetadata<WorkspaceMetadata>;

/**
 * What the schemas show: members appear in none, so a new colleague does not rebuild the tool list; a failed
 * list counts by id only, so a reason that changes on each try (a rate limit's reset) sends no list_changed.
 */
const fingerprint = (data: WorkspaceMetadata) =>
  JSON.stringify({
    lists: data.lists.map(({ members: _members, ...shown }) => shown),
    failed: (data.failedLists ?? []).map((failed) => failed.id),
  });

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createMetadataStore(
  client: ClickUpClient,
  settings: ClickUpSettings,
  logger: Logger,
  /** The cluster's store (`PluginContext.sharedState`): one process loads, the others read its copy. */
  sharedState?: SharedPluginState,
): MetadataStore {
  const { baseUrl, listIds, teamId = '', token = '' } = settings;
  const key = sharedMetadataKey({ what: 'clickup metadata', baseUrl, lists: listIds, team: teamId }, token);
  const loadList = async (id: string, bounds: { signal: AbortSignal }): Promise<ListMetadata> => {
    // One list's three reads together: at most three requests in flight against the token's 100 a minute.
    const [list, fields, members] = await Promise.all([
      readList(client, id, bounds),
      readFields(client, id, bounds),
      readMembers(client, id, bounds),
    ]);
    return { ...list, fields, members };
  };

  return createRefreshingMetadata(
    {
      what: `statuses and custom fields of ClickUp lists ${settings.listIds.join(', ')}`,
      ttlMs: settings.metadataTtlMs,
      fingerprint,
      async load(signal) {
        const lists: ListMetadata[] = [];
        const failedLists: FailedList[] = [];
        // Lists one after another, not all 3N+1 requests at once: a burst would spend the rate limit the
        // agent's own calls need, and a 429 on one list would fail the others with it.
        for (const id of settings.listIds) {
          try {
            lists.push(await loadList(id, { signal }));
          } catch (error) {
            // Stopping, or the load's own deadline, ends the whole load; a list ClickUp refused ends only itself.
            if (signal.aborted) throw error;
            failedLists.push({ id, reason: reasonOf(error) });
          }
        }
        if (lists.length === 0) throw new Error(failedLists.map((failed) => failed.reason).join('; '));
        if (failedLists.length) {
          logger.warn(
            { failedLists },
            `cannot load ClickUp list${failedLists.length > 1 ? 's' : ''} ${failedLists.map((f) => f.id).join(', ')}; their schemas stay generic`,
          );
        }
        let workspaceMembers: ClickUpUserJson[] = [];
        let workspaceFailure: string | undefined;
        try {
          workspaceMembers = await readWorkspaceMembers(client, settings.teamId, { signal });
        } catch (error) {
          if (signal.aborted) throw error;
          // get_users then reads the workspace itself; the lists' members still serve assignees.
          workspaceFailure = reasonOf(error);
          logger.warn({ err: workspaceFailure }, 'cannot load the ClickUp workspace members');
        }
        return {
          lists,
          ...(failedLists.length ? { failedLists } : {}),
          workspaceMembers,
          ...(workspaceFailure === undefined ? {} : { workspaceFailure }),
        };
      },
    },
    logger,
    metadataSharing(sharedState, key),
  );
}

/** The list a name or id names, among the loaded ones. */
export function findList(data: WorkspaceMetadata | undefined, nameOrId: string): ListMetadata | undefined {
  return (
    data?.lists.find((list) => list.id === nameOrId) ?? data?.lists.find((list) => list.name === nameOrId)
  );
}

/** Why a configured list's metadata is missing from a load that otherwise succeeded; undefined if it loaded. */
export const failedList = (data: WorkspaceMetadata | undefined, id: string): FailedList | undefined =>
  data?.failedLists?.find((failed) => failed.id === id);
