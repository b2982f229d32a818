// The Octokit client of one github plugin instance: token, base URL, GitHub's throttling and retry rules.
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { type Logger, logRetry, type SharedRateLimits } from '../../contract/index.js';
import { rateLimitKey } from '../kit/index.js';
import type { GitHubSettings } from './options.js';
import { sharedLimits } from './shared-limits.js';

/** Statuses plugin-retry leaves alone: the answer would not change (429 and 403 are throttling's to wait out). */
const DO_NOT_RETRY = [400, 401, 403, 404, 409, 422, 429, 451];

interface RetryNotesOptions {
  retry?: { retries?: number };
  /** The plugin instance's logger, for a note before each retry. */
  retryLogger?: Logger;
}

interface FailedRequest {
  status?: number;
  response?: unknown;
  cause?: { code?: string; cause?: { code?: string } };
}

/**
 * Logs each retry plugin-retry is about to make, as one-shot commands show it. Registered before plugin-retry, this
 * hook sees every attempt's failure; it repeats plugin-retry's decision (status, doNotRetry, count; waits of
 * (n + 1)² s) since plugin-retry tells no one.
 */
function retryNotes(octokit: Pick<Octokit, 'hook'>, options: RetryNotesOptions): void {
  const logger = options.retryLogger;
  if (!logger) return;
  octokit.hook.error('request', (error, request) => {
    const failed = error as FailedRequest;
    const asked = request.request as { retries?: number; retryCount?: number } | undefined;
    const retries = asked?.retries ?? options.retry?.retries ?? 0;
    const count = asked?.retryCount ?? 0;
    const status = failed.status ?? 0;
    if (status >= 400 && !DO_NOT_RETRY.includes(status) && retries > count) {
      const code = failed.cause?.cause?.code ?? failed.cause?.code;
      const why = failed.response === undefined ? (code ?? 'no answer') : `HTTP ${status}`;
      logRetry(logger, { attempt: count + 1, waitMs: (count + 1) ** 2 * 1000, why });
    }
    throw error;
  });
}

// sharedLimits first: its wrap is innermost, so throttling and retry see what it throws as GitHub's own answer.
const ThrottledOctokit = Octokit.plugin(sharedLimits, throttling, retryNotes, retry);
/** The plugins add behaviour, not methods: the REST client's type is the whole surface we use. */
export type GitHubClient = Octokit;

/**
 * What every request of a call passes as octokit's `request` option: the call's signal, and the statuses
 * the caller handles itself (a 404 that means "no parent"). Failed requests are logged at error, except
 * those statuses and aborted requests, which are logged at debug.
 */
export interface RequestScope {
  signal?: AbortSignal;
  expectedStatuses?: readonly number[];
  /** The caller reports any failure itself (the health probe says it in the plugin's health): logged at debug. */
  reportsFailures?: boolean;
}

/** Waits longer than this are not worth holding a tool call for: the call fails and says when to retry. */
const MAX_RATE_LIMIT_WAIT_S = 10;

/** `rateLimits` (a cluster's, `ctx.rateLimits`) shares what GitHub says of the token's rate limit; none by default. */
export function createGitHubClient(
  settings: GitHubSettings,
  logger: Logger,
  rateLimits?: SharedRateLimits,
): GitHubClient {
  const wait =
    (kind: string) =>
    (retryAfter: number, options: { method?: string; url?: string }, _o: unknown, retryCount: number) => {
      const retrying = retryCount < 1 && retryAfter <= MAX_RATE_LIMIT_WAIT_S;
      logger.warn(
        { kind, retryAfterS: retryAfter, request: `${options.method} ${options.url}`, retrying },
        'GitHub rate limit',
      );
      return retrying;
    };
  const client = new ThrottledOctokit({
    ...(settings.token === undefined ? {} : { auth: settings.token }),
    baseUrl: settings.baseUrl,
    userAgent: 'foresight-mcp',
    // Octokit's own console logging would write to stdout, which carries MCP over stdio. Its error line
    // (one per failed request) is replaced by the hook below, which knows the failures a caller expects.
    log: {
      debug: () => {},
      info: () => {},
      warn: (message: string) => logger.warn({}, message),
      error: (message: string) => logger.debug({}, message),
    },
    throttle: {
      enabled: settings.throttle,
      onRateLimit: wait('primary'),
      onSecondaryRateLimit: wait('secondary'),
    },
    retry: { retries: settings.retries, doNotRetry: DO_NOT_RETRY },
    retryLogger: logger,
    ...(rateLimits
      ? {
          sharedRateLimits: {
            limits: rateLimits,
            key: rateLimitKey('github', settings.baseUrl, settings.token),
          },
        }
      : {}),
  });
  client.hook.error('request', (error, options) => {
    const status = (error as { status?: unknown }).status;
    const scope = options.request as RequestScope | undefined;
    const { method, url } = client.request.endpoint.parse(options);
    const line = { request: `${method} ${url.replace(settings.baseUrl, '')}`, status };
    // An aborted request (a deadline, a cancelled or speculative call) is the caller's doing, not GitHub's.
    if (scope?.signal?.aborted === true) {
      logger.debug(line, 'GitHub request aborted');
    } else if (
      scope?.reportsFailures === true ||
      (typeof status === 'number' && scope?.expectedStatuses?.includes(status))
    ) {
      logger.debug(line, 'GitHub request failed as the caller expects');
    } else {
      logger.error(line, 'GitHub request failed');
    }
    throw error;
  });
  return client;
}
