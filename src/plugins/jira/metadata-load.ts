// Reads one load of the projects' metadata from Jira: create metadata per issue type, statuses, priorities, link types, fields.
import type { CallScope, JiraClient } from './client.js';
import { type CreateMetaField, type IssueTypeMeta, createMetaOf } from './createmeta.js';
import type { JiraFlavor } from './options.js';
import {
  type CustomFieldDef,
  type FieldOption,
  type JiraFieldSchema,
  type SpecialFields,
  kindOf,
  optionsOf,
  specialOf,
} from './fields.js';

export type { IssueTypeMeta } from './createmeta.js';

export interface StatusMeta {
  name: string;
  /** Jira's status category key: "new", "indeterminate", "done". */
  category?: string;
  /** Issue type names whose workflow has it. */
  issueTypes: string[];
}

export interface ProjectMeta {
  key: string;
  issueTypes: IssueTypeMeta[];
  /** Priority names the project's scheme allows, highest first; empty when its create screens do not say. */
  priorities: string[];
  components: FieldOption[];
  /** Fix versions an issue can take (not archived), as the unified `milestone`. */
  versions: FieldOption[];
  statuses: StatusMeta[];
  customFields: CustomFieldDef[];
}

export interface LinkTypeMeta {
  name: string;
  inward: string;
  outward: string;
}

export interface JiraMetadata {
  /** The projects that loaded. */
  projects: Map<string, ProjectMeta>;
  /** The projects that did not, with why. */
  failed: Map<string, string>;
  /** Every priority of the instance, highest first (Jira's order). */
  priorities: string[];
  linkTypes: LinkTypeMeta[];
  special: SpecialFields;
}

/** Jira fills a required field that has a default itself: only the others must be given. */
const mustGive = (field: CreateMetaField): boolean =>
  field.required === true && field.hasDefaultValue !== true;

/** Adds one issue type's create fields to the project's: options and issue types merged per field id. */
function mergeField(fields: Map<string, CustomFieldDef>, field: CreateMetaField, issueType: string): void {
  const id = field.fieldId ?? field.key ?? '';
  const kind = kindOf(field.schema);
  if (!id.startsWith('customfield_') || kind === undefined || specialOf(field)) return;
  const known = fields.get(id);
  const options = optionsOf(field.allowedValues);
  if (known === undefined) {
    fields.set(id, {
      id,
      name: field.name,
      kind,
      ...(options ? { options } : {}),
      issueTypes: [issueType],
      requiredFor: mustGive(field) ? [issueType] : [],
    });
    return;
  }
  known.issueTypes.push(issueType);
  if (mustGive(field)) known.requiredFor.push(issueType);
  for (const option of options ?? []) {
    if (!known.options?.some((o) => o.id === option.id)) (known.options ??= []).push(option);
  }
}

async function loadProject(
  client: JiraClient,
  scope: CallScope,
  key: string,
  allPriorities: string[],
  legacyAllowed: boolean,
): Promise<ProjectMeta> {
  const fields = new Map<string, CustomFieldDef>();
  const components = new Map<string, FieldOption>();
  const versions = new Map<string, FieldOption>();
  const priorities = new Set<string>();
  const types = await createMetaOf(client, scope, key, legacyAllowed);
  for (const { type, fields: typeFields } of types) {
    for (const field of typeFields) {
      const id = field.fieldId ?? field.key;
      if (id === 'components') for (const c of optionsOf(field.allowedValues) ?? []) components.set(c.id, c);
      if (id === 'fixVersions') for (const v of optionsOf(field.allowedValues) ?? []) versions.set(v.id, v);
      if (id === 'priority') for (const p of optionsOf(field.allowedValues) ?? []) priorities.add(p.name);
      mergeField(fields, field, type.name);
    }
  }
  const issueTypes = types.map(({ type }) => type);
  const statusLists = await client.api<
    { name: string; statuses?: { name: string; statusCategory?: { key?: string } }[] }[]
  >(`the statuses of project ${key}`, scope, { path: `/project/${encodeURIComponent(key)}/statuses` });
  const statuses = new Map<string, StatusMeta>();
  for (const list of statusLists) {
    for (const status of list.statuses ?? []) {
      const known = statuses.get(status.name) ?? {
        name: status.name,
        ...(status.statusCategory?.key ? { category: status.statusCategory.key } : {}),
        issueTypes: [],
      };
      known.issueTypes.push(list.name);
      statuses.set(status.name, known);
    }
  }
  return {
    key,
    issueTypes,
    // In the instance's order (highest first), which createmeta does not promise.
    priorities: allPriorities.filter((name) => priorities.has(name)),
    components: [...components.values()],
    versions: [...versions.values()],
    statuses: [...statuses.values()],
    customFields: [...fields.values()],
  };
}

/**
 * One full load. A failed site-wide request, or every project failing, fails it (the store keeps what it had, or
 * the generic schemas); a project that fails alone is listed in `failed` and the others load.
 */
export async function loadMetadata(
  client: JiraClient,
  scope: CallScope,
  projects: readonly string[],
  flavor: JiraFlavor,
): Promise<JiraMetadata> {
  const [priorityList, linkTypes, allFields] = await Promise.all([
    client.api<{ name: string }[]>('the priority list', scope, { path: '/priority' }),
    client.api<{ issueLinkTypes?: LinkTypeMeta[] }>('the issue link type list', scope, {
      path: '/issueLinkType',
    }),
    client.api<{ id: string; name: string; schema?: JiraFieldSchema }[]>('the field list', scope, {
      path: '/field',
    }),
  ]);
  const priorities = priorityList.map((p) => p.name);
  const special: SpecialFields = {};
  for (const field of allFields) {
    const which = specialOf(field);
    if (which !== undefined) special[which] ??= field.id;
  }
  const loaded = new Map<string, ProjectMeta>();
  const failed = new Map<string, string>();
  let firstFailure: unknown;
  // One project after another: a site's rate limit is shared with everything else the token does.
  for (const key of projects) {
    try {
      loaded.set(key, await loadProject(client, scope, key, priorities, flavor === 'server'));
    } catch (error) {
      // One project the account cannot read must not take the others' schemas with it.
      if (scope.signal.aborted) throw error;
      firstFailure ??= error;
      failed.set(key, error instanceof Error ? error.message : String(error));
    }
  }
  if (loaded.size === 0) throw firstFailure;
  return {
    projects: loaded,
    failed,
    priorities,
    linkTypes: (linkTypes.issueLinkTypes ?? []).map(({ name, inward, outward }) => ({
      name,
      inward,
      outward,
    })),
    special,
  };
}
