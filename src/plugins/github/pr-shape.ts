// Maps GitHub REST pull requests and their review comments to the shared MergeRequestShape and CommentShape.
import type { CommentShape, MergeRequestShape } from '../../contract/index.js';

type Login = { login: string } | null | undefined;

/** The part of a pull request (list entry or full) that mergeRequestFromGitHub reads. */
export interface GitHubPullJson {
  number: number;
  title: string;
  state: string;
  html_url?: string;
  node_id?: string;
  user?: Login;
  assignees?: Login[] | null;
  requested_reviewers?: Login[] | null;
  labels?: { name?: string | null }[];
  head?: { ref: string; sha: string };
  base?: { ref: string };
  draft?: boolean;
  created_at?: string;
  updated_at?: string;
  closed_at?: string | null;
  merged_at?: string | null;
  body?: string | null;
  /** Full pull requests only: conversation comments and review comments. */
  comments?: number;
  review_comments?: number;
}

/** A review comment (REST), as pulls.createReviewComment and pulls.listReviewComments give it. */
export interface GitHubReviewCommentJson {
  id: number;
  body?: string | null;
  user?: Login;
  created_at?: string;
  updated_at?: string;
  html_url?: string;
  path?: string;
  line?: number | null;
  original_line?: number | null;
}

const nonEmpty = (names: string[]): string[] | undefined => (names.length > 0 ? names : undefined);
const logins = (users: Login[] | null | undefined): string[] | undefined =>
  nonEmpty((users ?? []).flatMap((user) => (user?.login ? [user.login] : [])));

/** Copies the fields that have a value; GitHub's nulls and empty strings are left out, never invented. */
function assignDefined<T extends object>(shape: T, fields: Partial<T>): T {
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== '') Object.assign(shape, { [name]: value });
  }
  return shape;
}

/** Pure. A closed pull request with `merged_at` is "merged"; its closing date is then the merge date. */
export function mergeRequestFromGitHub(raw: GitHubPullJson): MergeRequestShape {
  const merged = typeof raw.merged_at === 'string' && raw.merged_at !== '';
  const counted = [raw.comments, raw.review_comments].filter((n): n is number => typeof n === 'number');
  return assignDefined<MergeRequestShape>(
    { key: `#${raw.number}`, title: raw.title, state: merged ? 'merged' : raw.state },
    {
      url: raw.html_url,
      author: raw.user?.login,
      assignees: logins(raw.assignees),
      reviewers: logins(raw.requested_reviewers),
      labels: nonEmpty((raw.labels ?? []).flatMap((label) => (label.name ? [label.name] : []))),
      sourceBranch: raw.head?.ref,
      targetBranch: raw.base?.ref,
      draft: raw.draft === true ? true : undefined,
      createdAt: raw.created_at,
      updatedAt: raw.updated_at,
      mergedAt: merged ? (raw.merged_at ?? undefined) : undefined,
      closedAt: merged ? undefined : (raw.closed_at ?? undefined),
      commentCount: counted.length > 0 ? counted.reduce((a, b) => a + b, 0) : undefined,
      body: raw.body ?? undefined,
    },
  );
}

/** Pure. An outdated comment has no current `line`; its original line is the best position there is. */
export function reviewCommentFromGitHub(raw: GitHubReviewCommentJson): CommentShape {
  return assignDefined<CommentShape>(
    { id: String(raw.id), body: raw.body ?? '' },
    {
      author: raw.user?.login,
      createdAt: raw.created_at,
      updatedAt: raw.updated_at !== raw.created_at ? raw.updated_at : undefined,
      url: raw.html_url,
      path: raw.path,
      line: raw.line ?? raw.original_line ?? undefined,
    },
  );
}
