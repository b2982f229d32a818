// Turns what Octokit throws into the kit's provider-neutral failure, so every GitHub error reads the same way.
import { type FailureContext, type HttpFailure, providerError } from '../kit/index.js';

interface OctokitErrorLike {
  name?: string;
  status?: number;
  message?: string;
  code?: string;
  cause?: { code?: string; cause?: { code?: string } };
  response?: { data?: unknown; headers?: Record<string, string | number | undefined> };
}

function fieldErrors(data: unknown): string[] | undefined {
  const list = (data as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(list)) return undefined;
  return list.map((entry: { field?: string; code?: string; message?: string } | string) =>
    typeof entry === 'string'
      ? entry
      : (entry.message ?? [entry.field, entry.code].filter(Boolean).join(' ')),
  );
}

/** Octokit's RequestError (with or without a response), an abort, or a network failure. */
export function githubFailure(error: unknown, signal?: AbortSignal): HttpFailure {
  const failure = (error ?? {}) as OctokitErrorLike;
  if (signal?.aborted || failure.name === 'AbortError') return { aborted: true };
  // Octokit reports a request that got no response (refused, reset, DNS) as status 500 without one.
  if (failure.response === undefined) {
    return { networkCode: failure.cause?.cause?.code ?? failure.cause?.code ?? failure.code };
  }
  const status = typeof failure.status === 'number' && failure.status > 0 ? failure.status : undefined;
  if (status === undefined) return {};
  const data = failure.response?.data;
  const headers = failure.response?.headers ?? {};
  const reset = Number(headers['x-ratelimit-reset']);
  const apiMessage = (data as { message?: unknown } | undefined)?.message;
  return {
    status,
    ...(typeof apiMessage === 'string' ? { apiMessage } : {}),
    ...(fieldErrors(data) ? { details: fieldErrors(data) } : {}),
    rateLimited: status === 429 || (status === 403 && String(headers['x-ratelimit-remaining']) === '0'),
    ...(Number.isFinite(reset) && reset > 0 ? { rateLimitResetAt: new Date(reset * 1000) } : {}),
  };
}

/** Runs one API request; a failure becomes the PluginError the agent sees. */
export async function request<T>(
  context: FailureContext,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw providerError(githubFailure(error, signal), context);
  }
}
