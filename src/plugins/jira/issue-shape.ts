// Maps Jira's issue and comment JSON (v3 on Cloud, v2 on Server) to the shared IssueShape and CommentShape.
import type { CommentShape, IssueLinkShape, IssueShape } from '../../contract/index.js';
import { adfToMarkdown, isAdfDocument, markdownToAdf } from './adf.js';
import type { JiraFlavor } from './options.js';
import { markdownToWiki } from './wiki-from-markdown.js';
import { wikiToMarkdown } from './wiki-to-markdown.js';

export interface JiraUserJson {
  accountId?: string;
  name?: string;
  key?: string;
  displayName?: string;
  emailAddress?: string;
  active?: boolean;
}

interface JiraIssueRefJson {
  key: string;
  fields?: { summary?: string; status?: { name?: string } };
}

export interface JiraIssueJson {
  id?: string;
  key: string;
  fields: Record<string, unknown> & {
    summary?: string;
    status?: { name?: string } | null;
    description?: unknown;
    assignee?: JiraUserJson | null;
    reporter?: JiraUserJson | null;
    labels?: string[];
    priority?: { name?: string } | null;
    issuetype?: { name?: string } | null;
    fixVersions?: { name?: string }[];
    parent?: JiraIssueRefJson | null;
    created?: string;
    updated?: string;
    resolutiondate?: string | null;
    /** Asked for only with include_comments: the first page of comments, oldest first, and their total. */
    comment?: { total?: number; comments?: JiraCommentJson[] } | null;
    issuelinks?: {
      type: { name: string; inward: string; outward: string };
      inwardIssue?: JiraIssueRefJson;
      outwardIssue?: JiraIssueRefJson;
    }[];
    subtasks?: JiraIssueRefJson[];
  };
}

export interface JiraCommentJson {
  id: string;
  author?: JiraUserJson | null;
  body?: unknown;
  created?: string;
  updated?: string;
}

/** The fields get_issues and get_issue read (custom fields are added by id). */
export const ISSUE_FIELDS = [
  'summary',
  'status',
  'assignee',
  'reporter',
  'labels',
  'priority',
  'issuetype',
  'parent',
  'created',
  'updated',
  'resolutiondate',
  'fixVersions',
];

/** Markdown → what the API takes: an ADF document on Cloud (v3), wiki markup on Server (v2). */
export const toJiraText = (markdown: string, flavor: JiraFlavor): unknown =>
  flavor === 'cloud' ? markdownToAdf(markdown) : markdownToWiki(markdown);

/** A description or comment body → Markdown: Cloud's ADF, or Server's wiki markup (the only text v2 sends). */
export function fromJiraText(body: unknown): string | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return wikiToMarkdown(body);
  return isAdfDocument(body) ? adfToMarkdown(body) : undefined;
}

const userName = (user: JiraUserJson | null | undefined): string | undefined =>
  user?.displayName ?? user?.name ?? user?.accountId;

/** A custom field's value as a person reads it: option and user names, Markdown for rich text. */
export function readableValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(readableValue).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof value !== 'object') return value;
  if (isAdfDocument(value)) return adfToMarkdown(value);
  const record = value as Record<string, unknown>;
  const name = record.value ?? record.name ?? record.displayName;
  if (typeof name !== 'string') return undefined;
  const child = readableValue(record.child);
  return typeof child === 'string' ? `${name} > ${child}` : name;
}

function ref(issue: JiraIssueRefJson, relation: string, baseUrl: string): IssueLinkShape {
  return {
    key: issue.key,
    relation,
    ...(issue.fields?.summary ? { title: issue.fields.summary } : {}),
    ...(issue.fields?.status?.name ? { state: issue.fields.status.name } : {}),
    url: `${baseUrl}/browse/${issue.key}`,
  };
}

/** Links, sub-tasks and the parent, each named from this issue's side ("blocks", "is blocked by", "sub-task"). */
export function issueRelations(raw: JiraIssueJson, baseUrl: string): IssueLinkShape[] {
  const { fields } = raw;
  const links = (fields.issuelinks ?? []).flatMap((link) =>
    link.outwardIssue
      ? [ref(link.outwardIssue, link.type.outward, baseUrl)]
      : link.inwardIssue
        ? [ref(link.inwardIssue, link.type.inward, baseUrl)]
        : [],
  );
  return [
    ...(fields.parent ? [ref(fields.parent, 'parent', baseUrl)] : []),
    ...(fields.subtasks ?? []).map((sub) => ref(sub, 'sub-task', baseUrl)),
    ...links,
  ];
}

/** `customNames` maps the custom field ids to show to their display names. */
export function issueFromJira(
  raw: JiraIssueJson,
  baseUrl: string,
  customNames: ReadonlyMap<string, string> = new Map(),
): IssueShape {
  const { fields } = raw;
  const shape: IssueShape = {
    key: raw.key,
    title: fields.summary ?? '',
    state: fields.status?.name ?? 'unknown',
    url: `${baseUrl}/browse/${raw.key}`,
  };
  const author = userName(fields.reporter);
  const assignee = userName(fields.assignee);
  const body = fromJiraText(fields.description);
  const custom: Record<string, unknown> = {};
  for (const [id, name] of customNames) {
    const value = readableValue(fields[id]);
    if (value !== undefined) custom[name] = value;
  }
  const optional: Partial<IssueShape> = {
    author,
    assignees: assignee ? [assignee] : undefined,
    labels: fields.labels?.length ? fields.labels : undefined,
    priority: fields.priority?.name,
    type: fields.issuetype?.name,
    milestone: fields.fixVersions?.[0]?.name,
    parent: fields.parent?.key,
    createdAt: fields.created,
    updatedAt: fields.updated,
    closedAt: fields.resolutiondate ?? undefined,
    commentCount: fields.comment?.total,
    body,
    customFields: Object.keys(custom).length ? custom : undefined,
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value !== undefined && value !== '') Object.assign(shape, { [name]: value });
  }
  return shape;
}

export function commentFromJira(raw: JiraCommentJson, issueKey: string, baseUrl: string): CommentShape {
  const shape: CommentShape = {
    id: String(raw.id),
    body: fromJiraText(raw.body) ?? '',
    url: `${baseUrl}/browse/${issueKey}?focusedCommentId=${raw.id}`,
  };
  const author = userName(raw.author);
  if (author) shape.author = author;
  if (raw.created) shape.createdAt = raw.created;
  if (raw.updated && raw.updated !== raw.created) shape.updatedAt = raw.updated;
  return shape;
}
