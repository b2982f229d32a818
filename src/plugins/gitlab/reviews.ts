// The review tools of the gitlab plugin: a merge request's threads, its diffs, and comments on it or on a diff line.
import type { DiscussionNotePositionOptions } from '@gitbeaker/rest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext } from '../../contract/index.js';
import {
  DEFAULT_LIMIT,
  MAX_PAGES_PER_CALL,
  windowOfPages,
  type Args,
  type ToolHandler,
  int,
  shapedResult,
  commentedResult,
  str,
} from '../kit/index.js';
import { listPage } from './client.js';
import { linePosition } from './diff-lines.js';
import { request } from './failure.js';
import { type GitLabNoteJson, commentFromGitLab } from './issue-shape.js';
import { fetchMergeRequest, mergeRequestNumber } from './merge-requests.js';
import { type GitLabDiffJson, diffFileFromGitLab } from './review-shapes.js';
import { type ToolDeps, apiFor, perPageFor, targetOf } from './tool-io.js';

interface GitLabDiscussionJson {
  id: string;
  individual_note?: boolean;
  notes: GitLabNoteJson[];
}

/** The provider-only parameter the enricher fills from line_type: which position field carries `line`. */
export const LINE_FIELD = 'line_field';
export type LineField = 'new_line' | 'old_line';

export function createReviewTools(deps: ToolDeps) {
  const { settings, metadata } = deps;
  const { projectId } = settings;
  const target = targetOf(settings);
  const mergeRequestUrl = (iid: number) => {
    const web = metadata.current()?.webUrl;
    return web === undefined ? undefined : `${web}/-/merge_requests/${iid}`;
  };

  /** Threads flattened to their notes, oldest first, GitLab's system notes left out; paging counts notes. */
  async function getDiscussions(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = mergeRequestNumber(args.key);
    const api = apiFor(deps, ctx);
    const window = await windowOfPages<GitLabNoteJson>(
      async (page, perPage) => {
        const result = await request(target(`threads of merge request !${iid}`), ctx.signal, () =>
          listPage<GitLabDiscussionJson>(
            api.mergeRequestDiscussions.all(projectId, iid, { perPage, page, showExpanded: true }),
          ),
        );
        return { items: result.items.flatMap((thread) => thread.notes), hasNext: result.hasNext };
      },
      {
        offset: int(args.offset, 0),
        limit: int(args.limit, DEFAULT_LIMIT),
        perPage: 100,
        keep: (note) => note.system !== true,
      },
    );
    const url = mergeRequestUrl(iid);
    return shapedResult({
      kind: 'comment_list',
      items: window.items.map((note) => commentFromGitLab(note, url)),
      page: window.page,
    });
  }

  async function getDiffs(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = mergeRequestNumber(args.key);
    const api = apiFor(deps, ctx);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const window = await windowOfPages<GitLabDiffJson>(
      (page, perPage) =>
        request(target(`diffs of merge request !${iid}`), ctx.signal, () =>
          listPage<GitLabDiffJson>(
            api.mergeRequests.allDiffs(projectId, iid, { perPage, page, showExpanded: true }),
          ),
        ),
      { offset: int(args.offset, 0), limit, perPage: perPageFor(limit) },
    );
    const url = mergeRequestUrl(iid);
    return shapedResult({
      kind: 'diff_list',
      items: window.items.map((file) => diffFileFromGitLab(file, settings.maxDiffChars, url)),
      page: window.page,
    });
  }

  /** The changed file `path` (by its new or old path), read page by page. */
  async function changedFile(iid: number, path: string, ctx: RequestContext): Promise<GitLabDiffJson> {
    const api = apiFor(deps, ctx);
    for (let page = 1; page <= MAX_PAGES_PER_CALL; page++) {
      const result = await request(target(`diffs of merge request !${iid}`), ctx.signal, () =>
        listPage<GitLabDiffJson>(
          api.mergeRequests.allDiffs(projectId, iid, { perPage: 100, page, showExpanded: true }),
        ),
      );
      const found = result.items.find((file) => file.new_path === path || file.old_path === path);
      if (found) return found;
      if (!result.hasNext) break;
    }
    throw new PluginError(
      'invalid_input',
      `parameter "file_path" is ${JSON.stringify(path)}, which is not a file changed by !${iid}; get_merge_request_diffs lists them`,
    );
  }

  async function lineComment(iid: number, args: Args, ctx: RequestContext) {
    const path = String(args.file_path);
    const line = int(args.line, 0);
    const field: LineField =
      args[LINE_FIELD] === 'old_line' || (args[LINE_FIELD] === undefined && args.line_type === 'old')
        ? 'old_line'
        : 'new_line';
    const [mergeRequest, file] = await Promise.all([
      fetchMergeRequest(deps, iid, ctx),
      changedFile(iid, path, ctx),
    ]);
    const refs = mergeRequest.diff_refs;
    if (!refs) {
      throw new PluginError('conflict', `!${iid} has no diff to comment on yet (GitLab has not computed it)`);
    }
    if ((field === 'old_line' && file.new_file) || (field === 'new_line' && file.deleted_file)) {
      const which = file.new_file ? 'added, so it has no old lines' : 'deleted, so it has no new lines';
      throw new PluginError(
        'invalid_input',
        `${path} was ${which}; use line_type "${file.new_file ? 'new' : 'old'}"`,
      );
    }
    const side = field === 'old_line' ? 'old' : 'new';
    const lines = file.diff ? linePosition(file.diff, side, line) : { [field]: line };
    const position = {
      positionType: 'text',
      baseSha: refs.base_sha,
      startSha: refs.start_sha,
      headSha: refs.head_sha,
      oldPath: file.old_path,
      newPath: file.new_path,
      ...(lines.new_line === undefined ? {} : { newLine: lines.new_line }),
      ...(lines.old_line === undefined ? {} : { oldLine: lines.old_line }),
    };
    const thread = (await request(target(`a comment on ${path}:${line} of !${iid}`), ctx.signal, () =>
      apiFor(deps, ctx).mergeRequestDiscussions.create(projectId, iid, String(args.body), {
        position: position as unknown as DiscussionNotePositionOptions,
      }),
    )) as unknown as GitLabDiscussionJson;
    return { note: thread.notes[0], where: `${path}:${line}`, url: mergeRequest.web_url };
  }

  async function createComment(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = mergeRequestNumber(args.key);
    const path = str(args.file_path);
    const hasLine = typeof args.line === 'number';
    if ((path === undefined) !== !hasLine) {
      throw new PluginError(
        'invalid_input',
        'a line comment needs both "file_path" and "line"; give both or neither',
      );
    }
    if (path === undefined) {
      const note = (await request(target(`merge request !${iid}`), ctx.signal, () =>
        apiFor(deps, ctx).mergeRequestNotes.create(projectId, iid, String(args.body)),
      )) as unknown as GitLabNoteJson;
      return commentedResult(`!${iid}`, commentFromGitLab(note, mergeRequestUrl(iid)));
    }
    const { note, where, url } = await lineComment(iid, args, ctx);
    const comment = note ? commentFromGitLab(note, url ?? mergeRequestUrl(iid)) : undefined;
    return commentedResult(`${where} in !${iid}`, comment);
  }

  return {
    get_merge_request_discussions: getDiscussions,
    get_merge_request_diffs: getDiffs,
    create_merge_request_comment: createComment,
  } satisfies Record<string, ToolHandler>;
}
