// A project's create metadata: its issue types and each type's create-screen fields, from the paged endpoints
// (Cloud, Server / Data Center 8.4+), or from the single legacy endpoint on older Server versions that lack them.
import { PluginError } from '../../contract/index.js';
import type { CallScope, JiraClient } from './client.js';
import type { JiraFieldSchema } from './fields.js';

export interface IssueTypeMeta {
  id: string;
  name: string;
  subtask: boolean;
}

export interface CreateMetaField {
  fieldId?: string;
  key?: string;
  name: string;
  required?: boolean;
  hasDefaultValue?: boolean;
  schema?: JiraFieldSchema;
  allowedValues?: unknown[];
}

export interface IssueTypeFields {
  type: IssueTypeMeta;
  fields: CreateMetaField[];
}

/**
 * Pages of createmeta: Cloud lists issue types under `issueTypes` (jira.js's v3 model also names
 * `createMetaIssueType`) and fields under `fields` (the model also names `results`); Server 8.4+ under `values`.
 */
interface CreateMetaPage {
  issueTypes?: unknown[];
  createMetaIssueType?: unknown[];
  fields?: unknown[];
  results?: unknown[];
  values?: unknown[];
  total?: number;
  isLast?: boolean;
}

/** The legacy GET /issue/createmeta?projectKeys=…&expand=projects.issuetypes.fields (fields keyed by id). */
interface LegacyCreateMeta {
  projects?: {
    key: string;
    issuetypes?: (IssueTypeMeta & { fields?: Record<string, CreateMetaField> })[];
  }[];
}

const PAGE_SIZE = 100;
const MAX_PAGES = 10;

async function allValues<T>(fetchPage: (startAt: number) => Promise<CreateMetaPage>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await fetchPage(items.length);
    // The first list the page has items in: a site that fills both names of a list fills them alike.
    const lists = [
      answer.issueTypes,
      answer.createMetaIssueType,
      answer.fields,
      answer.results,
      answer.values,
    ];
    const values = (lists.find((list) => Array.isArray(list) && list.length > 0) ?? []) as T[];
    items.push(...values);
    const total = answer.total ?? Number.POSITIVE_INFINITY;
    if (answer.isLast === true || values.length === 0 || items.length >= total) break;
  }
  return items;
}

const typeMeta = (raw: { id: string | number; name: string; subtask?: boolean }): IssueTypeMeta => ({
  id: String(raw.id),
  name: raw.name,
  subtask: raw.subtask === true,
});

async function pagedCreateMeta(
  client: JiraClient,
  scope: CallScope,
  key: string,
): Promise<IssueTypeFields[]> {
  const what = `the create metadata of project ${key}`;
  const base = `/issue/createmeta/${encodeURIComponent(key)}/issuetypes`;
  const types = await allValues<{ id: string; name: string; subtask?: boolean }>((startAt) =>
    client.api(what, scope, { path: base, query: { startAt, maxResults: PAGE_SIZE } }),
  );
  const result: IssueTypeFields[] = [];
  // One type after another: a site's rate limit is shared with everything else the token does.
  for (const type of types.map(typeMeta)) {
    const fields = await allValues<CreateMetaField>((startAt) =>
      client.api(what, scope, {
        path: `${base}/${encodeURIComponent(type.id)}`,
        query: { startAt, maxResults: PAGE_SIZE },
      }),
    );
    result.push({ type, fields });
  }
  return result;
}

async function legacyCreateMeta(
  client: JiraClient,
  scope: CallScope,
  key: string,
): Promise<IssueTypeFields[]> {
  const answer = await client.api<LegacyCreateMeta>(`the create metadata of project ${key}`, scope, {
    path: '/issue/createmeta',
    query: { projectKeys: key, expand: 'projects.issuetypes.fields' },
  });
  const project = answer.projects?.find((p) => p.key.toUpperCase() === key);
  return (project?.issuetypes ?? []).map((type) => ({
    type: typeMeta(type),
    fields: Object.entries(type.fields ?? {}).map(([fieldId, field]) => ({ ...field, fieldId })),
  }));
}

/** Server / Data Center before 8.4 answers the paged endpoints with 404: the legacy one serves them instead. */
export async function createMetaOf(
  client: JiraClient,
  scope: CallScope,
  key: string,
  legacyAllowed: boolean,
): Promise<IssueTypeFields[]> {
  try {
    return await pagedCreateMeta(client, scope, key);
  } catch (error) {
    if (!legacyAllowed || !(error instanceof PluginError) || error.kind !== 'not_found') throw error;
    return legacyCreateMeta(client, scope, key);
  }
}
