// The read tools of the jira plugin: get_issues (JQL), get_issue (with comments and relations), get_issue_comments.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { RequestContext } from '../../contract/index.js';
import {
  DEFAULT_LIMIT,
  type Args,
  type FetchedPage,
  type ToolHandler,
  int,
  shapedResult,
  windowOfPages,
} from '../kit/index.js';
import {
  ISSUE_FIELDS,
  type JiraCommentJson,
  type JiraIssueJson,
  commentFromJira,
  issueFromJira,
  issueRelations,
} from './issue-shape.js';
import { issuesJql } from './jql.js';
import { type ToolDeps, customFieldNames, keyArg } from './tool-io.js';

/** Cloud's enhanced search (/search/jql) pages by token; Server's /search by startAt and total. */
interface CloudSearchJson {
  issues?: JiraIssueJson[];
  nextPageToken?: string;
  isLast?: boolean;
}
interface ServerSearchJson {
  issues?: JiraIssueJson[];
  startAt?: number;
  total?: number;
}

export function createIssueReadTools(deps: ToolDeps) {
  const { client, settings } = deps;

  function searchPages(jql: string, ctx: RequestContext) {
    const fields = ISSUE_FIELDS.join(',');
    const scope = ctx;
    if (settings.flavor === 'server') {
      return async (page: number, perPage: number): Promise<FetchedPage<JiraIssueJson>> => {
        const startAt = (page - 1) * perPage;
        const answer = await client.api<ServerSearchJson>('issues', scope, {
          path: '/search',
          query: { jql, startAt, maxResults: perPage, fields },
        });
        const issues = answer.issues ?? [];
        const total = answer.total;
        return {
          items: issues,
          hasNext: total === undefined ? issues.length === perPage : startAt + issues.length < total,
          ...(total === undefined ? {} : { total }),
        };
      };
    }
    // The token of page n + 1 comes with page n: pages are read in order, from the first.
    let token: string | undefined;
    return async (page: number, perPage: number): Promise<FetchedPage<JiraIssueJson>> => {
      const answer = await client.api<CloudSearchJson>('issues', scope, {
        path: '/search/jql',
        query: { jql, maxResults: perPage, fields, ...(page > 1 && token ? { nextPageToken: token } : {}) },
      });
      token = answer.nextPageToken;
      return { items: answer.issues ?? [], hasNext: answer.isLast !== true && token !== undefined };
    };
  }

  async function getIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const jql = issuesJql(args, settings.projects);
    const cloud = settings.flavor === 'cloud';
    const window = await windowOfPages(searchPages(jql, ctx), {
      offset,
      limit,
      // Tokens cannot jump to a page: Cloud reads from the first, in pages as large as the API allows.
      perPage: cloud && offset > 0 ? 100 : Math.max(limit, 20),
      ...(cloud ? { keep: () => true } : {}),
    });
    return shapedResult({
      kind: 'issue_list',
      items: window.items.map((issue) => issueFromJira(issue, settings.baseUrl)),
      page: window.page,
    });
  }

  const listComments = (key: string, offset: number, limit: number, ctx: RequestContext) =>
    windowOfPages<JiraCommentJson>(
      async (page, perPage) => {
        const startAt = (page - 1) * perPage;
        const answer = await deps.client.api<{ comments?: JiraCommentJson[]; total?: number }>(
          `comments of issue ${key}`,
          ctx,
          {
            path: `/issue/${encodeURIComponent(key)}/comment`,
            query: { startAt, maxResults: perPage, orderBy: 'created' },
          },
        );
        const comments = answer.comments ?? [];
        const total = answer.total ?? startAt + comments.length;
        return { items: comments, hasNext: startAt + comments.length < total, total };
      },
      { offset, limit, perPage: Math.max(limit, 20) },
    );

  /**
   * How many comments an issue has, without their bodies: a comment page of none carries the total. The count is
   * optional: when it cannot be read the issue is still answered (its own request says why it failed, if it did).
   */
  async function commentTotal(key: string, ctx: RequestContext): Promise<number | undefined> {
    try {
      const answer = await client.api<{ total?: number }>(`comments of issue ${key}`, ctx, {
        path: `/issue/${encodeURIComponent(key)}/comment`,
        query: { startAt: 0, maxResults: 0 },
      });
      return answer.total;
    } catch {
      return undefined;
    }
  }

  async function getIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyArg(deps, args.key);
    const custom = customFieldNames(deps);
    const relations = args.include_relations === true ? ['issuelinks', 'subtasks'] : [];
    const withComments = args.include_comments === true;
    // With comments, the issue's own comment field brings their first page and total in the same request;
    // without, the count alone comes from an empty comment page, alongside.
    const fields = [...ISSUE_FIELDS, 'description', ...(withComments ? ['comment'] : []), ...relations];
    const [raw, total] = await Promise.all([
      client.api<JiraIssueJson>(`issue ${key}`, ctx, {
        path: `/issue/${encodeURIComponent(key)}`,
        query: { fields: [...fields, ...custom.keys()].join(',') },
      }),
      withComments ? undefined : commentTotal(key, ctx),
    ]);
    const item = issueFromJira(raw, settings.baseUrl, custom);
    if (total !== undefined) item.commentCount = total;
    if (relations.length) item.links = issueRelations(raw, settings.baseUrl);
    if (!withComments) return shapedResult({ kind: 'issue', item });
    const embedded = raw.fields.comment?.comments ?? [];
    const wanted = Math.min(raw.fields.comment?.total ?? embedded.length, DEFAULT_LIMIT);
    // Jira may cut the embedded page short: then the comments are read on their own.
    const comments =
      embedded.length >= wanted
        ? embedded.slice(0, DEFAULT_LIMIT)
        : (await listComments(key, 0, DEFAULT_LIMIT, ctx)).items;
    return shapedResult({
      kind: 'issue',
      item,
      comments: comments.map((c) => commentFromJira(c, key, settings.baseUrl)),
    });
  }

  async function getIssueComments(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyArg(deps, args.key);
    const window = await listComments(key, int(args.offset, 0), int(args.limit, DEFAULT_LIMIT), ctx);
    return shapedResult({
      kind: 'comment_list',
      items: window.items.map((c) => commentFromJira(c, key, settings.baseUrl)),
      page: window.page,
    });
  }

  return {
    get_issues: getIssues,
    get_issue: getIssue,
    get_issue_comments: getIssueComments,
  } satisfies Record<string, ToolHandler>;
}
