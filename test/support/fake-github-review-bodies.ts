// GitHub bodies of pull requests, their files and review comments, review threads and GraphQL answers.
// Field names and order follow GitHub's REST reference; `satisfies Fields<…>` refuses a field GitHub lacks.
import type { FakeReply } from './fake-github.js';
import {
  API_ORIGIN,
  type Body,
  DEFAULT_LOGIN,
  DEFAULT_REPO,
  DEFAULT_SHA,
  DEFAULT_TIME,
  type Fields,
  type Rest,
  idFor,
  label,
  nodeId,
  reactions,
  repository,
  user,
} from './fake-github-bodies.js';

export interface PullFields {
  title: string;
  state: 'open' | 'closed';
  body: string | null;
  user: string;
  assignees: string[];
  /** Logins of requested reviewers. */
  reviewers: string[];
  labels: string[];
  /** The head branch (default "feature-<n>") and the base branch (default "main"). */
  head: string;
  base: string;
  head_sha: string;
  draft: boolean;
  created_at: string;
  updated_at: string;
  /** A merged pull request is closed with a merge date. */
  merged_at: string | null;
  closed_at: string | null;
  comments: number;
  review_comments: number;
  commits: number;
  additions: number;
  deletions: number;
  changed_files: number;
}

function branchRef(repo: string, ref: string, sha: string): Body {
  const owner = repo.split('/')[0] ?? DEFAULT_LOGIN;
  return { label: `${owner}:${ref}`, ref, sha, user: user(owner), repo: repository(repo) };
}

/** A pull request as pulls.list gives it ("pull-request-simple"). */
export function pullListed(n: number, fields: Partial<PullFields> = {}, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}`;
  const html = `https://github.com/${repo}/pull/${n}`;
  const id = idFor(`${repo}!${n}`);
  const assignees = (fields.assignees ?? []).map((login) => user(login));
  const updatedAt = fields.updated_at ?? DEFAULT_TIME;
  const mergedAt = fields.merged_at ?? null;
  const state = fields.state ?? (mergedAt ? 'closed' : 'open');
  const link = (href: string) => ({ href });
  return {
    url: `${api}/pulls/${n}`,
    id,
    node_id: nodeId('PullRequest', id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${n}`,
    commits_url: `${api}/pulls/${n}/commits`,
    review_comments_url: `${api}/pulls/${n}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${n}/comments`,
    statuses_url: `${api}/statuses/${fields.head_sha ?? DEFAULT_SHA}`,
    number: n,
    state,
    locked: false,
    title: fields.title ?? `Pull request ${n}`,
    user: user(fields.user ?? DEFAULT_LOGIN),
    body: fields.body !== undefined ? fields.body : null,
    labels: (fields.labels ?? []).map((name) => label(name, undefined, repo)),
    milestone: null,
    active_lock_reason: null,
    created_at: fields.created_at ?? DEFAULT_TIME,
    updated_at: updatedAt,
    closed_at:
      fields.closed_at !== undefined ? fields.closed_at : state === 'closed' ? (mergedAt ?? updatedAt) : null,
    merged_at: mergedAt,
    merge_commit_sha: mergedAt ? 'e5bd3914e2e596debea16f433f57875b5b90bcd6' : null,
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: (fields.reviewers ?? []).map((login) => user(login)),
    requested_teams: [],
    head: branchRef(repo, fields.head ?? `feature-${n}`, fields.head_sha ?? DEFAULT_SHA),
    base: branchRef(repo, fields.base ?? 'main', '9c48853fa3dc5c1c3d6f1f1cd1f2743e72652840'),
    _links: {
      self: link(`${api}/pulls/${n}`),
      html: link(html),
      issue: link(`${api}/issues/${n}`),
      comments: link(`${api}/issues/${n}/comments`),
      review_comments: link(`${api}/pulls/${n}/comments`),
      review_comment: link(`${api}/pulls/comments{/number}`),
      commits: link(`${api}/pulls/${n}/commits`),
      statuses: link(`${api}/statuses/${fields.head_sha ?? DEFAULT_SHA}`),
    },
    author_association: 'MEMBER',
    auto_merge: null,
    draft: fields.draft ?? false,
  } satisfies Fields<Rest['pulls']['list']['response']['data'][number]>;
}

/** A pull request as pulls.get, create and update give it ("pull-request"): the listed fields and counts. */
export function pull(n: number, fields: Partial<PullFields> = {}, repo = DEFAULT_REPO): Body {
  const merged = typeof fields.merged_at === 'string';
  const full = {
    merged,
    mergeable: merged ? null : true,
    rebaseable: merged ? null : true,
    mergeable_state: merged ? 'unknown' : 'clean',
    merged_by: merged ? user(DEFAULT_LOGIN) : null,
    comments: fields.comments ?? 0,
    review_comments: fields.review_comments ?? 0,
    maintainer_can_modify: false,
    commits: fields.commits ?? 1,
    additions: fields.additions ?? 0,
    deletions: fields.deletions ?? 0,
    changed_files: fields.changed_files ?? 0,
  } satisfies Fields<Rest['pulls']['get']['response']['data']>;
  return { ...pullListed(n, fields, repo), ...full };
}

export interface PullFileFields {
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  additions: number;
  deletions: number;
  /** Left out when undefined, as GitHub does for binary and very large files. */
  patch: string;
  previous_filename: string;
  sha: string;
}

/** One changed file of pulls.listFiles ("diff-entry"). */
export function pullFile(filename: string, fields: Partial<PullFileFields> = {}, repo = DEFAULT_REPO): Body {
  const sha = fields.sha ?? 'bbcd538c8e72b8c175046e27cc8f907076331401';
  const additions = fields.additions ?? 0;
  const deletions = fields.deletions ?? 0;
  const body: Body = {
    sha,
    filename,
    status: fields.status ?? 'modified',
    additions,
    deletions,
    changes: additions + deletions,
    blob_url: `https://github.com/${repo}/blob/${sha}/${filename}`,
    raw_url: `https://github.com/${repo}/raw/${sha}/${filename}`,
    contents_url: `${API_ORIGIN}/repos/${repo}/contents/${filename}?ref=${sha}`,
  } satisfies Fields<Rest['pulls']['listFiles']['response']['data'][number]>;
  if (fields.patch !== undefined) body.patch = fields.patch;
  if (fields.previous_filename !== undefined) body.previous_filename = fields.previous_filename;
  return body;
}

export interface ReviewCommentFields {
  body: string;
  user: string;
  path: string;
  line: number;
  side: 'LEFT' | 'RIGHT';
  commit_id: string;
  /** The pull request it belongs to (default 1). */
  pull: number;
  created_at: string;
}

/** A review comment on a diff line ("review-comment"), as pulls.createReviewComment gives it. */
export function reviewComment(
  id: number,
  fields: Partial<ReviewCommentFields> = {},
  repo = DEFAULT_REPO,
): Body {
  const api = `${API_ORIGIN}/repos/${repo}/pulls/comments/${id}`;
  const n = fields.pull ?? 1;
  const html = `https://github.com/${repo}/pull/${n}#discussion_r${id}`;
  const line = fields.line ?? 1;
  const sha = fields.commit_id ?? DEFAULT_SHA;
  return {
    url: api,
    pull_request_review_id: id + 1,
    id,
    node_id: nodeId('PullRequestReviewComment', id),
    diff_hunk: `@@ -${line},1 +${line},1 @@`,
    path: fields.path ?? 'README.md',
    position: 1,
    original_position: 1,
    commit_id: sha,
    original_commit_id: sha,
    user: user(fields.user ?? DEFAULT_LOGIN),
    body: fields.body ?? '',
    created_at: fields.created_at ?? DEFAULT_TIME,
    updated_at: fields.created_at ?? DEFAULT_TIME,
    html_url: html,
    pull_request_url: `${API_ORIGIN}/repos/${repo}/pulls/${n}`,
    author_association: 'MEMBER',
    _links: {
      self: { href: api },
      html: { href: html },
      pull_request: { href: `${API_ORIGIN}/repos/${repo}/pulls/${n}` },
    },
    reactions: reactions(api),
    start_line: null,
    original_start_line: null,
    start_side: null,
    line,
    original_line: line,
    side: fields.side ?? 'RIGHT',
    subject_type: 'line',
  } satisfies Fields<Rest['pulls']['createReviewComment']['response']['data']>;
}

export interface ReviewThreadFields {
  isResolved: boolean;
  path: string;
  /** Null for an outdated thread. */
  line: number | null;
  originalLine: number | null;
  comments: { id: number; body: string; author?: string | null; createdAt?: string; pull?: number }[];
}

/** A PullRequestReviewThread node as GitHub's GraphQL API gives it to the fields the plugin asks for. */
export function reviewThread(fields: Partial<ReviewThreadFields> = {}, repo = DEFAULT_REPO): Body {
  const line = fields.line !== undefined ? fields.line : 1;
  return {
    isResolved: fields.isResolved ?? false,
    path: fields.path ?? 'README.md',
    line,
    originalLine: fields.originalLine !== undefined ? fields.originalLine : line,
    comments: {
      nodes: (fields.comments ?? []).map((comment) => ({
        databaseId: comment.id,
        body: comment.body,
        author: comment.author === null ? null : { login: comment.author ?? DEFAULT_LOGIN },
        createdAt: comment.createdAt ?? DEFAULT_TIME,
        updatedAt: comment.createdAt ?? DEFAULT_TIME,
        url: `https://github.com/${repo}/pull/${comment.pull ?? 1}#discussion_r${comment.id}`,
      })),
    },
  };
}

/** A successful GraphQL answer. */
export function graphqlData(data: unknown): FakeReply {
  return { status: 200, body: { data } };
}

/** GraphQL's failure: HTTP 200 with `errors`, e.g. `[{ type: 'NOT_FOUND', path: [...], message }]`. */
export function graphqlErrors(
  errors: { type?: string; message: string; path?: string[] }[],
  data: unknown = null,
): FakeReply {
  return {
    status: 200,
    body: {
      data,
      errors: errors.map((entry) => ({ locations: [{ line: 1, column: 1 }], ...entry })),
    },
  };
}
