// get_merge_request_discussions on GitHub: review threads and the conversation's comments, in the order they began.
import type { CommentShape } from '../../contract/index.js';
import { DEFAULT_LIMIT, MAX_PAGES_PER_CALL, shapedResult, int, type ToolHandler } from '../kit/index.js';
import { pullNumber } from './args.js';
import { type GitHubCommentJson, commentFromGitHub } from './comment-shape.js';
import { allPages } from './paging.js';
import type { ReviewContext } from './review-context.js';
import { readReviewThreads, threadComments } from './review-threads.js';

/** A review thread or one conversation comment: what the order is decided on. */
interface Unit {
  startedAt: string;
  comments: CommentShape[];
}

/**
 * Pure: review threads (each kept together, replies in order) and conversation comments, interleaved by
 * when each began, as one flat list. Equal times keep review threads first.
 */
export function discussionOrder(threads: CommentShape[][], conversation: CommentShape[]): CommentShape[] {
  const units: Unit[] = [
    ...threads
      .filter((thread) => thread.length > 0)
      .map((comments) => ({ startedAt: comments[0]?.createdAt ?? '', comments })),
    ...conversation.map((comment) => ({ startedAt: comment.createdAt ?? '', comments: [comment] })),
  ];
  // ISO 8601 UTC timestamps sort as strings; the sort is stable, so ties keep the order above.
  units.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
  return units.flatMap((unit) => unit.comments);
}

export function createDiscussionTools(context: ReviewContext) {
  const { client, owner, repo, target } = context;

  /** The pull request's conversation (its issue's comments), oldest first. */
  async function readConversation(number: number, signal: AbortSignal) {
    const { items, complete } = await allPages<GitHubCommentJson>(
      client,
      target(`pull request #${number}`),
      { signal },
      MAX_PAGES_PER_CALL,
      () =>
        client.rest.issues.listComments({
          owner,
          repo,
          issue_number: number,
          per_page: 100,
          request: { signal },
        }),
    );
    return { comments: items.map(commentFromGitHub), complete };
  }

  const getMergeRequestDiscussions: ToolHandler = async (args, ctx) => {
    const number = pullNumber(args);
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    // Both in full: the order interleaves them, so no page of one can be chosen without the other.
    const [threads, conversation] = await Promise.all([
      readReviewThreads(context, number, ctx.signal),
      readConversation(number, ctx.signal),
    ]);
    const all = discussionOrder(threads.threads.map(threadComments), conversation.comments);
    const complete = threads.complete && conversation.complete;
    return shapedResult({
      kind: 'comment_list',
      items: all.slice(offset, offset + limit),
      page: { offset, limit, ...(complete ? { total: all.length } : {}) },
    });
  };

  return { get_merge_request_discussions: getMergeRequestDiscussions };
}
