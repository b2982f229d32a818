// Test seam for the REST providers (GitLab, Jira, ClickUp): a loopback HTTP server that answers from routes a test
// adds, in the provider's own error bodies, and records every request it receives.
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  /** Upper case, as sent ('GET'). */
  method: string;
  /** The pathname as sent, still percent-encoded (a project path arrives as group%2Fproject). */
  path: string;
  /** The query string, decoded; a repeated key (labels[]=a&labels[]=b) keeps its last value. */
  query: Record<string, string>;
  /** Every value of each query key, in order: statuses[]=a&statuses[]=b → { 'statuses[]': ['a', 'b'] }. */
  queryAll: Record<string, string[]>;
  /** Lower-case names, values exactly as sent (private-token, authorization). */
  headers: Record<string, string | undefined>;
  /** JSON bodies parsed; multipart and urlencoded forms as field → value; other text as is; undefined when empty. */
  body: unknown;
}

/** A reply: a string body is sent as text/plain unless `headers` say otherwise; anything else as JSON. */
export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeHandler = (
  request: RecordedRequest,
  params: Record<string, string>,
) => FakeReply | Promise<FakeReply>;

export interface FakeRest {
  /** e.g. http://127.0.0.1:PORT, what the plugin gets as base_url. */
  url: string;
  /** Every request, in order, recorded before authentication and matching. */
  requests: RecordedRequest[];
  /** Requests no route answered (they got the provider's 404); not those refused with 401. */
  unmatched: RecordedRequest[];
  /** Requests whose client hung up before the answer was sent (an aborted fetch). */
  abandoned: RecordedRequest[];
  /**
   * Adds a route under the prefix: `pattern` like '/projects/:project/issues/:iid'; params are decoded
   * (project "group/sub/name"). Later routes win over earlier ones for the same request.
   */
  route(method: string, pattern: string, handler: FakeHandler | FakeReply): void;
  /** Every later request must carry `header` (lower case) with exactly `value`, or it gets the provider's 401. */
  expectAuth(header: string, value: string): void;
  /** The recorded requests to one method and path (the path under the prefix, percent-encoded as sent). */
  sent(method: string, apiPath: string): RecordedRequest[];
  /** Stops listening and closes every open socket, keep-alive ones included. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json';

/** A matcher returns the work that answers the request, or undefined when it does not apply. */
export type Responder = (request: RecordedRequest) => (() => FakeReply | Promise<FakeReply>) | undefined;

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function compileRoute(
  prefix: string,
  method: string,
  pattern: string,
  handler: FakeHandler | FakeReply,
): Responder {
  const wanted = method.toUpperCase();
  const segments = `${prefix}${pattern}`.split('/');
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

/** The parts of a request every fake records the same way: method, path, query (last and every value), headers. */
export function requestLine(
  method: string | undefined,
  target: URL,
  headers: IncomingHttpHeaders,
): Omit<RecordedRequest, 'body'> {
  const queryAll: Record<string, string[]> = {};
  for (const [key, value] of target.searchParams) (queryAll[key] ??= []).push(value);
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return {
    method: (method ?? 'GET').toUpperCase(),
    path: target.pathname,
    query: Object.fromEntries(target.searchParams),
    queryAll,
    headers: flat,
  };
}

/** JSON, multipart/form-data (what gitbeaker sends for diff positions) or urlencoded, as the APIs read them. */
async function parseBody(raw: Buffer, contentType: string | undefined): Promise<unknown> {
  if (raw.length === 0) return undefined;
  const type = contentType ?? '';
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    return Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));
  }
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function send(res: ServerResponse, reply: FakeReply): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  const { body } = reply;
  let payload: string | Buffer | undefined;
  if (body === undefined) payload = undefined;
  else if (Buffer.isBuffer(body)) payload = body;
  else if (typeof body === 'string') {
    payload = body;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else {
    payload = JSON.stringify(body);
    headers['content-type'] ??= JSON_TYPE;
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** How one provider's fake differs: where its API lives and the bodies of its refusals. */
export interface FakeRestOptions {
  /** Names the fake in the 500 a throwing handler produces. */
  name: string;
  /** Path prefix every route and `sent` path is under: '/api/v4'; '' for none. */
  prefix: string;
  /** The answer to a request without the expected credentials. */
  unauthorized: FakeReply;
  /** The answer to a request no route matches. */
  notFound: FakeReply;
}

export async function startFakeRest(options: FakeRestOptions): Promise<FakeRest> {
  const { name, prefix } = options;
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  const abandoned: RecordedRequest[] = [];
  const responders: Responder[] = [];
  let auth: { header: string; value: string } | undefined;
  let url = '';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const target = new URL(req.url ?? '/', url);
        const request: RecordedRequest = {
          ...requestLine(req.method, target, req.headers),
          body: await parseBody(Buffer.concat(chunks), req.headers['content-type']),
        };
        requests.push(request);
        res.once('close', () => {
          if (!res.writableEnded) abandoned.push(request);
        });
        return answer(request);
      })().then(
        (reply) => send(res, reply),
        (failure: unknown) =>
          send(res, { status: 500, body: { message: `fake-${name}: handler threw: ${String(failure)}` } }),
      );
    });
  });

  async function answer(request: RecordedRequest): Promise<FakeReply> {
    if (auth !== undefined && request.headers[auth.header] !== auth.value) {
      return options.unauthorized;
    }
    for (let i = responders.length - 1; i >= 0; i--) {
      const work = responders[i]?.(request);
      if (work !== undefined) return await work();
    }
    unmatched.push(request);
    return options.notFound;
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
    abandoned,
    route: (method, pattern, handler) => void responders.push(compileRoute(prefix, method, pattern, handler)),
    expectAuth: (header, value) => {
      auth = { header, value };
    },
    sent: (method, apiPath) =>
      requests.filter((r) => r.method === method.toUpperCase() && r.path === `${prefix}${apiPath}`),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
