// What the lists look like: get_available_statuses, get_custom_fields and get_users, from the loaded metadata.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FieldShape, StatusShape, UserShape } from '../../enrich/index.js';
import { PluginError, type RequestContext } from '../../host/index.js';
import { type Args, DEFAULT_LIMIT, int, shapedResult, str } from '../kit/index.js';
import type { ClickUpTaskJson } from './api-types.js';
import { fieldParams } from './field-params.js';
import type { WorkspaceMetadata } from './metadata.js';
import { type ToolDeps, keyOf, membersOf, sendFor, taskPath } from './tool-io.js';

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

  /** The metadata, loading it now when the background load has not succeeded yet. */
  async function loaded(): Promise<WorkspaceMetadata> {
    if (!deps.metadata.current()) await deps.metadata.refresh();
    const data = deps.metadata.current();
    if (!data)
      throw new PluginError(
        'unavailable',
        `cannot load the ClickUp lists' metadata: ${deps.metadata.failure() ?? 'unknown failure'}`,
      );
    return data;
  }

  async function getAvailableStatuses(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const data = await loaded();
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
    const items: StatusShape[] = data.lists
      .filter((list) => listIds.includes(list.id))
      .flatMap((list) =>
        list.statuses.map((status) => ({
          name: status.status,
          ...(status.type && CATEGORY[status.type] ? { category: CATEGORY[status.type] } : {}),
          ...(several ? { scope: list.name } : {}),
        })),
      );
    return shapedResult({ kind: 'status_list', items });
  }

  async function getCustomFields(): Promise<CallToolResult> {
    const data = await loaded();
    const items: FieldShape[] = fieldParams(data).map(({ param, field, lists }) => {
      const options = (field.type_config?.options ?? []).map((option) => option.name ?? option.label ?? '');
      return {
        id: field.id,
        name: field.name,
        type: VALUE_TYPE[field.type] ?? field.type,
        param,
        ...(options.length ? { options } : {}),
        ...(field.required ? { required: true } : {}),
        ...(several && lists.length < data.lists.length ? { scope: lists.join(', ') } : {}),
      };
    });
    return shapedResult({ kind: 'field_list', items });
  }

  async function getUsers(args: Args): Promise<CallToolResult> {
    await loaded();
    const search = str(args.search)?.toLowerCase();
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const matches = membersOf(deps).filter(
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
