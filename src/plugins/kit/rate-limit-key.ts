// Names one provider rate budget for `ctx.rateLimits`: the API host and the account spending it, never the token.
import { createHash } from 'node:crypto';

/**
 * `<provider>:<host>:<account>`: the account is a short hash of the token (providers count per token or per
 * user), `anonymous` without one. Two processes with the same token and host share one budget.
 */
export function rateLimitKey(provider: string, baseUrl: string, token: string | undefined): string {
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    host = baseUrl;
  }
  const account =
    token === undefined ? 'anonymous' : createHash('sha256').update(token).digest('hex').slice(0, 16);
  return `${provider}:${host}:${account}`;
}
