// Maps ClickUp's task and comment JSON to the shared IssueShape and CommentShape; custom fields shown by name.
import type { CommentShape, IssueLinkShape, IssueShape } from '../../contract/index.js';
import type { ClickUpCommentJson, ClickUpFieldJson, ClickUpTaskJson, ClickUpUserJson } from './api-types.js';

/** ClickUp dates are unix ms, usually as strings. */
export function isoDate(ms: string | number | null | undefined): string | undefined {
  if (ms === null || ms === undefined || ms === '') return undefined;
  const date = new Date(Number(ms));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const userName = (user: ClickUpUserJson) => user.username ?? user.email ?? String(user.id);

/** A field's value as a person reads it: option names, user names, ISO dates; undefined when unset. */
export function displayValue(field: ClickUpFieldJson): unknown {
  const { value } = field;
  if (value === undefined || value === null || value === '') return undefined;
  const options = field.type_config?.options ?? [];
  switch (field.type) {
    case 'drop_down': {
      // A task carries the option's orderindex (older answers its id).
      const option = options.find((o) => o.orderindex === Number(value) || o.id === value);
      return option?.name ?? value;
    }
    case 'labels':
      return Array.isArray(value)
        ? value.map((id) => {
            const option = options.find((o) => o.id === id);
            return option?.label ?? option?.name ?? id;
          })
        : value;
    case 'users':
      return Array.isArray(value) ? (value as ClickUpUserJson[]).map(userName) : value;
    case 'tasks':
      return Array.isArray(value) ? (value as { id?: string }[]).map((task) => task.id ?? task) : value;
    case 'date':
      return isoDate(value as string);
    case 'checkbox':
      return value === true || value === 'true';
    case 'number':
    case 'currency':
    case 'emoji':
      return Number(value);
    case 'location':
      return (value as { formatted_address?: string }).formatted_address ?? value;
    case 'manual_progress':
    case 'automatic_progress':
      return (value as { percent_completed?: number }).percent_completed ?? value;
    default:
      return value;
  }
}

function customFields(fields: ClickUpFieldJson[] | undefined): Record<string, unknown> | undefined {
  const entries = (fields ?? [])
    .map((field) => [field.name, displayValue(field)] as const)
    .filter(([, value]) => value !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** The key people use: the custom task id when the workspace has them and the plugin uses them. */
export const taskKey = (task: ClickUpTaskJson, useCustomIds: boolean): string =>
  useCustomIds && task.custom_id ? task.custom_id : task.id;

export function issueFromTask(task: ClickUpTaskJson, useCustomIds = false): IssueShape {
  const shape: IssueShape = {
    key: taskKey(task, useCustomIds),
    title: task.name,
    state: task.status?.status ?? 'unknown',
  };
  const put = <K extends keyof IssueShape>(key: K, value: IssueShape[K] | undefined) => {
    if (value !== undefined && value !== null) shape[key] = value;
  };
  put('url', task.url);
  put('author', task.creator ? userName(task.creator) : undefined);
  if (task.assignees?.length) shape.assignees = task.assignees.map(userName);
  if (task.tags?.length) shape.labels = task.tags.map((tag) => tag.name);
  put('priority', task.priority?.priority);
  put('parent', task.parent ?? undefined);
  put('createdAt', isoDate(task.date_created));
  put('updatedAt', isoDate(task.date_updated));
  put('closedAt', isoDate(task.date_closed ?? task.date_done));
  put('body', task.markdown_description ?? task.text_content ?? task.description ?? undefined);
  const due = isoDate(task.due_date);
  const fields = { ...(due ? { 'Due date': due } : {}), ...customFields(task.custom_fields) };
  if (Object.keys(fields).length) shape.customFields = fields;
  return shape;
}

/** Subtasks, the parent, dependencies (from this task's side) and linked tasks. */
export function taskRelations(task: ClickUpTaskJson, useCustomIds = false): IssueLinkShape[] {
  const links: IssueLinkShape[] = [];
  if (task.parent) links.push({ key: task.parent, relation: 'parent' });
  for (const sub of task.subtasks ?? []) {
    links.push({
      key: taskKey(sub, useCustomIds),
      relation: 'subtask',
      title: sub.name,
      ...(sub.status?.status ? { state: sub.status.status } : {}),
      ...(sub.url ? { url: sub.url } : {}),
    });
  }
  for (const dependency of task.dependencies ?? []) {
    // task_id waits on depends_on: seen from this task, either it waits or it blocks.
    if (dependency.task_id === task.id) links.push({ key: dependency.depends_on, relation: 'waiting on' });
    else if (dependency.depends_on === task.id) links.push({ key: dependency.task_id, relation: 'blocking' });
  }
  for (const link of task.linked_tasks ?? []) {
    links.push({ key: link.task_id === task.id ? link.link_id : link.task_id, relation: 'linked to' });
  }
  return links;
}

export function commentFromClickUp(comment: ClickUpCommentJson, taskUrl?: string): CommentShape {
  const body = comment.comment_text ?? (comment.comment ?? []).map((part) => part.text ?? '').join('');
  const createdAt = isoDate(comment.date);
  return {
    id: String(comment.id),
    body,
    ...(comment.user ? { author: userName(comment.user) } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(comment.resolved === undefined ? {} : { resolved: comment.resolved }),
    ...(taskUrl ? { url: `${taskUrl}?comment=${String(comment.id)}` } : {}),
  };
}
