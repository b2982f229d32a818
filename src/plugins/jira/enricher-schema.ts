// How the jira enricher fits each unified tool's schema to Jira and to the configured projects' metadata.
import type { ToolSchema } from '../../contract/index.js';
import { type CustomParam, customParamSchema } from './custom-params.js';
import type { JiraMetadata, ProjectMeta } from './metadata.js';
import type { JiraSettings } from './options.js';
import { PRIORITY_WORDS } from './priorities.js';

/** The parameter the jira plugin adds to get_issues and create_issue: which configured project. */
export const PROJECT_PARAM = 'projectId';

/** The seeds' cf_ name for story points, which this plugin serves as `points`. */
export const STORY_POINTS_ALIAS = 'cf_story_points';

const union = (lists: string[][]): string[] => [...new Set(lists.flat())];

/** What never depends on metadata: Jira's own shape of the unified tools. */
export function fitToJira(schema: ToolSchema, toolName: string, settings: JiraSettings): void {
  // A Jira issue's milestone is its fix version; it has one assignee.
  if (schema.param('milestone')) {
    schema.setParamDescription(
      'milestone',
      toolName === 'update_issue' ? 'fix version name; "" clears the fix versions' : 'fix version name',
    );
  }
  const user = settings.flavor === 'cloud' ? 'accountId' : 'user name';
  // Which project is known without metadata: the one configured, else one of the configured keys, never a guess.
  if (schema.param(PROJECT_PARAM)) {
    if (settings.projects.length === 1) schema.removeParams([PROJECT_PARAM]);
    else {
      schema.setEnum(PROJECT_PARAM, settings.projects);
      if (toolName === 'create_issue') schema.setRequired(PROJECT_PARAM);
    }
  }
  if (schema.param('assignees')) {
    schema.addParam('assignees', {
      type: 'array',
      items: { type: 'string' },
      maxItems: 1,
      description: `the assignee: one ${user}, display name or email, found by user search when not an ${user} ([] to unassign)`,
    });
  }
  if (schema.param('assignee'))
    schema.setParamDescription('assignee', `only issues assigned to this ${user}, or "me"`);
  if (schema.param('author'))
    schema.setParamDescription('author', `only issues reported by this ${user}, or "me"`);
  switch (toolName) {
    case 'get_issues':
      // JQL orders by dates, priority and rank, but not by comment count.
      schema.setEnum('sort', ['created', 'updated', 'priority']);
      // No schema default: with a query the query decides, so a client filling defaults in must not add "open".
      schema.addParam('state', {
        type: 'string',
        enum: ['open', 'closed', 'all'],
        description: 'which issues, by status category (default open; with query, all unless given)',
      });
      schema.setParamDescription(
        'search',
        'words to search for in summaries, descriptions and comments (JQL text ~)',
      );
      break;
    case 'create_issue':
      // A new issue starts in its workflow's first status; update_issue moves it on.
      schema.removeParams(['status']);
      break;
    case 'update_issue':
      schema.setParamDescription(
        'status',
        'move the issue to this status through the workflow transition that leads there',
      );
      break;
  }
  if (settings.flavor === 'cloud' && schema.param('epic')) {
    // Cloud puts an issue under its epic with `parent`; a site that still has an Epic Link field keeps `epic`.
    schema.setParamDescription('epic', 'key of the epic (Cloud: set as the parent)');
  }
}

/** Enums and cf_ parameters from the metadata; `projects` are those the tool can act on. */
export function fitToMetadata(
  schema: ToolSchema,
  toolName: string,
  settings: JiraSettings,
  data: JiraMetadata,
  params: readonly CustomParam[],
): void {
  const projects = [...data.projects.values()];
  const multi = settings.projects.length > 1;
  const top = union(projects.map((p) => p.issueTypes.filter((t) => !t.subtask).map((t) => t.name)));
  const subtasks = union(projects.map((p) => p.issueTypes.filter((t) => t.subtask).map((t) => t.name)));
  if (toolName === 'create_issue' && schema.param('type')) {
    // Sub-task types are not top-level issues: under a parent the plugin decides. The enum lists them only when
    // there are several to name, since the agent is held to what it is shown.
    setNames(schema, 'type', subtasks.length > 1 ? [...top, ...subtasks] : top);
    const fallback = top.includes('Task') ? 'Task' : (top[0] ?? '');
    schema.setParamDescription(
      'type',
      `issue type: ${top.join(', ')} (default ${fallback}). With parent, the parent's type decides: under an epic, ` +
        `one of these (default ${fallback}); under another issue, a sub-task` +
        (subtasks.length > 1
          ? ` of a sub-task type, which type may name: ${subtasks.join(', ')} (default ${subtasks[0] ?? ''})`
          : subtasks.length === 1
            ? ` (${subtasks[0] ?? ''})`
            : ''),
    );
  } else {
    setNames(schema, 'type', union(projects.map((p) => p.issueTypes.map((t) => t.name))));
  }
  const priorities = union(projects.map((p) => prioritiesOf(p, data)));
  if (setNames(schema, 'priority', priorities)) {
    // The agent is held to what it is shown, so the words the enricher maps are shown too.
    schema.addEnumValues('priority', PRIORITY_WORDS);
    schema.setParamDescription(
      'priority',
      `priority: ${priorities.join(', ')}; or ${PRIORITY_WORDS.join(', ')}`,
    );
  }
  setNames(schema, 'components', union(projects.map((p) => p.components.map((c) => c.name))));
  const versions = union(projects.map((p) => p.versions.map((v) => v.name)));
  if (schema.param('milestone')) {
    if (versions.length === 0) schema.removeParams(['milestone']);
    else schema.setEnum('milestone', toolName === 'update_issue' ? [...versions, ''] : versions);
  }
  const statuses = union(projects.map((p) => p.statuses.map((s) => s.name)));
  setNames(schema, 'statuses', statuses);
  if (toolName === 'update_issue') setNames(schema, 'status', statuses);
  if (schema.param('link_type')) fitLinkTypes(schema, data);
  if (!data.special.points) schema.removeParams(['points']);
  else if (
    (toolName === 'create_issue' || toolName === 'update_issue') &&
    !params.some((param) => param.param === STORY_POINTS_ALIAS)
  )
    // The seeds' name for story points: shown, since the agent is held to its schema; the enricher moves it.
    schema.addParam(STORY_POINTS_ALIAS, {
      ...(schema.param('points') ?? { type: 'number' }),
      description: 'another name for points (story points), as the seeds call it; give one of the two',
    });
  if (!data.special.sprint) schema.removeParams(['sprint']);
  if (!data.special.epicLink && settings.flavor === 'server') schema.removeParams(['epic']);
  const writes = toolName === 'create_issue' || toolName === 'update_issue';
  if (writes && schema.param('customFields') && data.failed.size > 0) {
    // Projects whose metadata is missing still take custom fields, by id.
    schema.setParamDescription(
      'customFields',
      `custom fields of ${[...data.failed.keys()].join(', ')} by field id ("customfield_10042"), each value in the format Jira's API takes`,
    );
    for (const param of params)
      schema.addParam(param.param, customParamSchema(param, settings.flavor, multi));
  } else if (writes && schema.param('customFields')) {
    schema.removeParams(['customFields']);
    for (const param of params)
      schema.addParam(param.param, customParamSchema(param, settings.flavor, multi));
  }
}

export const prioritiesOf = (project: ProjectMeta, data: JiraMetadata): string[] =>
  project.priorities.length ? project.priorities : data.priorities;

/** An enum of names on a string or array parameter, when both exist; true when set. */
function setNames(schema: ToolSchema, name: string, values: string[]): boolean {
  if (!schema.param(name) || values.length === 0) return false;
  schema.setEnum(name, values);
  return true;
}

/** link_type: the instance's link words, outward and inward, each saying which way it points. */
function fitLinkTypes(schema: ToolSchema, data: JiraMetadata): void {
  const words = union(data.linkTypes.map((t) => [t.outward, t.inward]));
  if (words.length === 0) return;
  schema.setEnum('link_type', words);
  const relates = words.find((w) => /^relates to$/i.test(w));
  if (relates) schema.setDefault('link_type', relates);
  schema.setParamDescription(
    'link_type',
    `how key relates to target_key, in this site's words: ${data.linkTypes
      .map((t) => `"${t.outward}" / "${t.inward}" (${t.name})`)
      .join(', ')}`,
  );
}

/** Names the projects whose metadata failed to load, so the agent knows their values are not checked. */
export function describePartial(
  schema: ToolSchema,
  description: string,
  failed: ReadonlyMap<string, string>,
): void {
  if (failed.size === 0) return;
  const reasons = [...failed].map(([key, why]) => `${key} (${why})`).join('; ');
  schema.setDescription(
    `${description} Metadata of ${reasons} could not be loaded: issue types, components and custom fields of ${[...failed.keys()].join(', ')} are not listed or checked here.`,
  );
}

/** When the metadata is missing: say so, and how to pass custom fields without it. */
export function describeGeneric(schema: ToolSchema, description: string, problem: string): void {
  schema.setDescription(
    `${description} Jira project metadata ${problem}: issue types, priorities, components and custom fields are not listed or checked here.`,
  );
  if (schema.param('customFields')) {
    schema.setParamDescription(
      'customFields',
      'custom fields by field id ("customfield_10042"), each value in the format Jira\'s API takes',
    );
  }
}
