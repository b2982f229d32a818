// The task fields create_issue and update_issue share, in the API's names and formats.
import type { RequestContext } from '../../contract/index.js';
import { type Args, notAllowed, str, strings } from '../kit/index.js';
import type { ClickUpTaskJson } from './api-types.js';
import { type FieldWrite, ID_SET_TYPES, userIds } from './field-params.js';
import { dateOnlyMs, isDay, userTimeZone } from './dates.js';
import { type ToolDeps, dayMs, membersOf } from './tool-io.js';

/** ClickUp's priorities, 1 (urgent) to 4 (low). */
export const PRIORITIES = ['urgent', 'high', 'normal', 'low'] as const;

/** What create_issue and update_issue take as `priority`: the enricher maps the names to these numbers. */
export const PRIORITY_NUMBER = {
  type: 'integer',
  minimum: 1,
  maximum: 4,
  description: '1 (urgent) to 4 (low)',
} as const;

/** "high" or 2 → 2; the enricher has already mapped names, so this also serves calls that bypass it. */
export function priorityNumber(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 4) return value;
  const index = PRIORITIES.indexOf(String(value).trim().toLowerCase() as (typeof PRIORITIES)[number]);
  if (index >= 0) return index + 1;
  throw notAllowed('priority', value, PRIORITIES, '(or 1-4)');
}

/** The mapped custom fields the enricher left in `customFields`, by field id. */
export function fieldWrites(args: Args): [string, FieldWrite][] {
  const raw = args.customFields;
  if (raw === undefined || raw === null || typeof raw !== 'object') return [];
  return Object.entries(raw as Record<string, FieldWrite>);
}

/**
 * The call's dates without a time (due_date, date fields given as YYYY-MM-DD) need the token user's time zone
 * (see dates.ts): it is read only when there is one, and the date fields' values are fixed with it.
 */
export async function settleDays(
  deps: ToolDeps,
  args: Args,
  ctx: RequestContext,
): Promise<{ args: Args; timeZone: string | undefined }> {
  const writes = fieldWrites(args);
  if (!isDay(args.due_date) && !writes.some(([, write]) => write.day !== undefined))
    return { args, timeZone: undefined };
  const timeZone = await userTimeZone(deps, ctx);
  const customFields = Object.fromEntries(
    writes.map(([id, write]) => [
      id,
      write.day === undefined ? write : { ...write, value: dateOnlyMs(write.day, timeZone) },
    ]),
  );
  return { args: { ...args, ...(writes.length ? { customFields } : {}) }, timeZone };
}

/** Body fields of POST /list/{id}/task and PUT /task/{id} that do not depend on the current task. */
export function commonBody(
  deps: ToolDeps,
  args: Args,
  listIds?: readonly string[],
  timeZone?: string,
): Record<string, unknown> {
  const priority = priorityNumber(args.priority);
  // Checked as YYYY-MM-DD first; then the instant ClickUp keeps for a due date without a time.
  const due =
    dayMs(args.due_date, 'due_date') === undefined ? undefined : dateOnlyMs(String(args.due_date), timeZone);
  return {
    ...(typeof args.title === 'string' ? { name: args.title } : {}),
    // markdown_content is what create and update read as Markdown; markdown_description only comes back.
    ...(typeof args.body === 'string' ? { markdown_content: args.body } : {}),
    ...(str(args.status) ? { status: str(args.status) } : {}),
    ...(priority === undefined ? {} : { priority }),
    ...(due === undefined ? {} : { due_date: due, due_date_time: false }),
    ...(typeof args.points === 'number' ? { points: args.points } : {}),
    ...(str(args.parent) ? { parent: str(args.parent) } : {}),
    ...(strings(args.assignees) && listIds
      ? { assignees: userIds('assignees', strings(args.assignees), membersOf(deps, listIds)) }
      : {}),
  };
}

/** {add, rem} that turns `current` into `wanted`. */
export function idDelta<T extends string | number>(current: readonly T[], wanted: readonly T[]) {
  return {
    add: wanted.filter((id) => !current.includes(id)),
    rem: current.filter((id) => !wanted.includes(id)),
  };
}

/** The ids a users or tasks field holds on a task now. */
export function currentIds(task: ClickUpTaskJson | undefined, fieldId: string): (string | number)[] {
  const value = task?.custom_fields?.find((field) => field.id === fieldId)?.value;
  if (!Array.isArray(value)) return [];
  return (value as ({ id?: string | number } | string | number)[]).map((item) =>
    typeof item === 'object' && item !== null ? (item.id ?? '') : item,
  );
}

/**
 * Whether Create Task can carry the value in its `custom_fields`: those items are only `{id, value}` (the API
 * reference has no `value_options` there), so a date shown with its time, and id sets written as {add, rem},
 * go through Set Custom Field Value once the task exists.
 */
export const inlineOnCreate = (write: FieldWrite): boolean =>
  !ID_SET_TYPES.has(write.type) && write.value_options?.time !== true;

/** The body of POST /task/{id}/field/{field_id} for one mapped value. */
export function setFieldBody(
  write: FieldWrite,
  task?: ClickUpTaskJson,
  fieldId = '',
): Record<string, unknown> {
  if (ID_SET_TYPES.has(write.type)) {
    const wanted = write.value as (string | number)[];
    return { value: idDelta(currentIds(task, fieldId), wanted) };
  }
  return { value: write.value, ...(write.value_options ? { value_options: write.value_options } : {}) };
}
