// The HTTP transport under gitbeaker's resources: one call's AbortSignal, bounded retries, and GitLab's rate-limit headers.
// gitbeaker's own requester gives each request only a fixed timeout and retries 429 ten times within a
// quarter second, then throws without the response; this one aborts with the tool call, waits out a short
// Retry-After, and otherwise fails with the response so the reset time reaches the agent.
import { GitbeakerRequestError, type Issues } from '@gitbeaker/rest';
import { type Logger, logRetry, type SharedRateLimits } from '../../contract/index.js';
import { abortableSleep } from '../kit/index.js';

type ResourceConfig = ConstructorParameters<typeof Issues>[0];
/** What gitbeaker resources take as `requesterFn`. */
export type RequesterFn = NonNullable<ResourceConfig['requesterFn']>;
type ResourceOptions = Parameters<RequesterFn>[0];
type Requester = ReturnType<RequesterFn>;
type RequestOptions = NonNullable<Parameters<Requester['get']>[1]>;
type Method = keyof Requester;
type Formatted = Awaited<ReturnType<Requester['get']>>;

export interface RequesterSettings {
  retries: number;
  /** Told of each retry before its wait; none by default. */
  logger?: Logger;
  /** The cluster's rate limits (`ctx.rateLimits`) and this token's key in them; none for a single process. */
  shared?: { limits: SharedRateLimits; key: string };
}

/** The code of a fetch that got no response (`fetch failed`, its cause ECONNREFUSED…). */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : 'no answer';
}

/** Rate-limit waits longer than this are not worth holding a tool call for: the call fails and says when. */
const MAX_RATE_LIMIT_WAIT_S = 10;
const RETRY_BASE_MS = 250;
/** Reads may be repeated after a 5xx or a lost connection; a create may have happened, so it is not. */
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

/** gitbeaker's option names are camelCase; GitLab's are snake_case (xcase's decamelize, for plain keys). */
const snake = (key: string) => key.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase();

function decamelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decamelize);
  if (value === null || typeof value !== 'object' || value instanceof FormData) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snake(key), decamelize(inner)]));
}

/** The query as gitbeaker's qs formats it: arrays as key[]=v, objects as key[sub]=v, undefined left out. */
function appendQuery(search: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined) return;
  if (Array.isArray(value)) for (const item of value) appendQuery(search, `${key}[]`, item);
  else if (value !== null && typeof value === 'object') {
    for (const [sub, inner] of Object.entries(value)) appendQuery(search, `${key}[${sub}]`, inner);
  } else search.append(key, value === null ? '' : String(value as string | number | boolean));
}

async function parseBody(response: Response, asStream: boolean): Promise<unknown> {
  if (asStream) return response.body;
  if (response.status === 204) return null;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const text = await response.text();
  if (type === 'application/json') return text === '' ? {} : (JSON.parse(text) as unknown);
  return text;
}

/** The API's own words, as gitbeaker puts them in `cause.description`: `error`, else `message`, else the text. */
async function describeFailure(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  if (!(response.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    const output = JSON.parse(text) as { error?: unknown; message?: unknown } | null;
    const content = output?.error || output?.message || '';
    return typeof content === 'string' ? content : JSON.stringify(content);
  } catch {
    return text;
  }
}

/** When GitLab says the budget is used up until: a 429's wait, or RateLimit-Remaining 0 and its reset. */
function limitedUntilMs(response: Response, nowMs: number): number | undefined {
  if (response.status === 429) {
    const waitS = rateLimitWaitS(response.headers, nowMs);
    return waitS === undefined ? undefined : nowMs + waitS * 1000;
  }
  const reset = Number(response.headers.get('ratelimit-reset'));
  return response.headers.get('ratelimit-remaining') === '0' && Number.isFinite(reset) && reset > 0
    ? reset * 1000
    : undefined;
}

/** What GitLab answers while the budget is used up, for a request another process knows not to send. */
function knownLimit(request: Request, untilMs: number, nowMs: number): GitbeakerRequestError {
  const description = 'Rate limit exceeded (known from another Foresight process; not sent)';
  const retryAfterS = Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
  const response = new Response(JSON.stringify({ message: description }), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterS) },
  });
  return new GitbeakerRequestError(description, { cause: { description, request, response } });
}

/** Seconds to wait before retrying a 429, from Retry-After or RateLimit-Reset; undefined when neither says. */
function rateLimitWaitS(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = Number(headers.get('retry-after'));
  if (headers.has('retry-after') && Number.isFinite(retryAfter)) return Math.max(0, retryAfter);
  const reset = Number(headers.get('ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - nowMs / 1000) : undefined;
}

async function buildRequest(
  service: ResourceOptions,
  endpoint: string,
  method: string,
  options: RequestOptions,
): Promise<{ url: URL; init: RequestInit }> {
  const base = service.url.endsWith('/') ? service.url : `${service.url}/`;
  const url = new URL(endpoint, base);
  for (const [key, value] of Object.entries(
    decamelize(options.searchParams ?? {}) as Record<string, unknown>,
  )) {
    appendQuery(url.searchParams, key, value);
  }
  const headers: Record<string, string> = { 'user-agent': 'foresight-mcp', ...service.headers };
  // The token goes into a header and nowhere else: never into the URL, a message or a log.
  for (const [name, value] of Object.entries(service.authHeaders)) headers[name] = await value();
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(decamelize(options.body));
    headers['content-type'] = 'application/json';
  }
  return { url, init: { method, headers, ...(body === undefined ? {} : { body }) } };
}

/**
 * A gitbeaker requester bound to one tool call's signal: it aborts with the call (and with gitbeaker's own
 * query timeout), retries what is safe to retry, and throws GitbeakerRequestError with the response.
 */
export function createRequesterFn(settings: RequesterSettings, callSignal?: AbortSignal): RequesterFn {
  return (service) => {
    const send =
      (method: Method) =>
      async (endpoint: string, options: RequestOptions = {}): Promise<Formatted> => {
        const verb = method.toUpperCase();
        const { url, init } = await buildRequest(service, endpoint, verb, options);
        const signals = [callSignal, options.signal].filter((s): s is AbortSignal => s !== undefined);
        const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
        for (let attempt = 0; ; attempt++) {
          const request = new Request(url, { ...init, ...(signal ? { signal } : {}) });
          const shared = settings.shared;
          const until = shared ? await shared.limits.blockedUntil(shared.key) : undefined;
          if (until !== undefined && until > Date.now()) {
            // Another process was told to wait: this one waits, or gives up, as a 429 of its own would make it.
            const waitMs = until - Date.now();
            if (attempt >= settings.retries || waitMs > MAX_RATE_LIMIT_WAIT_S * 1000)
              throw knownLimit(request, until, Date.now());
            if (settings.logger) logRetry(settings.logger, { attempt: attempt + 1, waitMs, why: 'HTTP 429' });
            await abortableSleep(waitMs, signal);
            continue;
          }
          let response: Response;
          try {
            response = await fetch(request);
          } catch (error) {
            if (signal?.aborted || attempt >= settings.retries || !IDEMPOTENT.has(verb)) throw error;
            const waitMs = RETRY_BASE_MS * 4 ** attempt;
            if (settings.logger)
              logRetry(settings.logger, { attempt: attempt + 1, waitMs, why: networkCode(error) });
            await abortableSleep(waitMs, signal);
            continue;
          }
          const learned = shared ? limitedUntilMs(response, Date.now()) : undefined;
          if (learned !== undefined) shared?.limits.block(shared.key, learned);
          if (response.ok) {
            const headers = Object.fromEntries(response.headers.entries());
            const body = await parseBody(response, options.asStream === true);
            return { body, headers, status: response.status } as Formatted;
          }
          const waitS = response.status === 429 ? rateLimitWaitS(response.headers, Date.now()) : undefined;
          const retryable =
            attempt < settings.retries &&
            (response.status === 429
              ? (waitS ?? 1) <= MAX_RATE_LIMIT_WAIT_S
              : response.status >= 500 && IDEMPOTENT.has(verb));
          if (!retryable) {
            const description = await describeFailure(response);
            throw new GitbeakerRequestError(description, { cause: { description, request, response } });
          }
          await response.body?.cancel().catch(() => {});
          const waitMs = waitS === undefined ? RETRY_BASE_MS * 4 ** attempt : waitS * 1000;
          if (settings.logger)
            logRetry(settings.logger, { attempt: attempt + 1, waitMs, why: `HTTP ${response.status}` });
          await abortableSleep(waitMs, signal);
        }
      };
    return {
      get: send('get'),
      post: send('post'),
      put: send('put'),
      patch: send('patch'),
      delete: send('delete'),
    } as Requester;
  };
}
