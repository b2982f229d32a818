// Test seam for the jira plugin: the loopback REST fake with Jira's refusals, and response bodies built field by field
// from Atlassian's published REST docs (Cloud platform v3, Server / Data Center v2, Agile 1.0).
import { type FakeRest, startFakeRest } from './fake-rest.js';

export type { FakeHandler, FakeReply, RecordedRequest } from './fake-rest.js';
export type FakeJira = FakeRest;
export type Flavor = 'cloud' | 'server';

/** Jira answers paths under /rest/api/3, /rest/api/2 and /rest/agile/1.0: the fake has no prefix of its own. */
export function startFakeJira(): Promise<FakeJira> {
  return startFakeRest({
    name: 'jira',
    prefix: '',
    unauthorized: {
      status: 401,
      body: {
        errorMessages: ['You are not authenticated. Authentication required to perform this operation.'],
        errors: {},
      },
    },
    notFound: {
      status: 404,
      body: { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} },
    },
  });
}

export const apiOf = (flavor: Flavor): string => (flavor === 'cloud' ? '/rest/api/3' : '/rest/api/2');
const SITE = 'https://acme.atlassian.net';
const category = (key: 'new' | 'indeterminate' | 'done') => ({
  self: `${SITE}/rest/api/3/statuscategory/${key === 'new' ? 2 : key === 'done' ? 3 : 4}`,
  id: key === 'new' ? 2 : key === 'done' ? 3 : 4,
  key,
  colorName: key === 'new' ? 'blue-gray' : key === 'done' ? 'green' : 'yellow',
  name: key === 'new' ? 'To Do' : key === 'done' ? 'Done' : 'In Progress',
});

const user = (flavor: Flavor, id: string, displayName: string) =>
  flavor === 'cloud'
    ? {
        self: `${SITE}/rest/api/3/user?accountId=${id}`,
        accountId: id,
        accountType: 'atlassian',
        displayName,
        active: true,
        timeZone: 'Europe/Berlin',
      }
    : {
        self: `${SITE}/rest/api/2/user?username=${id}`,
        key: `JIRAUSER${id.length}`,
        name: id,
        displayName,
        emailAddress: `${id}@example.com`,
        active: true,
      };

const status = (name: string, cat: 'new' | 'indeterminate' | 'done', id = name.length) => ({
  self: `${SITE}/rest/api/3/status/${id}`,
  description: '',
  iconUrl: `${SITE}/images/icons/statuses/generic.png`,
  name,
  id: String(id),
  statusCategory: category(cat),
});

const issueType = (id: string, name: string, subtask = false) => ({
  self: `${SITE}/rest/api/3/issuetype/${id}`,
  id,
  description: `A ${name}`,
  iconUrl: `${SITE}/images/icons/issuetypes/${name.toLowerCase()}.svg`,
  name,
  subtask,
  hierarchyLevel: subtask ? -1 : 0,
});

const priority = (id: string, name: string) => ({
  self: `${SITE}/rest/api/3/priority/${id}`,
  statusColor: '#ff0000',
  description: name,
  iconUrl: `${SITE}/images/icons/priorities/${name.toLowerCase()}.svg`,
  name,
  id,
});

const linkType = (id: string, name: string, inward: string, outward: string) => ({
  id,
  name,
  inward,
  outward,
  self: `${SITE}/rest/api/3/issueLinkType/${id}`,
});

/** A one-paragraph ADF document, as Cloud sends descriptions and comments. */
const adf = (text: string) => ({
  type: 'doc',
  version: 1,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

/** Bodies as Jira sends them; `flavor` picks Cloud's or Server's variant where they differ. */
export const jira = {
  user,
  status,
  issueType,
  /** One createmeta field: `allowedValues` as Jira lists them (options with `value`, versions with `name`). */
  createField: (
    fieldId: string,
    name: string,
    schema: { type: string; items?: string; custom?: string; system?: string },
    options: { required?: boolean; allowedValues?: unknown[] } = {},
  ) => ({
    required: options.required ?? false,
    schema: { ...schema, ...(schema.custom ? { customId: Number(fieldId.replace(/\D/g, '')) } : {}) },
    name,
    key: fieldId,
    fieldId,
    hasDefaultValue: false,
    operations: ['set'],
    ...(options.allowedValues ? { allowedValues: options.allowedValues } : {}),
  }),
  option: (id: string, value: string, children?: unknown[]) => ({
    self: `${SITE}/rest/api/3/customFieldOption/${id}`,
    value,
    id,
    disabled: false,
    ...(children ? { children } : {}),
  }),
  version: (id: string, name: string) => ({
    self: `${SITE}/rest/api/3/version/${id}`,
    id,
    name,
    archived: false,
    released: false,
    projectId: 10000,
  }),
  component: (id: string, name: string) => ({ self: `${SITE}/rest/api/3/component/${id}`, id, name }),
  priority,
  linkType,
  siteField: (id: string, name: string, schema?: { type: string; items?: string; custom?: string }) => ({
    id,
    key: id,
    name,
    custom: id.startsWith('customfield_'),
    orderable: true,
    navigable: true,
    searchable: true,
    clauseNames: [id.startsWith('customfield_') ? `cf[${id.replace(/\D/g, '')}]` : id],
    ...(schema ? { schema } : {}),
  }),
  adf,
  issue: (flavor: Flavor, key: string, fields: Record<string, unknown> = {}) => ({
    expand: 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations',
    id: String(10_000 + Number(key.split('-')[1])),
    self: `${SITE}${apiOf(flavor)}/issue/${key}`,
    key,
    fields: {
      summary: `Issue ${key}`,
      status: status('To Do', 'new', 10000),
      issuetype: issueType('10001', 'Task'),
      priority: priority('3', 'Medium'),
      reporter: user(flavor, flavor === 'cloud' ? '5b10a2844c20165700ede21g' : 'mia', 'Mia Krystof'),
      assignee: null,
      labels: [],
      created: '2024-03-01T10:00:00.000+0000',
      updated: '2024-03-02T11:30:00.000+0000',
      resolutiondate: null,
      ...fields,
    },
  }),
  comment: (flavor: Flavor, id: string, text: string) => ({
    self: `${SITE}${apiOf(flavor)}/issue/10010/comment/${id}`,
    id,
    author: user(flavor, flavor === 'cloud' ? '5b10a2844c20165700ede21g' : 'mia', 'Mia Krystof'),
    body: flavor === 'cloud' ? adf(text) : text,
    updateAuthor: user(flavor, flavor === 'cloud' ? '5b10a2844c20165700ede21g' : 'mia', 'Mia Krystof'),
    created: '2024-03-03T09:00:00.000+0000',
    updated: '2024-03-03T09:00:00.000+0000',
    jsdPublic: true,
  }),
  transition: (id: string, name: string, to: Record<string, unknown>) => ({
    id,
    name,
    to,
    hasScreen: false,
    isGlobal: false,
    isInitial: false,
    isAvailable: true,
    isConditional: false,
  }),
  sprint: (id: number, name: string, state: 'active' | 'future' | 'closed', boardId = 7) => ({
    id,
    self: `${SITE}/rest/agile/1.0/sprint/${id}`,
    state,
    name,
    ...(state === 'future'
      ? {}
      : { startDate: '2024-03-04T09:00:00.000Z', endDate: '2024-03-18T17:00:00.000Z' }),
    ...(state === 'closed' ? { completeDate: '2024-03-18T16:00:00.000Z' } : {}),
    originBoardId: boardId,
    goal: `Goal of ${name}`,
  }),
};
