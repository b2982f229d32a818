// The write tools on tasks: create_issue, update_issue, add_issue_comment and link_issues.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext } from '../../contract/index.js';
import { type Args, commentedResult, notAllowed, strings, writtenResult } from '../kit/index.js';
import type { ClickUpTaskJson } from './api-types.js';
import { segment } from './client.js';
import { type FieldWrite, ID_SET_TYPES, userIds } from './field-params.js';
import type { TaskKey } from './keys.js';
import { issueFromTask, taskRelations } from './task-shape.js';
import { commonBody, fieldWrites, idDelta, inlineOnCreate, setFieldBody, settleDays } from './task-fields.js';
import { type ToolDeps, chosenListId, keyOf, listMeta, membersOf, sendFor, taskPath } from './tool-io.js';

/** How link_issues relates key to target_key: a dependency either way, or a plain link. */
export const LINK_TYPES = ['linked', 'waiting_on', 'blocking'] as const;

export function createTaskWriteTools(deps: ToolDeps) {
  const customIds = deps.settings.customTaskIds;
  const written = (verb: string, task: ClickUpTaskJson) =>
    writtenResult(verb, { kind: 'issue', item: issueFromTask(task, customIds) });

  async function setFields(
    send: ReturnType<typeof sendFor>,
    args: Args,
    task: ClickUpTaskJson,
    only?: (write: FieldWrite) => boolean,
  ) {
    for (const [fieldId, write] of fieldWrites(args)) {
      if (only && !only(write)) continue;
      // One request per field: the API sets custom field values one at a time.
      await send({
        method: 'POST',
        path: `/task/${segment(task.id)}/field/${segment(fieldId)}`,
        body: setFieldBody(write, task, fieldId),
        target: `custom field ${fieldId} of task ${task.id}`,
      });
    }
  }

  async function createIssue(given: Args, ctx: RequestContext): Promise<CallToolResult> {
    const listId = chosenListId(deps, given.list);
    if (listId === undefined)
      throw new PluginError(
        'invalid_input',
        `parameter "list" is required: say which list (${deps.settings.listIds.join(', ')})`,
      );
    const { args, timeZone } = await settleDays(deps, given, ctx);
    const send = sendFor(deps, ctx);
    const writes = fieldWrites(args);
    // The rest (id sets, dates with their time) go through Set Custom Field Value after the task exists.
    const inline = writes.filter(([, write]) => inlineOnCreate(write));
    const body = {
      ...commonBody(deps, args, [listId], timeZone),
      ...(strings(args.labels) ? { tags: strings(args.labels) } : {}),
      ...(inline.length ? { custom_fields: inline.map(([id, write]) => ({ id, value: write.value })) } : {}),
    };
    let task = await send<ClickUpTaskJson>({
      method: 'POST',
      path: `/list/${segment(listId)}/task`,
      body,
      target: `a new task in list ${listId}`,
    });
    if (inline.length < writes.length) {
      await setFields(send, args, task, (write) => !inlineOnCreate(write));
      task = await send<ClickUpTaskJson>({
        method: 'GET',
        path: `/task/${segment(task.id)}`,
        target: `task ${task.id}`,
      });
    }
    return written('Created', task);
  }

  /** "open" / "closed" → the first status of that kind in the task's list. */
  function stateStatus(task: ClickUpTaskJson, state: unknown): string | undefined {
    if (state !== 'open' && state !== 'closed') return undefined;
    const list = listMeta(deps, task.list?.id);
    // The list's closed status closes a task; a "done" one is the next best where a list has none.
    const kinds = state === 'closed' ? ['closed', 'done'] : ['open'];
    const status = kinds
      .map((kind) => list?.statuses.find((candidate) => candidate.type === kind))
      .find((found) => found !== undefined);
    if (!status)
      throw new PluginError(
        'invalid_input',
        `cannot ${state === 'closed' ? 'close' : 'reopen'} task ${task.id}: its list's statuses are not loaded; give a status instead`,
      );
    return status.status;
  }

  async function updateIssue(given: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyOf(deps, given.key);
    const { args, timeZone } = await settleDays(deps, given, ctx);
    const send = sendFor(deps, ctx);
    const { path, query } = taskPath(deps, key);
    const labels = strings(args.labels);
    const needsCurrent =
      args.assignees !== undefined ||
      labels !== undefined ||
      args.state !== undefined ||
      fieldWrites(args).some(([, w]) => ID_SET_TYPES.has(w.type));
    let current = needsCurrent
      ? await send<ClickUpTaskJson>({ method: 'GET', path, query, target: `task ${key.id}` })
      : undefined;
    const { assignees: _ignored, ...body } = commonBody(deps, args, undefined, timeZone);
    const assignees = strings(args.assignees);
    if (assignees && current) {
      const wanted = userIds(
        'assignees',
        assignees,
        membersOf(deps, current.list ? [current.list.id] : undefined),
      );
      body.assignees = idDelta(
        (current.assignees ?? []).map((user) => user.id),
        wanted,
      );
    }
    const status = current ? stateStatus(current, args.state) : undefined;
    if (status !== undefined && body.status === undefined) body.status = status;
    const changes = Object.keys(body).length + fieldWrites(args).length + (labels ? 1 : 0);
    if (changes === 0)
      throw new PluginError('invalid_input', `nothing to change on task ${key.id}: give at least one field`);
    let task = Object.keys(body).length
      ? await send<ClickUpTaskJson>({ method: 'PUT', path, query, body, target: `task ${key.id}` })
      : current;
    task ??= await send<ClickUpTaskJson>({ method: 'GET', path, query, target: `task ${key.id}` });
    current ??= task;
    await setFields(send, args, { ...task, custom_fields: current.custom_fields ?? [] });
    if (labels) {
      const delta = idDelta(
        (current.tags ?? []).map((tag) => tag.name),
        labels,
      );
      for (const [method, names] of [
        ['POST', delta.add],
        ['DELETE', delta.rem],
      ] as const) {
        for (const name of names)
          await send({
            method,
            path: `/task/${segment(task.id)}/tag/${segment(name)}`,
            target: `tag "${name}" of task ${task.id}`,
          });
      }
    }
    if (fieldWrites(args).length || labels)
      task = await send<ClickUpTaskJson>({
        method: 'GET',
        path: `/task/${segment(task.id)}`,
        target: `task ${task.id}`,
      });
    return written('Updated', task);
  }

  async function addIssueComment(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyOf(deps, args.key);
    const body = String(args.body);
    const answer = await sendFor(
      deps,
      ctx,
    )<{ id?: string | number; date?: string | number }>({
      ...taskPath(deps, key, '/comment'),
      method: 'POST',
      body: { comment_text: body, notify_all: false },
      target: `task ${key.id}`,
    });
    const createdAt = answer.date === undefined ? undefined : new Date(Number(answer.date)).toISOString();
    return commentedResult(
      key.id,
      answer.id === undefined
        ? undefined
        : { id: String(answer.id), body, ...(createdAt ? { createdAt } : {}) },
    );
  }

  /** The task id behind a custom id ("DEV-42"), read with custom_task_ids and team_id. */
  async function realTaskId(send: ReturnType<typeof sendFor>, key: TaskKey): Promise<string> {
    const { path, query } = taskPath(deps, key);
    const task = await send<ClickUpTaskJson>({ method: 'GET', path, query, target: `task ${key.id}` });
    return task.id;
  }

  async function linkIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyOf(deps, args.key);
    const target = keyOf(deps, args.target_key, 'target_key');
    const send = sendFor(deps, ctx);
    const type = String(args.link_type ?? 'linked');
    if (!(LINK_TYPES as readonly string[]).includes(type)) throw notAllowed('link_type', type, LINK_TYPES);
    // custom_task_ids=true names only the task in the path: the other task (the link's path segment, or
    // depends_on / dependency_of in the body) must be a real task id, so a custom one is looked up first.
    const targetId = target.custom ? await realTaskId(send, target) : target.id;
    if (type === 'linked') {
      await send({
        ...taskPath(deps, key, `/link/${segment(targetId)}`),
        method: 'POST',
        target: `task ${key.id}`,
      });
    } else {
      // waiting_on: key depends on target; blocking: target depends on key.
      const body = type === 'waiting_on' ? { depends_on: targetId } : { dependency_of: targetId };
      await send({ ...taskPath(deps, key, '/dependency'), method: 'POST', body, target: `task ${key.id}` });
    }
    const { path, query } = taskPath(deps, key);
    const task = await send<ClickUpTaskJson>({ method: 'GET', path, query, target: `task ${key.id}` });
    const item = issueFromTask(task, customIds);
    item.links = taskRelations(task, customIds);
    return writtenResult('Linked', { kind: 'issue', item });
  }

  return {
    create_issue: createIssue,
    update_issue: updateIssue,
    add_issue_comment: addIssueComment,
    link_issues: linkIssues,
  };
}
