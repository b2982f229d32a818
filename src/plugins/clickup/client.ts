// A thin typed fetch client for ClickUp API v2: JSON in and out, the token header, bounded retries, and the
// per-token rate limit (X-RateLimit-Reset, unix seconds) waited out only when the call's deadline allows.
import { type Logger, logRetry, PluginError, type SharedRateLimits } from '../../contract/index.js';
import { abortableSleep, rateLimitKey } from '../kit/index.js';
import { type ClickUpFailure, type FailureTarget, clickupError, readErrorBody } from './failure.js';
import type { ClickUpSettings } from './options.js';

type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface ClickUpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the base URL: '/task/86a1b2c3d'. Ids in it are encoded by the caller. */
  path: string;
  /** Arrays go out as ClickUp reads them: statuses[]=a&statuses[]=b. Undefined values are left out. */
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** What the request is about, for messages: `task 86a1b2c3d`. */
  target: string;
}

/** The call's bounds: its signal, and how long it may still take (a rate-limit wait must fit in it); a RequestContext is one as it is. */
export interface CallBounds {
  signal?: AbortSignal;
  timeLeftMs?: () => number;
}

export interface ClickUpClient {
  send<T>(request: ClickUpRequest, bounds: CallBounds): Promise<T>;
}

/** Seams for tests: the clock and the wait. */
export interface ClientClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const RETRY_BASE_MS = 250;
/** A 5xx or a lost connection is retried only for requests that are safe to repeat. */
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);
/** A rate-limit wait with no deadline to bound it (metadata loads) is capped at this. */
const MAX_UNBOUNDED_WAIT_MS = 60_000;
/** Room left after a wait for the request itself. */
const WAIT_MARGIN_MS = 500;

const REAL_CLOCK: ClientClock = { now: () => Date.now(), sleep: abortableSleep };

export function buildUrl(baseUrl: string, request: ClickUpRequest): URL {
  const url = new URL(`${baseUrl}${request.path}`);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(`${key}[]`, String(item));
    else url.searchParams.append(key, String(value as string | number | boolean));
  }
  return url;
}

/** A success body; a proxy's HTML page instead of JSON is a failure that says so, not a SyntaxError. */
function parseJson<T>(text: string, about: FailureTarget): T {
  if (text === '') return {} as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PluginError('unavailable', `ClickUp answered ${about.target} with something that is not JSON`);
  }
}

/** X-RateLimit-Reset is unix seconds; undefined when absent or unreadable. */
function resetAtMs(headers: Headers): number | undefined {
  const reset = Number(headers.get('x-ratelimit-reset'));
  return headers.has('x-ratelimit-reset') && Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined;
}

/**
 * `logger` is told of each retry before its wait; none by default. `rateLimits` (a cluster's, `ctx.rateLimits`)
 * shares the token's used-up window with the other processes; none by default.
 */
export function createClickUpClient(
  settings: ClickUpSettings,
  clock: ClientClock = REAL_CLOCK,
  logger?: Logger,
  rateLimits?: SharedRateLimits,
): ClickUpClient {
  const noteRetry = (attempt: number, waitMs: number, why: string) => {
    if (logger) logRetry(logger, { attempt: attempt + 1, waitMs: Math.max(0, waitMs), why });
  };
  // When the token's window is known to be used up (a 429, or Remaining: 0), later requests wait for it
  // instead of spending a request on a certain 429.
  let blockedUntilMs = 0;
  const limitKey = rateLimitKey('clickup', settings.baseUrl, settings.token);
  const blockUntil = (untilMs: number) => {
    blockedUntilMs = Math.max(blockedUntilMs, untilMs);
    rateLimits?.block(limitKey, blockedUntilMs);
  };

  /** Whether this call may wait `waitMs`: the wait plus a margin fits its time left (60 s with no deadline). */
  const affordableWait = (waitMs: number, bounds: CallBounds): boolean => {
    const left = bounds.timeLeftMs?.() ?? MAX_UNBOUNDED_WAIT_MS;
    return waitMs + WAIT_MARGIN_MS <= left;
  };

  async function send<T>(request: ClickUpRequest, bounds: CallBounds): Promise<T> {
    const about: FailureTarget = {
      target: request.target,
      token: settings.token,
      tokenEnv: settings.tokenEnv,
    };
    const fail = (failure: ClickUpFailure) => clickupError(failure, about);
    const url = buildUrl(settings.baseUrl, request);
    // The token goes into this header and nowhere else: never the URL, a message or a log.
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'foresight-mcp' };
    if (settings.token !== undefined) headers.authorization = settings.token;
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined) headers['content-type'] = 'application/json';

    for (let attempt = 0; ; attempt++) {
      // Another process may have spent the window: it then waits (or fails) here as if this one had.
      const shared = rateLimits ? await rateLimits.blockedUntil(limitKey) : undefined;
      if (shared !== undefined) blockedUntilMs = Math.max(blockedUntilMs, shared);
      const blockedMs = blockedUntilMs - clock.now();
      if (blockedMs > 0) {
        if (!affordableWait(blockedMs, bounds)) {
          throw fail({ status: 429, rateLimited: true, rateLimitResetAt: new Date(blockedUntilMs) });
        }
        await clock.sleep(blockedMs, bounds.signal).catch(() => undefined);
        if (bounds.signal?.aborted) throw fail({ aborted: true });
      }
      let response: Response;
      try {
        response = await fetch(url, {
          method: request.method,
          headers,
          ...(body === undefined ? {} : { body }),
          ...(bounds.signal ? { signal: bounds.signal } : {}),
        });
      } catch (error) {
        if (bounds.signal?.aborted) throw fail({ aborted: true });
        const code = (error as { cause?: { code?: unknown } }).cause?.code;
        if (attempt < settings.retries && IDEMPOTENT.has(request.method)) {
          noteRetry(attempt, RETRY_BASE_MS * 4 ** attempt, typeof code === 'string' ? code : 'no answer');
          await clock.sleep(RETRY_BASE_MS * 4 ** attempt, bounds.signal).catch(() => undefined);
          continue;
        }
        throw fail(typeof code === 'string' ? { networkCode: code } : {});
      }
      const resetMs = resetAtMs(response.headers);
      if (response.headers.get('x-ratelimit-remaining') === '0' && resetMs !== undefined) blockUntil(resetMs);
      if (response.ok) {
        const text = await response.text();
        return parseJson<T>(text, about);
      }
      const text = await response.text().catch(() => '');
      if (response.status === 429) {
        const until = resetMs ?? clock.now() + RETRY_BASE_MS * 4 ** attempt;
        blockUntil(until);
        if (attempt < settings.retries && affordableWait(until - clock.now(), bounds)) {
          noteRetry(attempt, until - clock.now(), 'HTTP 429');
          continue;
        }
        throw fail({
          status: 429,
          rateLimited: true,
          rateLimitResetAt: new Date(until),
          ...readErrorBody(text),
        });
      }
      if (response.status >= 500 && attempt < settings.retries && IDEMPOTENT.has(request.method)) {
        noteRetry(attempt, RETRY_BASE_MS * 4 ** attempt, `HTTP ${response.status}`);
        await clock.sleep(RETRY_BASE_MS * 4 ** attempt, bounds.signal).catch(() => undefined);
        continue;
      }
      throw fail({ status: response.status, ...readErrorBody(text) });
    }
  }

  return { send };
}

/** A path segment from an id the agent gave: encoded, so "a/b" cannot reach another endpoint. */
export const segment = (id: string): string => encodeURIComponent(id);
