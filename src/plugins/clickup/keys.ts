// ClickUp task keys in the forms people write them: "86a1b2c3d", "#86a1b2c3d", the task's URL, or a custom
// task id ("DEV-42") where the workspace uses them and the plugin is told so.
import { PluginError } from '../../contract/index.js';

const TASK_ID = /^#?([a-z0-9]{3,16})$/i;
const CUSTOM_ID = /^([A-Za-z][A-Za-z0-9]*-\d+)$/;
/** https://app.clickup.com/t/86a1b2c3d, or /t/<workspace>/DEV-42 for a custom id. */
const TASK_URL = /^https?:\/\/[^/]+\/t\/(?:\d+\/)?([A-Za-z0-9-]+)\/?(?:[?#].*)?$/;

export interface TaskKey {
  id: string;
  /** True for a custom task id, which the API reads with custom_task_ids=true&team_id=…. */
  custom: boolean;
}

/** The task a key names; anything else is refused with the forms that work, before any request. */
export function parseTaskKey(value: unknown, customIds: boolean, param = 'key'): TaskKey {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text === 'string') {
    const trimmed = text.trim();
    const candidate = TASK_URL.exec(trimmed)?.[1] ?? trimmed;
    if (customIds && CUSTOM_ID.test(candidate)) return { id: candidate.toUpperCase(), custom: true };
    const id = TASK_ID.exec(candidate)?.[1];
    if (id !== undefined) return { id: id.toLowerCase(), custom: false };
  }
  const forms = customIds
    ? 'a task id such as "86a1b2c3d", a custom id such as "DEV-42", or the task\'s URL'
    : 'a task id such as "86a1b2c3d" or the task\'s URL';
  throw new PluginError(
    'invalid_input',
    `parameter "${param}" is ${JSON.stringify(value)}, which is not a ClickUp task; use ${forms}`,
  );
}

/** Rewrites `param` into its canonical form in place, so equal keys look equal to the planner's cache. */
export function canonicalizeTaskKey(args: Record<string, unknown>, param: string, customIds: boolean): void {
  if (args[param] === undefined) return;
  try {
    args[param] = parseTaskKey(args[param], customIds, param).id;
  } catch {
    // Left for the tool to refuse in its own words.
  }
}
