// Test seam for the GitHub plugin: a loopback HTTP server that answers in GitHub's REST shapes, from routes a
// test adds or from @octokit/fixtures recordings, and records every request it receives.
import { readFileSync } from 'node:fs';
import { type ServerResponse, createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  API_ORIGIN,
  DOCS_URL,
  comment,
  error,
  issue,
  label,
  milestone,
  rateLimited,
  repository,
  user,
} from './fake-github-bodies.js';
import {
  type FakeHandler,
  type FakeReply,
  type RecordedRequest,
  type Responder,
  compileRoute,
  requestLine,
} from './fake-rest.js';
import {
  branch,
  checkRun,
  checkRunList,
  combinedStatus,
  commitStatus,
  workflowRun,
  workflowRunList,
} from './fake-github-check-bodies.js';
import {
  graphqlData,
  graphqlErrors,
  pull,
  pullFile,
  pullListed,
  reviewComment,
  reviewThread,
} from './fake-github-review-bodies.js';

export type { CommentFields, IssueFields } from './fake-github-bodies.js';
export type { CheckRunFields, CommitStatusFields, WorkflowRunFields } from './fake-github-check-bodies.js';
export type {
  PullFields,
  PullFileFields,
  ReviewCommentFields,
  ReviewThreadFields,
} from './fake-github-review-bodies.js';

export type { FakeHandler, FakeReply, RecordedRequest } from './fake-rest.js';

export interface GraphqlOperation {
  query: string;
  variables: Record<string, unknown>;
}

export type GraphqlHandler = (
  operation: GraphqlOperation,
  request: RecordedRequest,
) => FakeReply | Promise<FakeReply>;

/** How loosely a replayed recording matches a request's query: exactly, unless a test says otherwise. */
export interface ReplayOptions {
  /**
   * Pairs GitHub takes as given when they are left out (`state: 'open'`, `page: '1'`): a request that sends one
   * matches a recording that left it out. A pair with another value still has to be recorded.
   */
  defaults?: Record<string, string>;
  /**
   * Keys left out of the match on both sides. `per_page`: the recording answers a page of the size it was
   * recorded with, whatever size was asked for, as a server that pages by its own size does; its Link names
   * the next page with the recorded size.
   */
  ignore?: readonly string[];
}

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
  replay(scenario: string, options?: ReplayOptions): void;
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

/** Every host the fixtures were recorded against; the one fake serves them all. */
const RECORDED_ORIGINS = [API_ORIGIN, 'https://uploads.github.com', 'https://codeload.github.com'];
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

/** The query as the match sees it: ignored keys out, and pairs that only repeat GitHub's default. */
function matchedQuery(query: Record<string, string>, options: ReplayOptions): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).filter(
      ([key, value]) => !options.ignore?.includes(key) && options.defaults?.[key] !== value,
    ),
  );
}

function replayResponder(recordings: readonly Recording[], options: ReplayOptions = {}): Responder {
  const used = new Set<Recording>();
  const keyed = recordings.map((recording) => {
    const target = new URL(recording.path, API_ORIGIN);
    const query = matchedQuery(Object.fromEntries(target.searchParams), options);
    return { recording, path: target.pathname, query };
  });
  return (request) => {
    const query = matchedQuery(request.query, options);
    const candidates = keyed
      .filter((k) => k.recording.method.toUpperCase() === request.method && k.path === request.path)
      .filter((k) => sameQuery(k.query, query))
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
        ...requestLine(req.method, target, req.headers),
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
    route: (method, pattern, handler) => void responders.push(compileRoute('', method, pattern, handler)),
    replay: (scenario, options) => void responders.push(replayResponder(loadScenario(scenario), options)),
    graphql: (handler) =>
      void responders.push(
        compileRoute('', 'POST', '/graphql', (request) => {
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
  commitStatus,
  combinedStatus,
  workflowRun,
  workflowRunList,
  branch,
  reviewThread,
  graphqlData,
  graphqlErrors,
};
