// The review threads of a pull request, read through GraphQL (REST has no resolved state), as CommentShapes.
import type { CommentShape } from '../../contract/index.js';
import { MAX_PAGES_PER_CALL, providerError } from '../kit/index.js';
import { graphql } from './graphql.js';
import type { ReviewContext } from './review-context.js';

/** Threads per request; each brings up to COMMENTS_PER_THREAD comments (GitHub caps a query's nodes). */
const THREADS_PER_PAGE = 50;
const COMMENTS_PER_THREAD = 100;

export const REVIEW_THREADS_QUERY = `query ($owner: String!, $repo: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: ${THREADS_PER_PAGE}, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          isResolved
          path
          line
          originalLine
          comments(first: ${COMMENTS_PER_THREAD}) {
            nodes { databaseId body author { login } createdAt updatedAt url }
          }
        }
      }
    }
  }
}`;

export interface ReviewThreadJson {
  isResolved: boolean;
  path: string;
  /** Null when the thread is outdated (its line is gone from the current diff). */
  line: number | null;
  originalLine: number | null;
  comments: {
    nodes: {
      databaseId: number | null;
      body: string;
      author: { login: string } | null;
      createdAt: string;
      updatedAt?: string;
      url?: string;
    }[];
  };
}

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: ReviewThreadJson[];
      };
    } | null;
  } | null;
}

/** Pure: one thread's comments in order, each with the thread's file, line and resolved state. */
export function threadComments(thread: ReviewThreadJson): CommentShape[] {
  const line = thread.line ?? thread.originalLine ?? undefined;
  return thread.comments.nodes.map((node) => {
    const comment: CommentShape = { id: String(node.databaseId ?? ''), body: node.body };
    if (node.author?.login) comment.author = node.author.login;
    comment.createdAt = node.createdAt;
    if (node.updatedAt && node.updatedAt !== node.createdAt) comment.updatedAt = node.updatedAt;
    if (node.url) comment.url = node.url;
    comment.path = thread.path;
    if (line !== undefined) comment.line = line;
    comment.resolved = thread.isResolved;
    return comment;
  });
}

export interface ThreadsRead {
  threads: ReviewThreadJson[];
  /** False when the page cap stopped the reading before the last thread. */
  complete: boolean;
}

/** Every review thread of the pull request, oldest first, up to MAX_PAGES_PER_CALL pages. */
export async function readReviewThreads(
  context: ReviewContext,
  number: number,
  signal: AbortSignal,
): Promise<ThreadsRead> {
  const { client, owner, repo, target } = context;
  const threads: ReviewThreadJson[] = [];
  let cursor: string | null = null;
  for (let read = 0; read < MAX_PAGES_PER_CALL; read++) {
    const page: ThreadsPage = await graphql<ThreadsPage>(
      client,
      target(`pull request #${number}`),
      signal,
      REVIEW_THREADS_QUERY,
      { owner, repo, number, cursor },
    );
    const connection = page.repository?.pullRequest?.reviewThreads;
    // GraphQL names a missing pull request in `errors`; a bare null means the same.
    if (!connection) throw providerError({ status: 404 }, target(`pull request #${number}`));
    threads.push(...connection.nodes);
    if (!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor)
      return { threads, complete: true };
    cursor = connection.pageInfo.endCursor;
  }
  return { threads, complete: false };
}
