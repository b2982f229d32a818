// What the lists look like: get_available_statuses, get_custom_fields and get_users, from the loaded metadata
// or, for a list it lacks, read straight from ClickUp within the call.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FieldShape, RequestContext, StatusShape, UserShape } from '../../contract/index.js';
import { type Args, DEFAULT_LIMIT, int, shapedResult, str } from '../kit/index.js';
import type { ClickUpTaskJson, ClickUpUserJson } from './api-types.js';
import type { CallBounds } from './client.js';
import { fieldParams } from './field-params.js';
import { readFields, readList, readMembers, readWorkspaceMembers } from './list-reads.js';
import type { ListMetadata } from './metadata.js';
import { type ToolDeps, keyOf, listMeta, sendFor, taskPath } from './tool-io.js';

/** ClickUp status types → what the status means for work. */
const CATEGORY: Readonly<Record<string, string>> = {
  open: 'todo',
  custom: 'in_progress',
  done: 'done',
  closed: 'done',
};

/** What the agent passes for each field type (FieldShape.type). */
const VALUE_TYPE: Readonly<Record<string, string>> = {
  drop_down: 'option',
  labels: 'labels',
  users: 'user',
  tasks: 'task',
  short_text: 'text',
  emoji: 'rating',
  manual_progress: 'progress',
  currency: 'number',
};

export function createMetadataTools(deps: ToolDeps) {
  const several = deps.settings.listIds.length > 1;
  const { client } = deps;

  /**
   * Each list's part a tool needs: from the loaded metadata, or, for a list it lacks (not loaded yet, or its
   * load failed), read now under the call's own signal and deadline, one list after another. Never a reload:
   * the background load keeps its own schedule, so a burst of calls cannot turn into a burst of reloads.
   */
  async function perList<T>(
    ctx: RequestContext,
    listIds: readonly string[],
    loaded: (list: ListMetadata) => T,
    read: (id: string, bounds: CallBounds) => Promise<T>,
  ): Promise<T[]> {
    const parts: T[] = [];
    for (const id of listIds) {
      const known = listMeta(deps, id);
      parts.push(known ? loaded(known) : await read(id, ctx));
    }
    return parts;
  }

  async function getAvailableStatuses(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    if (args.refresh === true) await deps.metadata.refresh(ctx.signal);
    let listIds = deps.settings.listIds;
    if (args.key !== undefined) {
      // Any status of its list is reachable from any other in ClickUp: the task's list decides.
      const key = keyOf(deps, args.key);
      const { path, query } = taskPath(deps, key);
      const task = await sendFor(
        deps,
        ctx,
      )<ClickUpTaskJson>({ method: 'GET', path, query, target: `task ${key.id}` });
      listIds = task.list ? [task.list.id] : listIds;
    }
    const lists = await perList(
      ctx,
      listIds,
      (list) => list,
      (id, bounds) => readList(client, id, bounds),
    );
    const items: StatusShape[] = lists.flatMap((list) =>
      list.statuses.map((status) => ({
        name: status.status,
        ...(status.type && CATEGORY[status.type] ? { category: CATEGORY[status.type] } : {}),
        ...(several ? { scope: list.name } : {}),
      })),
    );
    return shapedResult({ kind: 'status_list', items });
  }

  async function getCustomFields(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    if (args.refresh === true) await deps.metadata.refresh(ctx.signal);
    const { listIds } = deps.settings;
    // A list read here has no name to hand: its id stands in for it in `scope`.
    const lists: ListMetadata[] = await perList(
      ctx,
      listIds,
      (list) => list,
      async (id, bounds) => ({
        id,
        name: id,
        statuses: [],
        members: [],
        fields: await readFields(client, id, bounds),
      }),
    );
    const items: FieldShape[] = fieldParams({ lists, workspaceMembers: [] }).map(
      ({ param, field, lists: on }) => {
        const options = (field.type_config?.options ?? []).map((option) => option.name ?? option.label ?? '');
        return {
          id: field.id,
          name: field.name,
          type: VALUE_TYPE[field.type] ?? field.type,
          param,
          ...(options.length ? { options } : {}),
          ...(field.required ? { required: true } : {}),
          ...(several && on.length < lists.length ? { scope: on.join(', ') } : {}),
        };
      },
    );
    return shapedResult({ kind: 'field_list', items });
  }

  async function getUsers(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const search = str(args.search)?.toLowerCase();
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const data = deps.metadata.current();
    const workspace =
      data && data.workspaceFailure === undefined
        ? data.workspaceMembers
        : await readWorkspaceMembers(client, deps.settings.teamId, ctx);
    const perListMembers = await perList(
      ctx,
      deps.settings.listIds,
      (list) => list.members,
      (id, bounds) => readMembers(client, id, bounds),
    );
    // One entry per user: the workspace's first, then each list's in the configured order.
    const byId = new Map<number, ClickUpUserJson>();
    for (const user of [...workspace, ...perListMembers.flat()])
      if (!byId.has(user.id)) byId.set(user.id, user);
    const matches = [...byId.values()].filter(
      (user) => !search || [user.username, user.email].some((text) => text?.toLowerCase().includes(search)),
    );
    const items: UserShape[] = matches.slice(offset, offset + limit).map((user) => ({
      id: String(user.id),
      name: user.username ?? user.email ?? String(user.id),
      ...(user.email ? { email: user.email } : {}),
    }));
    return shapedResult({ kind: 'user_list', items, page: { offset, limit, total: matches.length } });
  }

  return {
    get_available_statuses: getAvailableStatuses,
    get_custom_fields: getCustomFields,
    get_users: getUsers,
  };
}
