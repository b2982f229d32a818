// The Octokit client of one github plugin instance: token, base URL, GitHub's throttling and retry rules.
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { Logger } from '../../host/index.js';
import type { GitHubSettings } from './options.js';

const ThrottledOctokit = Octokit.plugin(throttling, retry);
/** The plugins add behaviour, not methods: the REST client's type is the whole surface we use. */
export type GitHubClient = Octokit;

/** Waits longer than this are not worth holding a tool call for: the call fails and says when to retry. */
const MAX_RATE_LIMIT_WAIT_S = 10;

export function createGitHubClient(settings: GitHubSettings, logger: Logger): GitHubClient {
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
  return new ThrottledOctokit({
    ...(settings.token === undefined ? {} : { auth: settings.token }),
    baseUrl: settings.baseUrl,
    userAgent: 'foresight-mcp',
    // Octokit's own console logging would write to stdout, which carries MCP over stdio.
    log: {
      debug: () => {},
      info: () => {},
      warn: (message: string) => logger.warn({}, message),
      error: (message: string) => logger.error({}, message),
    },
    throttle: {
      enabled: settings.throttle,
      onRateLimit: wait('primary'),
      onSecondaryRateLimit: wait('secondary'),
    },
    retry: { retries: settings.retries, doNotRetry: [400, 401, 403, 404, 409, 422, 429, 451] },
  });
}
