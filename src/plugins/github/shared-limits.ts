// GitHub's rate limit as every process of a cluster knows it: an Octokit plugin, inside throttling and retry, that
// records each limit GitHub answers with, answers a request to a budget known to be used up as GitHub would, and
// spaces writes and searches across processes as throttling spaces them within one.
import type { Octokit } from '@octokit/rest';
import type { SharedRateLimits } from '../../contract/index.js';
import { abortableSleep } from '../kit/index.js';

export interface SharedLimitOptions {
  /** The cluster's rate limits (`ctx.rateLimits`); absent for a single process: the plugin then does nothing. */
  sharedRateLimits?: { limits: SharedRateLimits; key: string };
  /** Octokit hands every plugin all of its options. */
  [option: string]: unknown;
}

type Headers = Record<string, string | number | undefined>;

/** When GitHub says the budget is used up until: x-ratelimit-remaining 0 and its reset, else Retry-After. */
function limitedUntilMs(status: number | undefined, headers: Headers, nowMs: number): number | undefined {
  const reset = Number(headers['x-ratelimit-reset']);
  if (String(headers['x-ratelimit-remaining']) === '0' && Number.isFinite(reset) && reset > 0)
    return reset * 1000;
  if (status !== 403 && status !== 429) return undefined;
  const retryAfter = Number(headers['retry-after']);
  return headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && retryAfter > 0
    ? nowMs + retryAfter * 1000
    : undefined;
}

/**
 * What GitHub answers a request made while the primary limit is used up: a 403 with remaining 0 and the reset. So
 * throttling waits it out or gives up, and the agent reads, exactly what a request to GitHub would have brought.
 */
function knownLimitError(untilMs: number, url: string): Error {
  const headers = {
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Math.ceil(untilMs / 1000)),
  };
  const message = 'API rate limit exceeded (known from another Foresight process; not sent)';
  return Object.assign(new Error(message), {
    name: 'HttpError',
    status: 403,
    response: { url, status: 403, headers, data: { message } },
  });
}

/**
 * GitHub counts each token's requests per resource (`core`, `search`, `graphql`…): a used-up search budget must not
 * hold back the core requests. What a request will spend is read from its path; what an answer spent, from
 * `x-ratelimit-resource` when GitHub says.
 */
function resourceOf(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/^\/api\/v3/, '');
  if (path.startsWith('/search/code')) return 'code_search';
  if (path.startsWith('/search/')) return 'search';
  if (path.startsWith('/graphql')) return 'graphql';
  return 'core';
}

function spentOn(headers: Headers | undefined, url: string): string {
  const said = headers?.['x-ratelimit-resource'];
  return typeof said === 'string' && /^[a-z_]+$/.test(said) ? said : resourceOf(url);
}

/**
 * The gaps Octokit's throttling keeps between a process's own requests of a kind (its write and search groups):
 * held across processes too, so that N processes write to GitHub no faster than one does.
 */
const SPACING_MS: Readonly<Record<string, number>> = { write: 1_000, search: 2_000 };

function spacingOf(method: string | undefined, url: string): string | undefined {
  const verb = (method ?? 'GET').toUpperCase();
  const resource = resourceOf(url);
  if (resource === 'graphql' || (verb !== 'GET' && verb !== 'HEAD')) return 'write';
  return resource === 'search' || resource === 'code_search' ? 'search' : undefined;
}

/** Waits for this request's turn among every process's requests of its kind, as long as its call lets it. */
async function takeTurn(
  limits: SharedRateLimits,
  key: string,
  kind: string | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (kind === undefined || limits.reserve === undefined) return;
  const waitMs = await limits.reserve(`${key}:${kind}`, SPACING_MS[kind] ?? 1_000);
  if (waitMs !== undefined && waitMs > 0) await abortableSleep(waitMs, signal);
}

/**
 * Registered first, so its wrap is the innermost: it runs for every attempt throttling and retry make, and what it
 * throws reaches them as GitHub's own answer would.
 */
export function sharedLimits(octokit: Pick<Octokit, 'hook'>, options: SharedLimitOptions): void {
  const shared = options.sharedRateLimits;
  if (!shared) return;
  const { limits, key } = shared;
  octokit.hook.wrap('request', async (request, endpoint) => {
    const until = await limits.blockedUntil(`${key}:${resourceOf(endpoint.url)}`);
    if (until !== undefined && until > Date.now()) throw knownLimitError(until, endpoint.url);
    const signal = (endpoint.request as { signal?: AbortSignal } | undefined)?.signal;
    await takeTurn(limits, key, spacingOf(endpoint.method, endpoint.url), signal);
    try {
      const response = await request(endpoint);
      const headers = response.headers as Headers;
      const learned = limitedUntilMs(response.status, headers, Date.now());
      if (learned !== undefined) limits.block(`${key}:${spentOn(headers, endpoint.url)}`, learned);
      return response;
    } catch (error) {
      const failed = error as { status?: number; response?: { headers?: Headers } };
      const headers = failed.response?.headers;
      const learned = headers ? limitedUntilMs(failed.status, headers, Date.now()) : undefined;
      if (learned !== undefined) limits.block(`${key}:${spentOn(headers, endpoint.url)}`, learned);
      throw error;
    }
  });
}
