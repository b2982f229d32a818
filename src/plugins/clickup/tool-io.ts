// What every clickup tool shares: its dependencies, the call's bounds, task paths and how users are named.
import { PluginError, type RequestContext } from '../../contract/index.js';
import type { ClickUpUserJson } from './api-types.js';
import { type ClickUpClient, type ClickUpRequest, segment } from './client.js';
import { type ListMetadata, type MetadataStore, findList } from './metadata.js';
import type { ClickUpSettings } from './options.js';
import { type TaskKey, parseTaskKey } from './keys.js';
import type { WhoAmI } from './me.js';

export interface ToolDeps {
  client: ClickUpClient;
  settings: ClickUpSettings;
  metadata: MetadataStore;
  /** The token's user, read once (GET /user). */
  whoAmI: WhoAmI;
}

/** Sends one request under the call's signal and deadline. */
export const sendFor =
  (deps: ToolDeps, ctx: RequestContext) =>
  <T>(request: ClickUpRequest): Promise<T> =>
    deps.client.send<T>(request, ctx);

export const keyOf = (deps: ToolDeps, value: unknown, param = 'key'): TaskKey =>
  parseTaskKey(value, deps.settings.customTaskIds, param);

/** A task's path and the query a custom id needs. */
export function taskPath(deps: ToolDeps, key: TaskKey, suffix = ''): Pick<ClickUpRequest, 'path' | 'query'> {
  return {
    path: `/task/${segment(key.id)}${suffix}`,
    query: key.custom ? { custom_task_ids: true, team_id: deps.settings.teamId } : {},
  };
}

/** The list the agent chose (the `list` argument: a name or id), or the only one configured. */
export function chosenListId(deps: ToolDeps, value: unknown): string | undefined {
  const { listIds } = deps.settings;
  if (value === undefined || value === '') return listIds.length === 1 ? listIds[0] : undefined;
  const text = String(value);
  if (listIds.includes(text)) return text;
  const found = findList(deps.metadata.current(), text);
  if (found) return found.id;
  const names = deps.metadata.current()?.lists.map((list) => `${list.name} (${list.id})`) ?? listIds;
  throw new PluginError(
    'invalid_input',
    `parameter "list": no configured list ${JSON.stringify(text)}; lists: ${names.join(', ')}`,
  );
}

export const listMeta = (deps: ToolDeps, listId: string | undefined): ListMetadata | undefined =>
  listId === undefined ? undefined : deps.metadata.current()?.lists.find((list) => list.id === listId);

/**
 * Members of the given lists, one entry per user; with no lists, everyone: the configured lists' members and,
 * with team_id, the workspace's.
 */
export function membersOf(deps: ToolDeps, listIds?: readonly string[]): ClickUpUserJson[] {
  const seen = new Map<number, ClickUpUserJson>();
  const data = deps.metadata.current();
  if (!listIds) for (const user of data?.workspaceMembers ?? []) seen.set(user.id, user);
  for (const list of data?.lists ?? []) {
    if (listIds && !listIds.includes(list.id)) continue;
    for (const member of list.members) if (!seen.has(member.id)) seen.set(member.id, member);
  }
  return [...seen.values()];
}

/** YYYY-MM-DD → unix ms at midnight UTC; undefined when not given. */
export function dayMs(value: unknown, param: string): number | undefined {
  if (value === undefined) return undefined;
  const ms =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms))
    throw new PluginError(
      'invalid_input',
      `parameter "${param}" is ${JSON.stringify(value)}; use YYYY-MM-DD`,
    );
  return ms;
}
