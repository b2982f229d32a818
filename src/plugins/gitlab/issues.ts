// The issue tools of the gitlab plugin: the unified issue_tracker tools on GitLab's REST issues and notes API.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext } from '../../contract/index.js';
import {
  DEFAULT_LIMIT,
  lookupByName,
  numberedKey,
  parseNumberedKey,
  windowOfPages,
  type Args,
  type ToolHandler,
  int,
  shapedResult,
  str,
  strings,
  writtenResult,
  commentedResult,
} from '../kit/index.js';
import { listPage } from './client.js';
import { request } from './failure.js';
import {
  type GitLabIssueJson,
  type GitLabNoteJson,
  commentFromGitLab,
  issueFromGitLab,
} from './issue-shape.js';
import { createLinkIssues, issueLinks } from './issue-links.js';
import { type ToolDeps, apiFor, perPageFor, targetOf } from './tool-io.js';

const STATES: Readonly<Record<string, string>> = { open: 'opened', closed: 'closed', all: 'all' };
const ORDER_BY: Readonly<Record<string, string>> = { created: 'created_at', updated: 'updated_at' };

export function createIssueTools(deps: ToolDeps) {
  const { settings, metadata, users } = deps;
  const { projectId, projectName } = settings;
  const target = targetOf(settings);
  const issueNumber = (args: Args) => parseNumberedKey(args.key, 'issue');
  const issueUrl = (iid: number) => {
    const web = metadata.current()?.webUrl;
    return web === undefined ? undefined : `${web}/-/issues/${iid}`;
  };

  /** Milestone titles → global ids; "" clears (0); an unknown title names the active ones. */
  const milestoneId = (title: unknown): number | undefined => {
    if (title === undefined) return undefined;
    if (title === '') return 0;
    return lookupByName('active milestone', title, metadata.current()?.milestones, projectName);
  };

  async function getIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const api = apiFor(deps, ctx);
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const labels = strings(args.labels);
    const assignee = str(args.assignee);
    const window = await windowOfPages<GitLabIssueJson>(
      (page, perPage) =>
        request(target('issues'), ctx.signal, () =>
          listPage<GitLabIssueJson>(
            api.issues.all({
              projectId,
              state: STATES[str(args.state) ?? 'open'] ?? 'opened',
              orderBy: ORDER_BY[str(args.sort) ?? 'created'] ?? 'created_at',
              sort: str(args.order) ?? 'desc',
              ...(labels?.length ? { labels: labels.join(',') } : {}),
              ...(str(args.search) ? { search: str(args.search) } : {}),
              ...(assignee ? { assigneeUsername: [assignee] } : {}),
              ...(str(args.author) ? { authorUsername: str(args.author) } : {}),
              perPage,
              page,
              showExpanded: true,
            }),
          ),
        ),
      { offset, limit, perPage: perPageFor(limit) },
    );
    return shapedResult({
      kind: 'issue_list',
      items: window.items.map(issueFromGitLab),
      page: window.page,
    });
  }

  /** Comments are the notes people wrote; GitLab's own system notes are left out. */
  const listComments = (iid: number, offset: number, limit: number, ctx: RequestContext) => {
    const api = apiFor(deps, ctx);
    return windowOfPages<GitLabNoteJson>(
      (page, perPage) =>
        request(target(`comments of issue #${iid}`), ctx.signal, () =>
          listPage<GitLabNoteJson>(
            api.issueNotes.all(projectId, iid, {
              sort: 'asc',
              orderBy: 'created_at',
              perPage,
              page,
              showExpanded: true,
            }),
          ),
        ),
      { offset, limit, perPage: 100, keep: (note) => note.system !== true },
    );
  };

  async function getIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = issueNumber(args);
    const api = apiFor(deps, ctx);
    const raw = (await request(target(`issue #${iid}`), ctx.signal, () =>
      api.issues.show(iid, { projectId }),
    )) as unknown as GitLabIssueJson;
    const item = issueFromGitLab(raw);
    if (args.include_relations === true) {
      const links = (await request(target(`links of issue #${iid}`), ctx.signal, () =>
        api.issueLinks.all(projectId, iid),
      )) as unknown as GitLabIssueJson[];
      item.links = issueLinks(links, metadata.current()?.webUrl);
    }
    if (args.include_comments !== true) return shapedResult({ kind: 'issue', item });
    const comments = await listComments(iid, 0, DEFAULT_LIMIT, ctx);
    const url = raw.web_url ?? issueUrl(iid);
    return shapedResult({
      kind: 'issue',
      item,
      comments: comments.items.map((n) => commentFromGitLab(n, url)),
    });
  }

  async function getIssueComments(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = issueNumber(args);
    const window = await listComments(iid, int(args.offset, 0), int(args.limit, DEFAULT_LIMIT), ctx);
    const url = issueUrl(iid);
    return shapedResult({
      kind: 'comment_list',
      items: window.items.map((note) => commentFromGitLab(note, url)),
      page: window.page,
    });
  }

  /** The fields create and update share, in gitbeaker's (camelCase) option names. */
  async function fields(args: Args, ctx: RequestContext) {
    const labels = strings(args.labels);
    const assignees = strings(args.assignees);
    const milestone = milestoneId(args.milestone);
    return {
      ...(typeof args.body === 'string' ? { description: args.body } : {}),
      ...(labels ? { labels: labels.join(',') } : {}),
      ...(assignees ? { assigneeIds: await users.ids(assignees, 'assignees', ctx) } : {}),
      ...(milestone === undefined ? {} : { milestoneId: milestone }),
    };
  }

  async function createIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const options = await fields(args, ctx);
    const raw = await request(target('a new issue'), ctx.signal, () =>
      apiFor(deps, ctx).issues.create(projectId, String(args.title), options),
    );
    return writtenResult('Created', {
      kind: 'issue',
      item: issueFromGitLab(raw as unknown as GitLabIssueJson),
    });
  }

  async function updateIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = issueNumber(args);
    const options = {
      ...(await fields(args, ctx)),
      ...(typeof args.title === 'string' ? { title: args.title } : {}),
      ...(args.state === 'closed'
        ? { stateEvent: 'close' }
        : args.state === 'open'
          ? { stateEvent: 'reopen' }
          : {}),
    };
    if (Object.keys(options).length === 0) {
      throw new PluginError('invalid_input', `nothing to change on issue #${iid}: give at least one field`);
    }
    const raw = await request(target(`issue #${iid}`), ctx.signal, () =>
      apiFor(deps, ctx).issues.edit(projectId, iid, options),
    );
    return writtenResult('Updated', {
      kind: 'issue',
      item: issueFromGitLab(raw as unknown as GitLabIssueJson),
    });
  }

  async function addIssueComment(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = issueNumber(args);
    const raw = (await request(target(`issue #${iid}`), ctx.signal, () =>
      apiFor(deps, ctx).issueNotes.create(projectId, iid, String(args.body)),
    )) as unknown as GitLabNoteJson;
    return commentedResult(numberedKey(iid), commentFromGitLab(raw, issueUrl(iid)));
  }

  return {
    get_issues: getIssues,
    get_issue: getIssue,
    get_issue_comments: getIssueComments,
    create_issue: createIssue,
    update_issue: updateIssue,
    add_issue_comment: addIssueComment,
    link_issues: createLinkIssues(deps),
  } satisfies Record<string, ToolHandler>;
}
