// Which issue type a new issue gets under a parent: a standard type under an epic, a sub-task type under any other
// issue. The parent's own type decides, read from Jira, so an epic parent on Cloud never gets a sub-task.
import { PluginError, type RequestContext } from '../../contract/index.js';
import { type Args, str } from '../kit/index.js';
import { type ToolDeps } from './tool-io.js';

/**
 * Where the enricher leaves a sub-task type the agent named in `type` with `parent`: the name travels in
 * `customFields` (an object of any keys in the plugin's declared schema), under the id Jira itself gives the field.
 */
export const SUBTASK_CHOICE = 'issuetype';

interface IssueTypeJson {
  name?: string;
  subtask?: boolean;
  /** Cloud: 1 epic, 0 standard, -1 sub-task. Server / Data Center does not say. */
  hierarchyLevel?: number;
}

export const isEpicType = (type: IssueTypeJson): boolean =>
  type.hierarchyLevel === undefined ? type.name?.toLowerCase() === 'epic' : type.hierarchyLevel >= 1;

/** The sub-task type the enricher passed on, taken out of `customFields`. */
export function takeSubtaskChoice(args: Args): string | undefined {
  const custom = args.customFields as Record<string, unknown> | undefined;
  const choice = custom?.[SUBTASK_CHOICE] as { name?: unknown } | undefined;
  if (custom === undefined || choice === undefined) return undefined;
  const { [SUBTASK_CHOICE]: _taken, ...rest } = custom;
  args.customFields = rest;
  return typeof choice.name === 'string' ? choice.name : undefined;
}

export interface ParentPlacement {
  /** The issue type name to create. */
  type: string;
  /** The parent is an epic. */
  epic: boolean;
}

/**
 * The type of a new issue under `parent`, from the parent's own type: under an epic, the agent's standard type or
 * the project's default (Task, else its first standard type); under a standard issue, the sub-task type the agent
 * named or the project's first. Without metadata the agent's `type` is taken as given.
 */
export async function typeUnderParent(
  deps: ToolDeps,
  project: string,
  parent: string,
  args: Args,
  subtaskChoice: string | undefined,
  ctx: RequestContext,
): Promise<ParentPlacement> {
  const raw = await deps.client.api<{ fields?: { issuetype?: IssueTypeJson } }>(`issue ${parent}`, ctx, {
    path: `/issue/${encodeURIComponent(parent)}`,
    query: { fields: 'issuetype' },
  });
  const parentType = raw.fields?.issuetype ?? {};
  const types = deps.metadata.project(project)?.issueTypes;
  const standard = (types ?? []).filter((t) => !t.subtask).map((t) => t.name);
  const subtasks = (types ?? []).filter((t) => t.subtask).map((t) => t.name);
  const named = str(args.type);
  if (isEpicType(parentType)) {
    if (subtaskChoice !== undefined) {
      throw new PluginError(
        'invalid_input',
        `type: ${parent} is an epic, whose children are standard issues${standard.length ? ` (${standard.join(', ')})` : ''}, not a ${subtaskChoice}`,
      );
    }
    const fallback = types === undefined || standard.includes('Task') ? 'Task' : (standard[0] ?? 'Task');
    return { type: named ?? fallback, epic: true };
  }
  if (parentType.subtask === true) {
    throw new PluginError('invalid_input', `parent: ${parent} is a sub-task, which cannot have sub-tasks`);
  }
  if (types === undefined) return { type: subtaskChoice ?? named ?? 'Sub-task', epic: false };
  const subtask = subtaskChoice ?? subtasks[0];
  if (subtask === undefined) {
    throw new PluginError(
      'invalid_input',
      `parent: ${project} has no sub-task type, so ${parent} (a ${parentType.name ?? 'standard issue'}) cannot have one; give an epic as parent`,
    );
  }
  return { type: subtask, epic: false };
}
