// Reads one load of the projects' metadata from Jira: create metadata per issue type, statuses, priorities, link types, fields.
import type { CallScope, JiraClient } from './client.js';
import {
  type CustomFieldDef,
  type FieldOption,
  type JiraFieldSchema,
  type SpecialFields,
  kindOf,
  optionsOf,
  specialOf,
} from './fields.js';

export interface IssueTypeMeta {
  id: string;
  name: string;
  subtask: boolean;
}

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
  statuses: StatusMeta[];
  customFields: CustomFieldDef[];
}

export interface LinkTypeMeta {
  name: string;
  inward: string;
  outward: string;
}

export interface JiraMetadata {
  projects: Map<string, ProjectMeta>;
  /** Every priority of the instance, highest first (Jira's order). */
  priorities: string[];
  linkTypes: LinkTypeMeta[];
  special: SpecialFields;
}

interface CreateMetaField {
  fieldId?: string;
  key?: string;
  name: string;
  required?: boolean;
  schema?: JiraFieldSchema;
  allowedValues?: unknown[];
}

/** Pages of createmeta: Cloud lists under `issueTypes` / `fields`, Server 8.4+ under `values`. */
interface CreateMetaPage {
  issueTypes?: unknown[];
  fields?: unknown[];
  values?: unknown[];
  startAt?: number;
  total?: number;
  isLast?: boolean;
}

const PAGE_SIZE = 100;
const MAX_PAGES = 10;

async function allValues<T>(fetchPage: (startAt: number) => Promise<CreateMetaPage>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await fetchPage(items.length);
    const values = (answer.issueTypes ?? answer.fields ?? answer.values ?? []) as T[];
    items.push(...values);
    const total = answer.total ?? Number.POSITIVE_INFINITY;
    if (answer.isLast === true || values.length === 0 || items.length >= total) break;
  }
  return items;
}

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
      requiredFor: field.required ? [issueType] : [],
    });
    return;
  }
  known.issueTypes.push(issueType);
  if (field.required) known.requiredFor.push(issueType);
  for (const option of options ?? []) {
    if (!known.options?.some((o) => o.id === option.id)) (known.options ??= []).push(option);
  }
}

async function loadProject(
  client: JiraClient,
  scope: CallScope,
  key: string,
  allPriorities: string[],
): Promise<ProjectMeta> {
  const what = `the create metadata of project ${key}`;
  const base = `/issue/createmeta/${encodeURIComponent(key)}/issuetypes`;
  const rawTypes = await allValues<{ id: string; name: string; subtask?: boolean }>((startAt) =>
    client.api(what, scope, { path: base, query: { startAt, maxResults: PAGE_SIZE } }),
  );
  const issueTypes = rawTypes.map((t) => ({ id: String(t.id), name: t.name, subtask: t.subtask === true }));
  const fields = new Map<string, CustomFieldDef>();
  const components = new Map<string, FieldOption>();
  const priorities = new Set<string>();
  for (const type of issueTypes) {
    const typeFields = await allValues<CreateMetaField>((startAt) =>
      client.api(what, scope, {
        path: `${base}/${encodeURIComponent(type.id)}`,
        query: { startAt, maxResults: PAGE_SIZE },
      }),
    );
    for (const field of typeFields) {
      const id = field.fieldId ?? field.key;
      if (id === 'components') for (const c of optionsOf(field.allowedValues) ?? []) components.set(c.id, c);
      if (id === 'priority') for (const p of optionsOf(field.allowedValues) ?? []) priorities.add(p.name);
      mergeField(fields, field, type.name);
    }
  }
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
    statuses: [...statuses.values()],
    customFields: [...fields.values()],
  };
}

/** One full load; any failed request fails it (the store keeps what it had, or the generic schemas). */
export async function loadMetadata(
  client: JiraClient,
  scope: CallScope,
  projects: readonly string[],
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
  // One project after another: a site's rate limit is shared with everything else the token does.
  for (const key of projects) loaded.set(key, await loadProject(client, scope, key, priorities));
  return {
    projects: loaded,
    priorities,
    linkTypes: (linkTypes.issueLinkTypes ?? []).map(({ name, inward, outward }) => ({
      name,
      inward,
      outward,
    })),
    special,
  };
}
