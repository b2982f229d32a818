// GitHub REST bodies of users, labels, milestones, repositories, issues and comments, and GitHub's errors.
// Field sets and order as in the @octokit/fixtures recordings. API links use https://api.github.com, which
// the fake rewrites to its own url when it sends them.
import type { RestEndpointMethodTypes } from '@octokit/rest';
import type { FakeReply } from './fake-github.js';

export const API_ORIGIN = 'https://api.github.com';
export const DOCS_URL = 'https://docs.github.com/rest';

export type Body = Record<string, unknown>;

export const DEFAULT_REPO = 'octo-org/octo-repo';
export const DEFAULT_LOGIN = 'octocat';
/** The normalized time of the fixture recordings. */
export const DEFAULT_TIME = '2017-10-10T16:00:00Z';

/** A stable id per name, so two users or labels differ unless a test gives ids. */
export function idFor(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 900_000;
  return 1000 + hash;
}

/** GitHub's legacy global node id: base64 of "<length of type>:<Type><id>", e.g. MDU6SXNzdWUx for Issue 1. */
export function nodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

export function reactions(apiUrl: string): Body {
  return {
    url: `${apiUrl}/reactions`,
    total_count: 0,
    '+1': 0,
    '-1': 0,
    laugh: 0,
    hooray: 0,
    confused: 0,
    heart: 0,
    rocket: 0,
    eyes: 0,
  };
}

export function user(login: string, id = idFor(login)): Body {
  const api = `${API_ORIGIN}/users/${login}`;
  return {
    login,
    id,
    node_id: nodeId('User', id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `https://github.com/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: 'User',
    site_admin: false,
  };
}

/** `repo` only shapes the label's url; issue() passes its own. */
export function label(name: string, id = idFor(name), repo = DEFAULT_REPO): Body {
  return {
    id,
    node_id: nodeId('Label', id),
    url: `${API_ORIGIN}/repos/${repo}/labels/${encodeURIComponent(name)}`,
    name,
    color: 'ededed',
    default: false,
    description: null,
  };
}

export function milestone(n: number, title: string, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}/milestones/${n}`;
  const id = idFor(`${repo}/milestones/${n}`);
  return {
    url: api,
    html_url: `https://github.com/${repo}/milestone/${n}`,
    labels_url: `${api}/labels`,
    id,
    node_id: nodeId('Milestone', id),
    number: n,
    title,
    description: null,
    creator: user(DEFAULT_LOGIN),
    open_issues: 0,
    closed_issues: 0,
    state: 'open',
    created_at: DEFAULT_TIME,
    updated_at: DEFAULT_TIME,
    due_on: null,
    closed_at: null,
  };
}

export interface IssueFields {
  title: string;
  state: 'open' | 'closed';
  body: string | null;
  user: string;
  assignees: string[];
  labels: string[];
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  milestone: string | null;
  /** Makes it a pull request as the issues API lists one: a `pull_request` object and a /pull/ html_url. */
  pull_request: boolean;
}

export function issue(n: number, fields: Partial<IssueFields> = {}, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}/issues/${n}`;
  const isPull = fields.pull_request === true;
  const htmlUrl = `https://github.com/${repo}/${isPull ? 'pull' : 'issues'}/${n}`;
  const id = idFor(`${repo}#${n}`);
  const state = fields.state ?? 'open';
  const updatedAt = fields.updated_at ?? DEFAULT_TIME;
  const assignees = (fields.assignees ?? []).map((login) => user(login));
  return {
    url: api,
    repository_url: `${API_ORIGIN}/repos/${repo}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: htmlUrl,
    id,
    node_id: nodeId('Issue', id),
    number: n,
    title: fields.title ?? `Issue ${n}`,
    user: user(fields.user ?? DEFAULT_LOGIN),
    labels: (fields.labels ?? []).map((name) => label(name, undefined, repo)),
    state,
    locked: false,
    assignee: assignees[0] ?? null,
    assignees,
    milestone: fields.milestone ? milestone(1, fields.milestone, repo) : null,
    comments: fields.comments ?? 0,
    created_at: fields.created_at ?? DEFAULT_TIME,
    updated_at: updatedAt,
    closed_at: fields.closed_at !== undefined ? fields.closed_at : state === 'closed' ? updatedAt : null,
    author_association: 'MEMBER',
    active_lock_reason: null,
    ...(isPull && {
      draft: false,
      pull_request: {
        url: `${API_ORIGIN}/repos/${repo}/pulls/${n}`,
        html_url: htmlUrl,
        diff_url: `${htmlUrl}.diff`,
        patch_url: `${htmlUrl}.patch`,
        merged_at: null,
      },
    }),
    body: fields.body !== undefined ? fields.body : null,
    reactions: reactions(api),
    timeline_url: `${api}/timeline`,
    performed_via_github_app: null,
    state_reason: state === 'closed' ? 'completed' : null,
  };
}

export interface CommentFields {
  body: string;
  user: string;
  created_at: string;
  updated_at: string;
  /** The issue it belongs to, for issue_url and html_url (default 1). */
  issue: number;
}

export function comment(id: number, fields: Partial<CommentFields> = {}, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}/issues/comments/${id}`;
  const issueNumber = fields.issue ?? 1;
  return {
    url: api,
    html_url: `https://github.com/${repo}/issues/${issueNumber}#issuecomment-${id}`,
    issue_url: `${API_ORIGIN}/repos/${repo}/issues/${issueNumber}`,
    id,
    node_id: nodeId('IssueComment', id),
    user: user(fields.user ?? DEFAULT_LOGIN),
    created_at: fields.created_at ?? DEFAULT_TIME,
    updated_at: fields.updated_at ?? fields.created_at ?? DEFAULT_TIME,
    author_association: 'MEMBER',
    body: fields.body ?? '',
    reactions: reactions(api),
    performed_via_github_app: null,
  };
}

export function error(status: number, message: string, errors?: object[]): FakeReply {
  return { status, body: { message, ...(errors && { errors }), documentation_url: DOCS_URL } };
}

export function rateLimited(status: 403 | 429, resetEpochS: number): FakeReply {
  return {
    status,
    headers: {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(resetEpochS),
      'x-ratelimit-used': '5000',
      'x-ratelimit-resource': 'core',
    },
    body: {
      message: 'API rate limit exceeded for user ID 1000.',
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
    },
  };
}

// ---- Repositories, and the types the review and check builders hold their fields to.
// Field names and order follow GitHub's REST reference (the OpenAPI description @octokit/rest is typed from);
// `satisfies Fields<…>` makes the type checker refuse a field GitHub does not have.

export type Rest = RestEndpointMethodTypes;
/** Only GitHub's field names, any values: nested objects here are builders' plain bodies. */
export type Fields<T> = { [K in keyof T]?: unknown };

export const DEFAULT_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';

/** The part of a repository a pull request's head and base carry here (GitHub sends the whole repository). */
export function repository(
  fullName = DEFAULT_REPO,
  fields: { default_branch?: string; private?: boolean } = {},
): Body {
  const [owner = DEFAULT_LOGIN, name = ''] = fullName.split('/');
  const api = `${API_ORIGIN}/repos/${fullName}`;
  const id = idFor(`repo:${fullName}`);
  return {
    id,
    node_id: nodeId('Repository', id),
    name,
    full_name: fullName,
    private: fields.private ?? false,
    owner: user(owner),
    html_url: `https://github.com/${fullName}`,
    description: null,
    fork: false,
    url: api,
    pulls_url: `${api}/pulls{/number}`,
    issues_url: `${api}/issues{/number}`,
    created_at: DEFAULT_TIME,
    updated_at: DEFAULT_TIME,
    pushed_at: DEFAULT_TIME,
    default_branch: fields.default_branch ?? 'main',
    visibility: fields.private === true ? 'private' : 'public',
  } satisfies Fields<Rest['repos']['get']['response']['data']>;
}
