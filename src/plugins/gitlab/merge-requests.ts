// The merge request tools of the gitlab plugin: list, read, open and change merge requests.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext } from '../../contract/index.js';
import {
  DEFAULT_LIMIT,
  parseNumberedKey,
  windowOfPages,
  type Args,
  type ToolHandler,
  int,
  shapedResult,
  str,
  strings,
  writtenResult,
} from '../kit/index.js';
import { listPage } from './client.js';
import { request } from './failure.js';
import { type GitLabMergeRequestJson, mergeRequestFromGitLab } from './review-shapes.js';
import { type ToolDeps, apiFor, perPageFor, targetOf } from './tool-io.js';

const STATES: Readonly<Record<string, string>> = {
  open: 'opened',
  closed: 'closed',
  merged: 'merged',
  all: 'all',
};

/** GitLab marks a draft by its title: "Draft:", "[Draft]" or "(Draft)" (the old "WIP:" no longer counts). */
const DRAFT_PREFIX = /^\s*(?:\[draft\]|\(draft\)|draft:)\s*/i;

/** "!45", "#45", 45 or the merge request's URL. */
export const mergeRequestNumber = (key: unknown): number => parseNumberedKey(key, 'merge_request');

export function draftTitle(title: string, draft: boolean): string {
  if (!draft) return title.replace(DRAFT_PREFIX, '');
  return DRAFT_PREFIX.test(title) ? title : `Draft: ${title}`;
}

export function createMergeRequestTools(deps: ToolDeps) {
  const { settings, users } = deps;
  const { projectId } = settings;
  const target = targetOf(settings);

  async function getMergeRequests(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const api = apiFor(deps, ctx);
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const labels = strings(args.labels);
    const window = await windowOfPages<GitLabMergeRequestJson>(
      (page, perPage) =>
        request(target('merge requests'), ctx.signal, () =>
          listPage<GitLabMergeRequestJson>(
            api.mergeRequests.all({
              projectId,
              state: (STATES[str(args.state) ?? 'open'] ?? 'opened') as 'opened',
              orderBy: 'created_at',
              sort: 'desc',
              ...(labels?.length ? { labels: labels.join(',') } : {}),
              ...(str(args.author) ? { authorUsername: str(args.author) } : {}),
              ...(str(args.source_branch) ? { sourceBranch: str(args.source_branch) } : {}),
              ...(str(args.target_branch) ? { targetBranch: str(args.target_branch) } : {}),
              perPage,
              page,
              showExpanded: true,
            }),
          ),
        ),
      { offset, limit, perPage: perPageFor(limit) },
    );
    return shapedResult({
      kind: 'merge_request_list',
      items: window.items.map(mergeRequestFromGitLab),
      page: window.page,
    });
  }

  async function getMergeRequest(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const raw = await fetchMergeRequest(deps, args.key, ctx);
    return shapedResult({ kind: 'merge_request', item: mergeRequestFromGitLab(raw) });
  }

  /** What create and update share, in gitbeaker's (camelCase) option names. */
  async function fields(args: Args, ctx: RequestContext) {
    const labels = strings(args.labels);
    const assignees = strings(args.assignees);
    const reviewers = strings(args.reviewers);
    return {
      ...(typeof args.body === 'string' ? { description: args.body } : {}),
      ...(labels ? { labels: labels.join(',') } : {}),
      ...(assignees ? { assigneeIds: await users.ids(assignees, 'assignees', ctx) } : {}),
      ...(reviewers ? { reviewerIds: await users.ids(reviewers, 'reviewers', ctx) } : {}),
    };
  }

  async function createMergeRequest(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const title = draftTitle(String(args.title), args.draft === true);
    const options = await fields(args, ctx);
    const raw = await request(target('a new merge request'), ctx.signal, () =>
      apiFor(deps, ctx).mergeRequests.create(
        projectId,
        String(args.source_branch),
        String(args.target_branch),
        title,
        options,
      ),
    );
    return writtenResult('Opened', {
      kind: 'merge_request',
      item: mergeRequestFromGitLab(raw as unknown as GitLabMergeRequestJson),
    });
  }

  async function updateMergeRequest(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = mergeRequestNumber(args.key);
    let title = typeof args.title === 'string' ? args.title : undefined;
    if (typeof args.draft === 'boolean') {
      // Draft is part of the title: without a new title, change the current one.
      title ??= (await fetchMergeRequest(deps, iid, ctx)).title;
      title = draftTitle(title, args.draft);
    }
    const options = {
      ...(await fields(args, ctx)),
      ...(title === undefined ? {} : { title }),
      ...(str(args.target_branch) ? { targetBranch: str(args.target_branch) } : {}),
      ...(args.state === 'closed'
        ? { stateEvent: 'close' }
        : args.state === 'open'
          ? { stateEvent: 'reopen' }
          : {}),
    };
    if (Object.keys(options).length === 0) {
      throw new PluginError('invalid_input', `nothing to change on !${iid}: give at least one field`);
    }
    const raw = await request(target(`merge request !${iid}`), ctx.signal, () =>
      apiFor(deps, ctx).mergeRequests.edit(projectId, iid, options),
    );
    return writtenResult('Updated', {
      kind: 'merge_request',
      item: mergeRequestFromGitLab(raw as unknown as GitLabMergeRequestJson),
    });
  }

  return {
    get_merge_requests: getMergeRequests,
    get_merge_request: getMergeRequest,
    create_merge_request: createMergeRequest,
    update_merge_request: updateMergeRequest,
  } satisfies Record<string, ToolHandler>;
}

/** One merge request in full (with diff_refs, which line comments need). */
export async function fetchMergeRequest(
  deps: ToolDeps,
  key: unknown,
  ctx: RequestContext,
): Promise<GitLabMergeRequestJson> {
  const iid = mergeRequestNumber(key);
  const raw = await request(targetOf(deps.settings)(`merge request !${iid}`), ctx.signal, () =>
    apiFor(deps, ctx).mergeRequests.show(deps.settings.projectId, iid),
  );
  return raw as unknown as GitLabMergeRequestJson;
}
