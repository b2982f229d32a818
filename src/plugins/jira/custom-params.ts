// The cf_ parameters of the configured projects: one per custom field (merged across projects when name and kind
// agree), their schemas, and the agent's cf_ arguments mapped back to `customFields` keyed by field id.
import { fieldNames, PluginError } from '../../contract/index.js';
import { allowedNames, apiValue, kindWords, paramSchema } from './custom-values.js';
import type { CustomFieldDef, FieldKind } from './fields.js';
import type { JiraMetadata } from './metadata.js';
import type { JiraFlavor } from './options.js';

export const CF_PREFIX = 'cf_';

export interface CustomParam {
  /** The parameter name: "cf_severity". */
  param: string;
  name: string;
  kind: FieldKind;
  /** The field behind the parameter in each project that has it, by project key. */
  fields: Map<string, CustomFieldDef>;
}

/**
 * The cf_ parameters, in a stable order. Fields of the same name and kind share a parameter across projects
 * (their options merged); a project's second field of that name and kind gets one of its own.
 */
export function customParams(metadata: JiraMetadata): CustomParam[] {
  const groups = new Map<string, { name: string; kind: FieldKind; fields: Map<string, CustomFieldDef> }>();
  for (const [key, project] of metadata.projects) {
    for (const field of project.customFields) {
      let groupKey = `${field.name}\u0000${field.kind}`;
      if (groups.get(groupKey)?.fields.has(key)) groupKey = `${groupKey}\u0000${field.id}`;
      const group = groups.get(groupKey) ?? { name: field.name, kind: field.kind, fields: new Map() };
      group.fields.set(key, field);
      groups.set(groupKey, group);
    }
  }
  const names = fieldNames(
    [...groups.keys()].map((groupKey) => [groupKey, groups.get(groupKey)?.name ?? '']),
  );
  return [...groups]
    .map(([groupKey, group]) => ({ param: names.get(groupKey) ?? CF_PREFIX, ...group }))
    .sort((a, b) => a.param.localeCompare(b.param));
}

/** Option names over every project's field, in first-seen order. */
function mergedNames(param: CustomParam): string[] {
  const names = new Set<string>();
  for (const field of param.fields.values())
    for (const name of allowedNames(field.kind, field.options ?? [])) names.add(name);
  return [...names];
}

/** The parameter's schema; its description names the field, what it takes, and where it applies. */
export function customParamSchema(
  param: CustomParam,
  flavor: JiraFlavor,
  multiProject: boolean,
): Record<string, unknown> {
  const fields = [...param.fields.values()];
  const ids = [...new Set(fields.map((f) => f.id))].join(', ');
  const parts = [`"${param.name}" (${ids}): ${kindWords(param.kind, flavor)}`];
  if (multiProject)
    parts.push(`in project${param.fields.size > 1 ? 's' : ''} ${[...param.fields.keys()].join(', ')}`);
  const types = new Set(fields.flatMap((f) => f.issueTypes));
  const required = new Set(fields.flatMap((f) => f.requiredFor));
  if (required.size) parts.push(`required for ${[...required].join(', ')}`);
  else if (fields.every((f) => f.issueTypes.length) && types.size) parts.push(`on ${[...types].join(', ')}`);
  return {
    ...nullable(paramSchema(param.kind, mergedNames(param), flavor)),
    description: `${parts.join('; ')}; null clears it`,
  };
}

/** The agent is held to the schema it is shown: a field that null clears says it takes null. */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  return {
    ...schema,
    type: [...types, 'null'],
    ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
  };
}

/**
 * Moves each cf_ argument into `customFields` as the API wants it, checked against the chosen project's field
 * (and issue type, when given). A cf_ parameter the project lacks is refused, naming the projects that have it.
 */
export function mapCustomArgs(
  args: Record<string, unknown>,
  params: readonly CustomParam[],
  project: string | undefined,
  flavor: JiraFlavor,
): void {
  const mapped: Record<string, unknown> = {};
  for (const param of params) {
    if (!Object.hasOwn(args, param.param)) continue;
    const value = args[param.param];
    delete args[param.param];
    if (project === undefined) {
      throw new PluginError(
        'invalid_input',
        `${param.param}: give projectId too, to say whose "${param.name}" it is`,
      );
    }
    const field = param.fields.get(project);
    if (field === undefined) {
      throw new PluginError(
        'invalid_input',
        `${param.param}: project ${project} has no field "${param.name}"; it is in ${[...param.fields.keys()].join(', ')}`,
      );
    }
    const type = typeof args.type === 'string' ? args.type : undefined;
    if (
      type !== undefined &&
      field.issueTypes.length &&
      !field.issueTypes.some((t) => t.toLowerCase() === type.toLowerCase())
    ) {
      throw new PluginError(
        'invalid_input',
        `${param.param}: "${param.name}" is not on ${type} issues of ${project}; it is on ${field.issueTypes.join(', ')}`,
      );
    }
    mapped[field.id] = apiValue(param.param, field, value, flavor);
  }
  if (Object.keys(mapped).length === 0) return;
  const given = (args.customFields ?? {}) as Record<string, unknown>;
  args.customFields = { ...given, ...mapped };
}

/**
 * Refuses a create that leaves out custom fields the project requires for its issue type, naming each cf_
 * parameter and what it takes, before Jira is asked. Values given by id in `customFields` count.
 */
export function checkRequired(
  args: Record<string, unknown>,
  params: readonly CustomParam[],
  project: string,
  type: string,
): void {
  const byId = (args.customFields ?? {}) as Record<string, unknown>;
  const missing = params.flatMap((param) => {
    const field = param.fields.get(project);
    if (field === undefined || !field.requiredFor.includes(type)) return [];
    if (Object.hasOwn(args, param.param) || Object.hasOwn(byId, field.id)) return [];
    const names = allowedNames(field.kind, field.options ?? []);
    return [`${param.param} ("${field.name}"${names.length ? `: one of ${names.join(', ')}` : ''})`];
  });
  if (missing.length) {
    throw new PluginError('invalid_input', `${type} issues of ${project} require ${missing.join('; ')}`);
  }
}
