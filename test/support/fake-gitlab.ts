// Test seam for the GitLab plugin: a loopback HTTP server that answers GitLab REST v4 requests from routes a
// test adds, pages lists the way GitLab does, and records every request it receives.
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  /** Upper case, as sent ('GET'). */
  method: string;
  /** The pathname as sent, still percent-encoded (a project path arrives as group%2Fproject). */
  path: string;
  /** The query string, decoded; a repeated key (labels[]=a&labels[]=b) keeps its last value. */
  query: Record<string, string>;
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

export interface FakeGitLab {
  /** e.g. http://127.0.0.1:PORT, what the plugin gets as base_url. */
  url: string;
  /** Every request, in order, recorded before authentication and matching. */
  requests: RecordedRequest[];
  /** Requests no route answered (they got GitLab's 404); not those refused with 401. */
  unmatched: RecordedRequest[];
  /** Requests whose client hung up before the answer was sent (an aborted fetch). */
  abandoned: RecordedRequest[];
  /**
   * Adds a route under /api/v4: `pattern` like '/projects/:project/issues/:iid'; params are decoded
   * (project "group/sub/name"). Later routes win over earlier ones for the same request.
   */
  route(method: string, pattern: string, handler: FakeHandler | FakeReply): void;
  /** Every later request must carry `header` with exactly `value`, or it gets GitLab's 401. */
  expectAuth(header: 'private-token' | 'authorization', value: string): void;
  /** The recorded requests to one method and path (the path under /api/v4, percent-encoded as sent). */
  sent(method: string, apiPath: string): RecordedRequest[];
  /** Stops listening and closes every open socket, keep-alive ones included. */
  close(): Promise<void>;
}

export const API_PREFIX = '/api/v4';
const JSON_TYPE = 'application/json';

type Responder = (request: RecordedRequest) => (() => FakeReply | Promise<FakeReply>) | undefined;

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function compilePattern(method: string, pattern: string, handler: FakeHandler | FakeReply): Responder {
  const wanted = method.toUpperCase();
  const segments = `${API_PREFIX}${pattern}`.split('/');
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

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** JSON, multipart/form-data (what gitbeaker sends for diff positions) or urlencoded, as GitLab reads them. */
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

export async function startFakeGitLab(): Promise<FakeGitLab> {
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
          method: (req.method ?? 'GET').toUpperCase(),
          path: target.pathname,
          query: Object.fromEntries(target.searchParams),
          headers: flattenHeaders(req.headers),
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
          send(res, { status: 500, body: { message: `fake-gitlab: handler threw: ${String(failure)}` } }),
      );
    });
  });

  async function answer(request: RecordedRequest): Promise<FakeReply> {
    if (auth !== undefined && request.headers[auth.header] !== auth.value) {
      return { status: 401, body: { message: '401 Unauthorized' } };
    }
    for (let i = responders.length - 1; i >= 0; i--) {
      const work = responders[i]?.(request);
      if (work !== undefined) return await work();
    }
    unmatched.push(request);
    return { status: 404, body: { error: '404 Not Found' } };
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
    route: (method, pattern, handler) => void responders.push(compilePattern(method, pattern, handler)),
    expectAuth: (header, value) => {
      auth = { header, value };
    },
    sent: (method, apiPath) =>
      requests.filter((r) => r.method === method.toUpperCase() && r.path === `${API_PREFIX}${apiPath}`),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * A page of `items` as GitLab's offset pagination answers it: `page` and `per_page` from the query (GitLab's
 * defaults 1 and 20, per_page at most 100), and the X-Page, X-Per-Page, X-Next-Page, X-Prev-Page, X-Total,
 * X-Total-Pages and Link headers. `omitTotal` drops X-Total, X-Total-Pages and rel="last", as GitLab does
 * for lists of more than 10,000 items.
 */
export function paged(
  items: readonly unknown[],
  request: RecordedRequest,
  baseUrl: string,
  options: { omitTotal?: boolean } = {},
): FakeReply {
  const perPage = Math.min(100, Math.max(1, Number(request.query.per_page ?? 20) || 20));
  const page = Math.max(1, Number(request.query.page ?? 1) || 1);
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const next = page < totalPages ? page + 1 : undefined;
  const prev = page > 1 ? page - 1 : undefined;
  const link = (to: number, rel: string) => {
    const query = new URLSearchParams({ ...request.query, page: String(to), per_page: String(perPage) });
    return `<${baseUrl}${request.path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(prev === undefined ? [] : [link(prev, 'prev')]),
    ...(next === undefined ? [] : [link(next, 'next')]),
    link(1, 'first'),
    ...(options.omitTotal ? [] : [link(totalPages, 'last')]),
  ];
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': next === undefined ? '' : String(next),
      'x-prev-page': prev === undefined ? '' : String(prev),
      ...(options.omitTotal ? {} : { 'x-total': String(items.length), 'x-total-pages': String(totalPages) }),
      link: links.join(', '),
    },
  };
}
