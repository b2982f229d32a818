// The jira plugin's enricher: fits the unified tools to Jira and to the configured projects, and maps the agent's
// friendly values (priority words, option names, cf_ parameters) back to what the plugin and Jira's API take.
import { PluginError, type ToolEnricher } from '../../contract/index.js';
import { TRACKER_ONLY_FIELDS, notAllowed, trackerValueModel } from '../kit/index.js';
import { CF_PREFIX, type CustomParam, checkRequired, customParams, mapCustomArgs } from './custom-params.js';
import {
  PROJECT_PARAM,
  describeGeneric,
  describePartial,
  fitToJira,
  fitToMetadata,
  prioritiesOf,
} from './enricher-schema.js';
import { SUBTASK_CHOICE } from './issue-types.js';
import { issueKeyOf, projectOfKey } from './keys.js';
import type { JiraMetadata, MetadataStore, ProjectMeta } from './metadata.js';
import type { JiraSettings } from './options.js';
import { resolvePriority } from './priorities.js';

/** Unified parameters Jira has: the rest of the tracker-only ones are removed. */
const JIRA_FIELDS = new Set([
  'priority',
  'type',
  'status',
  'components',
  'points',
  'parent',
  'epic',
  'sprint',
  'due_date',
  'customFields',
  'query',
  'statuses',
  'created_after',
  'created_before',
  'updated_after',
  'due_after',
  'due_before',
]);

const KEY_PARAMS = ['key', 'target_key', 'parent', 'epic'];

/**
 * The cf_ names a story points field would have (`cf_story_points`, `cf_story_point_estimate`): the instance's
 * field is the unified `points` instead, so these are taken as another name for it.
 */
const POINTS_ALIAS = /^cf_story_?points?(?:_estimate)?$/;

function refuse(message: string): never {
  throw new PluginError('invalid_input', message);
}

/** Moves a cf_ story points argument to `points`, unless a custom field of the instance really has that name. */
function mapPointsAlias(args: Record<string, unknown>, params: readonly CustomParam[]): void {
  for (const name of Object.keys(args)) {
    if (!POINTS_ALIAS.test(name) || params.some((param) => param.param === name)) continue;
    const value = args[name];
    delete args[name];
    if (args.points !== undefined && args.points !== value)
      refuse(
        `${name} is another name for points, which says ${JSON.stringify(args.points)}: give one of them`,
      );
    args.points = value;
  }
}

/** `value` as one of `names`, matched without regard to case; else an error listing them. */
function canonical(param: string, value: unknown, names: readonly string[], where: string): string {
  const found =
    typeof value === 'string' ? names.find((n) => n.toLowerCase() === value.trim().toLowerCase()) : undefined;
  if (found !== undefined) return found;
  throw notAllowed(param, value, names, where.trim() || undefined);
}

/** The name in `names` that `value` spells in another case, else `value` as it is. */
const sameName = (value: unknown, names: readonly string[]): unknown =>
  (typeof value === 'string' && names.find((n) => n.toLowerCase() === value.trim().toLowerCase())) || value;

export function createJiraEnricher(
  settings: JiraSettings,
  metadata: MetadataStore,
  descriptions: ReadonlyMap<string, string>,
): ToolEnricher {
  const sole = settings.projects.length === 1 ? settings.projects[0] : undefined;
  // The cf_ parameters are worked out once per load, not once per tool per listing.
  let paramsFor: { data: JiraMetadata; params: CustomParam[] } | undefined;
  const params = (data: JiraMetadata): CustomParam[] => {
    if (paramsFor?.data !== data) paramsFor = { data, params: customParams(data) };
    return paramsFor.params;
  };

  /** The project a write acts on: the one configured, or the projectId given (checked by the schema's enum). */
  const projectOf = (args: Record<string, unknown>): string | undefined => {
    if (typeof args[PROJECT_PARAM] === 'string')
      args[PROJECT_PARAM] = args[PROJECT_PARAM].trim().toUpperCase();
    if (sole !== undefined) return sole;
    const key = typeof args.key === 'string' ? issueKeyOf(args.key) : undefined;
    return (args[PROJECT_PARAM] as string | undefined) ?? (key ? projectOfKey(key) : undefined);
  };

  function mapIssueType(args: Record<string, unknown>, project: ProjectMeta, creating: boolean): void {
    const types = project.issueTypes;
    const top = types.filter((t) => !t.subtask).map((t) => t.name);
    const subtasks = types.filter((t) => t.subtask).map((t) => t.name);
    const hasParent = args.parent !== undefined;
    if (args.type === undefined) {
      // Jira needs a type to create an issue. Under a parent the plugin picks it from the parent's own type
      // (a standard type under an epic, a sub-task type under another issue); else Task, when there is one.
      if (creating && !hasParent) args.type = top.includes('Task') ? 'Task' : top[0];
      return;
    }
    const name = canonical(
      'type',
      args.type,
      types.map((t) => t.name),
      ` (issue types of ${project.key})`,
    );
    if (creating && subtasks.includes(name) && !hasParent) {
      refuse(
        `type: "${name}" is a sub-task type: give parent (the issue it belongs to), or use one of ${top.join(', ')}`,
      );
    }
    if (creating && subtasks.includes(name)) {
      // A sub-task type named with parent reaches the plugin through customFields, which its declared schema
      // takes with any keys.
      delete args.type;
      const given = (args.customFields ?? {}) as Record<string, unknown>;
      args.customFields = { ...given, [SUBTASK_CHOICE]: { name } };
      return;
    }
    args.type = name;
  }

  function mapProjectValues(toolName: string, args: Record<string, unknown>, data: JiraMetadata): void {
    const key = projectOf(args);
    const project = key === undefined ? undefined : data.projects.get(key);
    const writes = toolName === 'create_issue' || toolName === 'update_issue';
    if (project !== undefined && writes) {
      mapIssueType(args, project, toolName === 'create_issue');
      if (typeof args.milestone === 'string' && args.milestone !== '') {
        const names = project.versions.map((v) => v.name);
        args.milestone = canonical('milestone', args.milestone, names, ` (fix versions of ${project.key})`);
      }
      if (Array.isArray(args.components)) {
        const names = project.components.map((c) => c.name);
        args.components = args.components.map((c) =>
          canonical('components', c, names, ` (components of ${project.key})`),
        );
      }
    }
    // Names the schema lists as enums, in any case: the schema's check then sees the instance's spelling.
    const projects = project ? [project] : [...data.projects.values()];
    const statuses = projects.flatMap((p) => p.statuses.map((st) => st.name));
    if (typeof args.status === 'string') args.status = sameName(args.status, statuses);
    if (Array.isArray(args.statuses))
      args.statuses = args.statuses.map((st: unknown) => sameName(st, statuses));
    if (!writes && typeof args.type === 'string') {
      args.type = sameName(
        args.type,
        projects.flatMap((p) => p.issueTypes.map((t) => t.name)),
      );
    }
    if (typeof args.priority === 'string') {
      const names = project ? prioritiesOf(project, data) : data.priorities;
      const resolved = resolvePriority(args.priority, names);
      if (resolved === undefined)
        throw notAllowed('priority', args.priority, names, '(or urgent, high, normal, low)');
      args.priority = resolved;
    }
    if (writes && key !== undefined && data.failed.has(key)) {
      const given = Object.keys(args).filter((name) => name.startsWith(CF_PREFIX));
      if (given.length) {
        refuse(
          `${given.join(', ')}: the metadata of ${key} could not be loaded (${data.failed.get(key) ?? ''}); give its custom fields in customFields by field id`,
        );
      }
      return;
    }
    if (writes) mapCustomArgs(args, params(data), key, settings.flavor);
    // After the mapping, so a bad value given is named before a value not given.
    if (toolName === 'create_issue' && project !== undefined && typeof args.type === 'string') {
      checkRequired(args, params(data), project.key, args.type);
    }
  }

  return {
    name: 'jira',
    supportedCategories: () => ['issue_tracker'],
    enrichSchema(tool, schema) {
      schema.removeParams(TRACKER_ONLY_FIELDS.filter((name) => !JIRA_FIELDS.has(name)));
      fitToJira(schema, tool.name, settings);
      const data = metadata.current();
      if (data === undefined) {
        describeGeneric(schema, descriptions.get(tool.name) ?? '', metadata.problem() ?? 'is missing');
        return;
      }
      fitToMetadata(schema, tool.name, settings, data, params(data));
      describePartial(schema, descriptions.get(tool.name) ?? '', data.failed);
    },
    transformArgs(tool, args) {
      // One spelling per issue, so the planner's cache and invalidations see "proj-7" and "PROJ-7" as one key.
      for (const name of KEY_PARAMS) {
        const key = issueKeyOf(args[name], sole);
        if (key !== undefined) args[name] = key;
      }
      if (Array.isArray(args.keys)) args.keys = args.keys.map((k: unknown) => issueKeyOf(k, sole) ?? k);
      const data = metadata.current();
      if (data === undefined) return;
      if (data.special.points && (tool.name === 'create_issue' || tool.name === 'update_issue'))
        mapPointsAlias(args, params(data));
      mapProjectValues(tool.name, args, data);
      if (tool.name === 'link_issues' && typeof args.link_type === 'string') {
        // A type's name ("Blocks") or its words in any case ("Is Blocked By") as the word the enum lists.
        const wanted = args.link_type
          .trim()
          .toLowerCase()
          .replace(/[_\s]+/g, ' ');
        const type = data.linkTypes.find((t) =>
          [t.name, t.outward, t.inward].some((w) => w.toLowerCase() === wanted),
        );
        if (type) args.link_type = type.inward.toLowerCase() === wanted ? type.inward : type.outward;
      }
    },
    valueModel: (tool) => trackerValueModel(tool, settings.apiHost),
    rateLimitHost: () => settings.apiHost,
    watch: (changed) => metadata.onChange(changed),
  };
}
