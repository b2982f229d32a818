// Test seam for the GitHub plugin: a loopback HTTP server that answers in GitHub's REST shapes, from routes a
// test adds or from @octokit/fixtures recordings, and records every request it receives.
import { readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

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

/** Builders for response bodies in GitHub's documented shapes, for endpoints the fixtures do not cover. */
export const gh = { user, label, issue, comment, milestone, error, rateLimited };
