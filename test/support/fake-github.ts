// Test seam for the GitHub plugin: a loopback HTTP server that answers in GitHub's REST shapes, from routes a
// test adds or from @octokit/fixtures recordings, and records every request it receives.
import { readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { RestEndpointMethodTypes } from '@octokit/rest';

export interface RecordedRequest {
  /** Upper case, as sent ('GET'). */
  method: string;
  /** The pathname as sent, still percent-encoded; route params are decoded. */
  path: string;
  /** The query string, decoded; a repeated key keeps its last value. */
  query: Record<string, string>;
  /** Lower-case names; `authorization` is kept exactly as sent. */
  headers: Record<string, string | undefined>;
  /** The body parsed as JSON, its text when it is not JSON, undefined when empty. */
  body: unknown;
}

/**
 * A reply: no body is sent for an undefined or '' body, a Buffer as is, a string as is when `headers` name a
 * non-JSON content-type; anything else as JSON (content-type application/json; charset=utf-8).
 */
export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeHandler = (
  request: RecordedRequest,
  params: Record<string, string>,
) => FakeReply | Promise<FakeReply>;

export interface GraphqlOperation {
  query: string;
  variables: Record<string, unknown>;
}

export type GraphqlHandler = (
  operation: GraphqlOperation,
  request: RecordedRequest,
) => FakeReply | Promise<FakeReply>;

export interface FakeGitHub {
  /** e.g. http://127.0.0.1:PORT, what the plugin gets as base_url. */
  url: string;
  /** Every request, in order, recorded before authentication and matching. */
  requests: RecordedRequest[];
  /** Requests no route or recording answered (they got a GitHub-style 404); not those refused with 401. */
  unmatched: RecordedRequest[];
  /** Adds a route; `pattern` like '/repos/:owner/:repo/issues/:number'; later routes (and replays) win. */
  route(method: string, pattern: string, handler: FakeHandler | FakeReply): void;
  /**
   * Answers every request of an @octokit/fixtures scenario (api.github.com/<name>, or <host>/<name>) whose
   * method, path and query (decoded pairs, in any order) match a recording, with its status, headers and
   * body. Recordings of one request answer in recorded order, the last one again once all were used. As
   * for every reply, GitHub's origins (api., uploads., codeload.) in headers and bodies become `url`.
   */
  replay(scenario: string): void;
  /**
   * Answers POST /graphql: the handler gets the operation (query text and variables) and the request, and
   * replies as a route does (gh.graphqlData / gh.graphqlErrors build GitHub's answers). Later calls win.
   */
  graphql(handler: GraphqlHandler): void;
  /**
   * Stands in for the storage GitHub redirects downloads to (job logs, archives): a GET of the returned URL
   * (under /_storage/) is answered with `reply`, without the token check, as signed URLs need no token.
   */
  store(name: string, reply: FakeReply): string;
  /** Every later request must carry this `authorization` value, or it gets GitHub's 401 "Bad credentials". */
  expectToken(headerValue: string): void;
  /** Stops listening and closes every open socket, keep-alive ones included. */
  close(): Promise<void>;
}

const API_ORIGIN = 'https://api.github.com';
/** Every host the fixtures were recorded against; the one fake serves them all. */
const RECORDED_ORIGINS = [API_ORIGIN, 'https://uploads.github.com', 'https://codeload.github.com'];
const DOCS_URL = 'https://docs.github.com/rest';
const JSON_TYPE = 'application/json; charset=utf-8';
/** Recorded headers that describe the recorded connection or body, not the one this fake sends. */
const DROPPED_HEADERS = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive']);

const FIXTURES_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@octokit/fixtures/package.json')),
  'scenarios',
);

interface Recording {
  method: string;
  path: string;
  status: number;
  response: unknown;
  responseIsBinary?: boolean;
  headers: Record<string, string | number>;
}

/** A matcher returns the work that answers the request, or undefined when it does not apply. */
type Responder = (request: RecordedRequest) => (() => FakeReply | Promise<FakeReply>) | undefined;

function loadScenario(scenario: string): Recording[] {
  const dir = scenario.includes('/') ? scenario : `api.github.com/${scenario}`;
  try {
    return JSON.parse(
      readFileSync(path.join(FIXTURES_DIR, dir, 'normalized-fixture.json'), 'utf8'),
    ) as Recording[];
  } catch (cause) {
    throw new Error(`fake-github: no @octokit/fixtures scenario "${scenario}"`, { cause });
  }
}

function sameQuery(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function replayResponder(recordings: readonly Recording[]): Responder {
  const used = new Set<Recording>();
  const keyed = recordings.map((recording) => {
    const target = new URL(recording.path, API_ORIGIN);
    return { recording, path: target.pathname, query: Object.fromEntries(target.searchParams) };
  });
  return (request) => {
    const candidates = keyed
      .filter((k) => k.recording.method.toUpperCase() === request.method && k.path === request.path)
      .filter((k) => sameQuery(k.query, request.query))
      .map((k) => k.recording);
    const recording = candidates.find((r) => !used.has(r)) ?? candidates.at(-1);
    if (recording === undefined) return undefined;
    used.add(recording);
    return () => replyFromRecording(recording);
  };
}

function replyFromRecording(recording: Recording): FakeReply {
  const headers = Object.fromEntries(Object.entries(recording.headers).map(([k, v]) => [k, String(v)]));
  const { response } = recording;
  const body =
    recording.responseIsBinary === true && typeof response === 'string'
      ? Buffer.from(response, 'hex')
      : response;
  return { status: recording.status, headers, body };
}

function compilePattern(method: string, pattern: string, handler: FakeHandler | FakeReply): Responder {
  const wanted = method.toUpperCase();
  const segments = pattern.split('/');
  const answer: FakeHandler = typeof handler === 'function' ? handler : () => handler;
  return (request) => {
    if (request.method !== wanted) return undefined;
    const actual = request.path.split('/');
    if (actual.length !== segments.length) return undefined;
    const params: Record<string, string> = {};
    for (const [i, segment] of segments.entries()) {
      const value = actual[i] ?? '';
      if (segment.startsWith(':')) {
        if (value === '') return undefined;
        params[segment.slice(1)] = decodeSegment(value);
      } else if (segment !== value) return undefined;
    }
    return () => answer(request, params);
  };
}

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function send(res: ServerResponse, reply: FakeReply, url: string): void {
  const rewrite = (text: string) =>
    RECORDED_ORIGINS.reduce((out, origin) => out.replaceAll(origin, url), text);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers ?? {})) {
    if (!DROPPED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = rewrite(String(value));
  }
  const { body } = reply;
  const type = headers['content-type'];
  let payload: string | Buffer | undefined;
  if (body === undefined || body === '') payload = undefined;
  else if (Buffer.isBuffer(body)) payload = body;
  else if (typeof body === 'string' && type !== undefined && !type.includes('json')) payload = rewrite(body);
  else {
    payload = rewrite(JSON.stringify(body));
    headers['content-type'] = type ?? JSON_TYPE;
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  const responders: Responder[] = [];
  const storage = new Map<string, FakeReply>();
  let token: string | undefined;
  let url = '';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', url);
      const request: RecordedRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path: target.pathname,
        query: Object.fromEntries(target.searchParams),
        headers: flattenHeaders(req.headers),
        body: parseBody(Buffer.concat(chunks)),
      };
      requests.push(request);
      void answer(request).then(
        (reply) => send(res, reply, url),
        (failure: unknown) =>
          send(
            res,
            { status: 500, body: { message: `fake-github: handler threw: ${String(failure)}` } },
            url,
          ),
      );
    });
  });

  async function answer(request: RecordedRequest): Promise<FakeReply> {
    const stored = request.method === 'GET' ? storage.get(request.path) : undefined;
    if (stored !== undefined) return stored;
    if (token !== undefined && request.headers.authorization !== token) {
      return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS_URL } };
    }
    // Newest first: a test's later route overrides an earlier one or a replayed recording.
    for (let i = responders.length - 1; i >= 0; i--) {
      const work = responders[i]?.(request);
      if (work !== undefined) return await work();
    }
    unmatched.push(request);
    return { status: 404, body: { message: 'Not Found', documentation_url: DOCS_URL } };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    unmatched,
    route: (method, pattern, handler) => void responders.push(compilePattern(method, pattern, handler)),
    replay: (scenario) => void responders.push(replayResponder(loadScenario(scenario))),
    graphql: (handler) =>
      void responders.push(
        compilePattern('POST', '/graphql', (request) => {
          const body = (request.body ?? {}) as Partial<GraphqlOperation>;
          return handler({ query: body.query ?? '', variables: body.variables ?? {} }, request);
        }),
      ),
    store: (name, reply) => {
      const storedPath = `/_storage/${encodeURIComponent(name)}`;
      storage.set(storedPath, reply);
      return `${url}${storedPath}`;
    },
    expectToken: (headerValue) => {
      token = headerValue;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---- Response bodies in GitHub's REST shapes (field sets and order as in the @octokit/fixtures recordings).
// API links use https://api.github.com, which the fake rewrites to its own url when it sends them.

type Body = Record<string, unknown>;

const DEFAULT_REPO = 'octo-org/octo-repo';
const DEFAULT_LOGIN = 'octocat';
/** The normalized time of the fixture recordings. */
const DEFAULT_TIME = '2017-10-10T16:00:00Z';

/** A stable id per name, so two users or labels differ unless a test gives ids. */
function idFor(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 900_000;
  return 1000 + hash;
}

/** GitHub's legacy global node id: base64 of "<length of type>:<Type><id>", e.g. MDU6SXNzdWUx for Issue 1. */
function nodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

function reactions(apiUrl: string): Body {
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

function user(login: string, id = idFor(login)): Body {
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
function label(name: string, id = idFor(name), repo = DEFAULT_REPO): Body {
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

function milestone(n: number, title: string, repo = DEFAULT_REPO): Body {
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

function issue(n: number, fields: Partial<IssueFields> = {}, repo = DEFAULT_REPO): Body {
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

function comment(id: number, fields: Partial<CommentFields> = {}, repo = DEFAULT_REPO): Body {
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

function error(status: number, message: string, errors?: object[]): FakeReply {
  return { status, body: { message, ...(errors && { errors }), documentation_url: DOCS_URL } };
}

function rateLimited(status: 403 | 429, resetEpochS: number): FakeReply {
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

// ---- Pull requests, their files and review comments, check runs, workflow runs, branches, GraphQL answers.
// Field names and order follow GitHub's REST reference (the OpenAPI description @octokit/rest is typed from);
// `satisfies Fields<…>` makes the type checker refuse a field GitHub does not have.

type Rest = RestEndpointMethodTypes;
/** Only GitHub's field names, any values: nested objects here are builders' plain bodies. */
type Fields<T> = { [K in keyof T]?: unknown };

const DEFAULT_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';

/** The part of a repository a pull request's head and base carry here (GitHub sends the whole repository). */
function repository(
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
function pullListed(n: number, fields: Partial<PullFields> = {}, repo = DEFAULT_REPO): Body {
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
function pull(n: number, fields: Partial<PullFields> = {}, repo = DEFAULT_REPO): Body {
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
function pullFile(filename: string, fields: Partial<PullFileFields> = {}, repo = DEFAULT_REPO): Body {
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
function reviewComment(id: number, fields: Partial<ReviewCommentFields> = {}, repo = DEFAULT_REPO): Body {
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

export interface CheckRunFields {
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  conclusion:
    'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | null;
  head_sha: string;
  started_at: string | null;
  completed_at: string | null;
  /** The check suite, which a workflow run names as its check_suite_id (default 1). */
  check_suite: number;
  /** The workflow run of an Actions job, for its html_url (default 1). */
  run: number;
}

/** A check run ("check-run"); GitHub Actions makes one per job, with the job's id. */
function checkRun(id: number, fields: Partial<CheckRunFields> = {}, repo = DEFAULT_REPO): Body {
  const status = fields.status ?? 'completed';
  const html = `https://github.com/${repo}/actions/runs/${fields.run ?? 1}/job/${id}`;
  const api = `${API_ORIGIN}/repos/${repo}/check-runs/${id}`;
  return {
    id,
    name: fields.name ?? `job ${id}`,
    node_id: nodeId('CheckRun', id),
    head_sha: fields.head_sha ?? DEFAULT_SHA,
    external_id: `${id}`,
    url: api,
    html_url: html,
    details_url: html,
    status,
    conclusion:
      fields.conclusion !== undefined ? fields.conclusion : status === 'completed' ? 'success' : null,
    started_at: fields.started_at !== undefined ? fields.started_at : DEFAULT_TIME,
    completed_at:
      fields.completed_at !== undefined ? fields.completed_at : status === 'completed' ? DEFAULT_TIME : null,
    output: {
      title: null,
      summary: null,
      text: null,
      annotations_count: 0,
      annotations_url: `${api}/annotations`,
    },
    check_suite: { id: fields.check_suite ?? 1 },
    app: { id: 15368, slug: 'github-actions', node_id: 'MDM6QXBwMTUzNjg=', name: 'GitHub Actions' },
    pull_requests: [],
  } satisfies Fields<Rest['checks']['get']['response']['data']>;
}

/** checks.listForRef's answer. */
function checkRunList(runs: Body[], total = runs.length): Body {
  return { total_count: total, check_runs: runs };
}

export interface WorkflowRunFields {
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  conclusion: string | null;
  head_branch: string;
  head_sha: string;
  check_suite_id: number;
  created_at: string;
  event: string;
}

/** A GitHub Actions workflow run ("workflow-run"). */
function workflowRun(id: number, fields: Partial<WorkflowRunFields> = {}, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}/actions/runs/${id}`;
  const status = fields.status ?? 'completed';
  const suite = fields.check_suite_id ?? 1;
  const createdAt = fields.created_at ?? DEFAULT_TIME;
  return {
    id,
    name: fields.name ?? 'CI',
    node_id: nodeId('WorkflowRun', id),
    head_branch: fields.head_branch ?? 'main',
    head_sha: fields.head_sha ?? DEFAULT_SHA,
    path: '.github/workflows/ci.yml',
    display_title: fields.name ?? 'CI',
    run_number: id,
    event: fields.event ?? 'push',
    status,
    conclusion:
      fields.conclusion !== undefined ? fields.conclusion : status === 'completed' ? 'success' : null,
    workflow_id: 159038,
    check_suite_id: suite,
    check_suite_node_id: nodeId('CheckSuite', suite),
    url: api,
    html_url: `https://github.com/${repo}/actions/runs/${id}`,
    pull_requests: [],
    created_at: createdAt,
    updated_at: createdAt,
    actor: user(DEFAULT_LOGIN),
    run_attempt: 1,
    run_started_at: createdAt,
    triggering_actor: user(DEFAULT_LOGIN),
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    check_suite_url: `${API_ORIGIN}/repos/${repo}/check-suites/${suite}`,
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${API_ORIGIN}/repos/${repo}/actions/workflows/159038`,
    head_commit: null,
    repository: repository(repo),
    head_repository: repository(repo),
  } satisfies Fields<Rest['actions']['getWorkflowRun']['response']['data']>;
}

/** actions.listWorkflowRunsForRepo's answer. */
function workflowRunList(runs: Body[], total = runs.length): Body {
  return { total_count: total, workflow_runs: runs };
}

/** A branch ("branch-with-protection") whose head commit is `sha`. */
function branch(name: string, sha = DEFAULT_SHA, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}`;
  return {
    name,
    commit: {
      sha,
      node_id: nodeId('Commit', idFor(sha)),
      url: `${api}/commits/${sha}`,
      html_url: `https://github.com/${repo}/commit/${sha}`,
      comments_url: `${api}/commits/${sha}/comments`,
      commit: {
        url: `${api}/git/commits/${sha}`,
        author: { name: 'Monalisa Octocat', email: 'octocat@github.com', date: DEFAULT_TIME },
        committer: { name: 'Monalisa Octocat', email: 'octocat@github.com', date: DEFAULT_TIME },
        message: 'Fix all the bugs',
        comment_count: 0,
        tree: { sha: '9c48853fa3dc5c1c3d6f1f1cd1f2743e72652840', url: `${api}/git/trees/9c48853` },
      },
      author: user(DEFAULT_LOGIN),
      committer: user(DEFAULT_LOGIN),
      parents: [],
    },
    _links: { html: `https://github.com/${repo}/tree/${name}`, self: `${api}/branches/${name}` },
    protected: false,
    protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [] } },
    protection_url: `${api}/branches/${name}/protection`,
  } satisfies Fields<Rest['repos']['getBranch']['response']['data']>;
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
function reviewThread(fields: Partial<ReviewThreadFields> = {}, repo = DEFAULT_REPO): Body {
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
function graphqlData(data: unknown): FakeReply {
  return { status: 200, body: { data } };
}

/** GraphQL's failure: HTTP 200 with `errors`, e.g. `[{ type: 'NOT_FOUND', path: [...], message }]`. */
function graphqlErrors(
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

/** Builders for response bodies in GitHub's documented shapes, for endpoints the fixtures do not cover. */
export const gh = {
  user,
  label,
  issue,
  comment,
  milestone,
  error,
  rateLimited,
  repository,
  pull,
  pullListed,
  pullFile,
  reviewComment,
  checkRun,
  checkRunList,
  workflowRun,
  workflowRunList,
  branch,
  reviewThread,
  graphqlData,
  graphqlErrors,
};
