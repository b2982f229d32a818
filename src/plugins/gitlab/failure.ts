// Turns what gitbeaker throws into the kit's provider-neutral failure, so every GitLab error reads the same way.
import { type FailureContext, type HttpFailure, providerError } from '../kit/index.js';

interface GitbeakerErrorLike {
  name?: string;
  message?: string;
  code?: string;
  /** GitbeakerRequestError: the API's words and the fetch Response; a fetch TypeError: the socket error. */
  cause?: { description?: unknown; response?: unknown; code?: string };
}

const ABORT_NAMES = new Set(['AbortError', 'TimeoutError', 'GitbeakerTimeoutError']);

/** GitLab's `message` / `error` made readable: a string, a list of strings, or field → problems. */
export function readableApiMessage(description: unknown): string | undefined {
  if (typeof description !== 'string' || description.trim() === '') return undefined;
  let parsed: unknown = description;
  if (/^[[{]/.test(description.trim())) {
    try {
      parsed = JSON.parse(description);
    } catch {
      parsed = description;
    }
  }
  const text = (value: unknown): string =>
    Array.isArray(value)
      ? value.map(text).join(', ')
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  if (typeof parsed === 'string') return parsed.replace(/^\d{3} /, '').slice(0, 500);
  if (Array.isArray(parsed)) return text(parsed).slice(0, 500);
  if (parsed !== null && typeof parsed === 'object') {
    return Object.entries(parsed)
      .map(([field, problems]) => `${field} ${text(problems)}`)
      .join('; ')
      .slice(0, 500);
  }
  return undefined;
}

function isResponse(value: unknown): value is Response {
  const candidate = value as Partial<Response> | null | undefined;
  return typeof candidate?.status === 'number' && candidate.headers instanceof Headers;
}

/** When the rate limit lets requests through again: RateLimit-Reset (epoch seconds), else Retry-After. */
function resetTime(headers: Headers): Date | undefined {
  const reset = Number(headers.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return new Date(reset * 1000);
  const retryAfter = Number(headers.get('retry-after'));
  if (headers.has('retry-after') && Number.isFinite(retryAfter))
    return new Date(Date.now() + retryAfter * 1000);
  return undefined;
}

/** GitbeakerRequestError (with its response), GitbeakerRetryError, an abort, or a network failure. */
export function gitlabFailure(error: unknown, signal?: AbortSignal): HttpFailure {
  const failure = (error ?? {}) as GitbeakerErrorLike;
  if (signal?.aborted || ABORT_NAMES.has(failure.name ?? '')) return { aborted: true };
  const response = failure.cause?.response;
  if (isResponse(response)) {
    const status = response.status;
    const apiMessage = readableApiMessage(failure.cause?.description);
    const reset = resetTime(response.headers);
    return {
      status,
      ...(apiMessage === undefined ? {} : { apiMessage }),
      rateLimited: status === 429 || (status === 403 && response.headers.get('ratelimit-remaining') === '0'),
      ...(reset === undefined ? {} : { rateLimitResetAt: reset }),
    };
  }
  // gitbeaker's stock requester gives up on 429 and 502 with only a message naming the last status.
  const retried =
    failure.name === 'GitbeakerRetryError' ? /status code: (\d{3})/.exec(failure.message ?? '') : null;
  if (retried?.[1]) return { status: Number(retried[1]), rateLimited: retried[1] === '429' };
  return { networkCode: failure.cause?.code ?? failure.code };
}

/** What a request is about; `project` is set when it is about something inside the configured project. */
export type GitLabTarget = FailureContext & { project?: string };

/**
 * Runs one API request; a failure becomes the PluginError the agent sees. GitLab says "404 Project Not Found"
 * when the project itself is missing (or hidden from the token): then the message names the project.
 */
export async function request<T>(
  context: GitLabTarget,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const failure = gitlabFailure(error, signal);
    const projectMissing = failure.status === 404 && /^project not found$/i.test(failure.apiMessage ?? '');
    throw providerError(
      failure,
      projectMissing && context.project
        ? { ...context, target: `project ${context.project} (or the token cannot see it)` }
        : context,
    );
  }
}
