// The issue tools of the github plugin: the unified issue_tracker tools on GitHub's REST issues API.
import type { IssueLinkShape, RequestContext } from '../../contract/index.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type Args,
  type ToolHandler,
  DEFAULT_LIMIT,
  int,
  lookupByName,
  numberedKey,
  parseNumberedKey,
  shapedResult,
  str,
  strings,
  windowOfPages,
  writtenResult,
  commentedResult,
} from '../kit/index.js';
import type { GitHubClient } from './client.js';
import { type GitHubCommentJson, commentFromGitHub } from './comment-shape.js';
import { request } from './failure.js';
import { issueFromGitHub, type GitHubIssueJson } from './issue-shape.js';
import type { MetadataStore } from './metadata.js';
import { fetchedPage, listPage } from './paging.js';
import { githubTarget } from './review-context.js';
import type { GitHubSettings } from './options.js';

export interface IssueToolsDeps {
  client: GitHubClient;
  settings: GitHubSettings;
  metadata: MetadataStore;
  /** The parent and sub-issues of an issue, when the instance has sub-issues. */
  relationsOf?: (number: number, signal: AbortSignal) => Promise<IssueLinkShape[]>;
}

export function createIssueTools({ client, settings, metadata, relationsOf }: IssueToolsDeps) {
  const { owner, repo, fullName } = settings;
  const target = githubTarget(settings);
  const issueNumber = (args: Args) => parseNumberedKey(args.key, 'issue');

  /** Milestone titles → numbers; "" clears (null); an unknown title names the open ones. */
  const milestoneNumber = (title: unknown): number | null | undefined => {
    if (title === undefined) return undefined;
    if (title === '') return null;
    return lookupByName('open milestone', title, metadata.current()?.milestones, fullName);
  };

  async function getIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const state = (str(args.state) ?? 'open') as 'open' | 'closed' | 'all';
    const sort = (str(args.sort) ?? 'created') as 'created' | 'updated' | 'comments';
    const direction = (str(args.order) ?? 'desc') as 'asc' | 'desc';
    const search = str(args.search);
    if (search !== undefined) {
      // Search is the only way to match words, and the only listing that knows its total.
      const qualifiers = [
        `repo:${fullName}`,
        'is:issue',
        ...(state === 'all' ? [] : [`state:${state}`]),
        ...(strings(args.labels) ?? []).map((label) => `label:"${label}"`),
        ...(str(args.assignee) ? [`assignee:${str(args.assignee)}`] : []),
        ...(str(args.author) ? [`author:${str(args.author)}`] : []),
      ];
      const window = await windowOfPages(
        async (page, perPage, next) => {
          const { data, next: following } = await listPage<{ items: GitHubIssueJson[]; total_count: number }>(
            client,
            target('issue search'),
            { signal: ctx.signal },
            next,
            () =>
              client.rest.search.issuesAndPullRequests({
                q: `${search} ${qualifiers.join(' ')}`,
                sort,
                order: direction,
                per_page: perPage,
                page,
                request: { signal: ctx.signal },
              }),
          );
          return {
            items: data.items,
            hasNext: following !== undefined,
            total: data.total_count,
            ...(following === undefined ? {} : { next: following }),
          };
        },
        { offset, limit, perPage: Math.min(100, Math.max(limit, 20)) },
      );
      return shapedResult({
        kind: 'issue_list',
        items: window.items.map(issueFromGitHub),
        page: window.page,
      });
    }
    const labels = strings(args.labels);
    const window = await windowOfPages<GitHubIssueJson>(
      async (page, perPage, next) =>
        fetchedPage(
          await listPage<GitHubIssueJson[]>(client, target('issues'), { signal: ctx.signal }, next, () =>
            client.rest.issues.listForRepo({
              owner,
              repo,
              state,
              sort,
              direction,
              ...(labels?.length ? { labels: labels.join(',') } : {}),
              ...(str(args.assignee) ? { assignee: str(args.assignee) } : {}),
              ...(str(args.author) ? { creator: str(args.author) } : {}),
              per_page: perPage,
              page,
              request: { signal: ctx.signal },
            }),
          ),
        ),
      // GitHub lists pull requests as issues too; they are not issues here.
      { offset, limit, keep: (issue) => issue.pull_request === undefined || issue.pull_request === null },
    );
    return shapedResult({ kind: 'issue_list', items: window.items.map(issueFromGitHub), page: window.page });
  }

  async function listComments(number: number, offset: number, limit: number, signal: AbortSignal) {
    return windowOfPages(
      async (page, perPage, next) =>
        fetchedPage(
          await listPage<GitHubCommentJson[]>(
            client,
            target(`comments of issue #${number}`),
            { signal },
            next,
            () =>
              client.rest.issues.listComments({
                owner,
                repo,
                issue_number: number,
                per_page: perPage,
                page,
                request: { signal },
              }),
          ),
        ),
      { offset, limit, perPage: Math.min(100, Math.max(limit, 30)) },
    );
  }

  async function getIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const number = issueNumber(args);
    const { data } = await request(target(`issue #${number}`), ctx.signal, () =>
      client.rest.issues.get({ owner, repo, issue_number: number, request: { signal: ctx.signal } }),
    );
    const base = issueFromGitHub(data as GitHubIssueJson);
    const [links, comments] = await Promise.all([
      args.include_relations === true && relationsOf ? relationsOf(number, ctx.signal) : undefined,
      args.include_comments === true ? listComments(number, 0, DEFAULT_LIMIT, ctx.signal) : undefined,
    ]);
    const item = links === undefined ? base : { ...base, links };
    return shapedResult({
      kind: 'issue',
      item,
      ...(comments === undefined ? {} : { comments: comments.items.map(commentFromGitHub) }),
    });
  }

  async function getIssueComments(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const number = issueNumber(args);
    const window = await listComments(
      number,
      int(args.offset, 0),
      int(args.limit, DEFAULT_LIMIT),
      ctx.signal,
    );
    return shapedResult({
      kind: 'comment_list',
      items: window.items.map(commentFromGitHub),
      page: window.page,
    });
  }

  async function createIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const milestone = milestoneNumber(args.milestone);
    const { data } = await request(target('a new issue'), ctx.signal, () =>
      client.rest.issues.create({
        owner,
        repo,
        title: String(args.title),
        ...(str(args.body) ? { body: str(args.body) } : {}),
        ...(strings(args.labels) ? { labels: strings(args.labels) } : {}),
        ...(strings(args.assignees) ? { assignees: strings(args.assignees) } : {}),
        ...(milestone ? { milestone } : {}),
        request: { signal: ctx.signal },
      }),
    );
    return writtenResult('Created', { kind: 'issue', item: issueFromGitHub(data as GitHubIssueJson) });
  }

  async function updateIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const number = issueNumber(args);
    const milestone = milestoneNumber(args.milestone);
    const { data } = await request(target(`issue #${number}`), ctx.signal, () =>
      client.rest.issues.update({
        owner,
        repo,
        issue_number: number,
        ...(typeof args.title === 'string' ? { title: args.title } : {}),
        ...(typeof args.body === 'string' ? { body: args.body } : {}),
        ...(args.state === 'open' || args.state === 'closed' ? { state: args.state } : {}),
        ...(strings(args.labels) ? { labels: strings(args.labels) } : {}),
        ...(strings(args.assignees) ? { assignees: strings(args.assignees) } : {}),
        ...(milestone !== undefined ? { milestone } : {}),
        request: { signal: ctx.signal },
      }),
    );
    return writtenResult('Updated', { kind: 'issue', item: issueFromGitHub(data as GitHubIssueJson) });
  }

  async function addIssueComment(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const number = issueNumber(args);
    const { data } = await request(target(`issue #${number}`), ctx.signal, () =>
      client.rest.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body: String(args.body),
        request: { signal: ctx.signal },
      }),
    );
    return commentedResult(numberedKey(number), commentFromGitHub(data));
  }

  return {
    get_issues: getIssues,
    get_issue: getIssue,
    get_issue_comments: getIssueComments,
    create_issue: createIssue,
    update_issue: updateIssue,
    add_issue_comment: addIssueComment,
  } satisfies Record<string, ToolHandler>;
}
