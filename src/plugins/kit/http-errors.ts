// One meaning for every provider's HTTP failure: a PluginError of the right kind whose message says what to do.
import { PluginError } from '../../contract/index.js';

/** What a provider client tells about a failed request, in provider-neutral terms. */
export interface HttpFailure {
  /** HTTP status, when there was a response. */
  status?: number;
  /** The API's own message (GitHub `message`, GitLab `message`/`error`), when there is one. */
  apiMessage?: string;
  /** Field errors of a 422 (GitHub `errors[]`), already made readable. */
  details?: string[];
  /** When the rate limit resets, for 403/429 from a rate limit. */
  rateLimitResetAt?: Date;
  /** True when the response says the rate limit is used up (e.g. x-ratelimit-remaining: 0 or a 429). */
  rateLimited?: boolean;
  /** A network error code such as ECONNREFUSED or ETIMEDOUT, when there was no response. */
  networkCode?: string;
  /** The call was aborted (deadline, cancellation, shutdown). */
  aborted?: boolean;
}

export interface FailureContext {
  /** "GitHub" or "GitLab (gitlab.example.com)". */
  provider: string;
  /** What was asked for: `issue #12 of octo-org/octo-repo`. */
  target: string;
  /** The token the request carried: removed from the API's words, should a server echo it back. */
  token?: string;
}

function withApiMessage(text: string, failure: HttpFailure, token: string | undefined): string {
  const extra = [failure.apiMessage, ...(failure.details ?? [])]
    .filter((part): part is string => part !== undefined && part.length > 0)
    .map((part) => (token ? part.replaceAll(token, '[redacted]') : part));
  return extra.length ? `${text}: ${extra.join('; ')}` : text;
}

/**
 * Maps a failure to the error the agent sees. Messages name the provider and the target and never
 * carry request headers; the token is cut from the API's own words, so it cannot leak through them.
 */
export function providerError(failure: HttpFailure, context: FailureContext): PluginError {
  const { provider, target } = context;
  const apiWords = (text: string) => withApiMessage(text, failure, context.token);
  if (failure.aborted) return new PluginError('timeout', `${provider} did not answer in time for ${target}`);
  const status = failure.status;
  if (status === undefined) {
    const code = failure.networkCode ? ` (${failure.networkCode})` : '';
    return new PluginError('unavailable', `cannot reach ${provider}${code} for ${target}`);
  }
  if (failure.rateLimited || status === 429) {
    const reset = failure.rateLimitResetAt;
    const when = reset && !Number.isNaN(reset.getTime()) ? `; it resets at ${reset.toISOString()}` : '';
    return new PluginError('unavailable', `${provider} rate limit reached for ${target}${when}`);
  }
  switch (status) {
    case 401:
      return new PluginError(
        'invalid_input',
        apiWords(`${provider} refused the token for ${target} (401); check the token the config names`),
      );
    case 403:
      return new PluginError(
        'invalid_input',
        apiWords(`${provider} denied access to ${target} (403); the token may lack a scope`),
      );
    case 404:
      return new PluginError('not_found', `${target} was not found on ${provider}`);
    case 409:
      return new PluginError('conflict', apiWords(`${provider} reported a conflict for ${target}`));
    case 400:
    case 422:
      return new PluginError('invalid_input', apiWords(`${provider} rejected the request for ${target}`));
    default:
      return status >= 500
        ? new PluginError('unavailable', apiWords(`${provider} failed (${status}) for ${target}`))
        : new PluginError('internal', apiWords(`${provider} answered ${status} for ${target}`));
  }
}
