// create_merge_request_comment on GitHub: a conversation comment, or a review comment on one line of the diff.
import { PluginError } from '../../contract/index.js';
import { commentedResult, str, type ToolHandler } from '../kit/index.js';
import { pullNumber } from './args.js';
import { commentFromGitHub } from './comment-shape.js';
import { request } from './failure.js';
import { reviewCommentFromGitHub } from './pr-shape.js';
import type { ReviewContext } from './review-context.js';

export type DiffSide = 'LEFT' | 'RIGHT';

/**
 * The side of the diff a line comment is on. The GitHub enricher maps `line_type` to `side`; without it
 * (a worker-isolated plugin runs without its enrichers) `line_type` still arrives and is mapped here.
 */
export function sideOf(args: Record<string, unknown>): DiffSide {
  if (args.side === 'LEFT' || args.side === 'RIGHT') return args.side;
  return args.line_type === 'old' ? 'LEFT' : 'RIGHT';
}

export function createPullRequestComments(context: ReviewContext) {
  const { client, owner, repo, target } = context;

  const createMergeRequestComment: ToolHandler = async (args, ctx) => {
    const { signal } = ctx;
    const number = pullNumber(args);
    const about = target(`pull request #${number}`);
    const path = str(args.file_path);
    const line = typeof args.line === 'number' ? args.line : undefined;
    if ((path === undefined) !== (line === undefined)) {
      throw new PluginError(
        'invalid_input',
        path === undefined
          ? `a line comment needs "file_path" as well as "line"; leave both out for a general comment`
          : `a line comment needs "line" as well as "file_path"; leave both out for a general comment`,
      );
    }
    if (path === undefined || line === undefined) {
      const { data } = await request(about, signal, () =>
        client.rest.issues.createComment({
          owner,
          repo,
          issue_number: number,
          body: String(args.body),
          request: { signal },
        }),
      );
      return commentedResult(`#${number}`, commentFromGitHub(data));
    }
    // A review comment is anchored to a commit: the pull request's head, which the diff the agent read shows.
    const { data: pull } = await request(about, signal, () =>
      client.rest.pulls.get({ owner, repo, pull_number: number, request: { signal } }),
    );
    const side = sideOf(args);
    const onLine = target(`line ${line} of ${path} in pull request #${number}`);
    const { data } = await request(onLine, signal, () =>
      client.rest.pulls.createReviewComment({
        owner,
        repo,
        pull_number: number,
        body: String(args.body),
        commit_id: pull.head.sha,
        path,
        line,
        side,
        request: { signal },
      }),
    );
    const where = `#${number} at ${path}:${line} (${side === 'LEFT' ? 'old' : 'new'} side)`;
    return commentedResult(where, reviewCommentFromGitHub(data));
  };

  return { create_merge_request_comment: createMergeRequestComment };
}
