// GitHub's GraphQL API for what REST lacks: errors GitHub answers with a 200 become the same errors as REST ones.
import { type FailureContext, type HttpFailure, providerError } from '../kit/index.js';
import type { GitHubClient } from './client.js';
import { githubFailure } from './failure.js';

interface GraphqlErrorLike {
  name?: string;
  errors?: { type?: string; message?: string }[];
  headers?: Record<string, string | number | undefined>;
}

/** GraphQL reports a missing pull request or a rate limit in `errors[].type`, not in the HTTP status. */
function graphqlFailure(error: GraphqlErrorLike): HttpFailure {
  const first = error.errors?.[0] ?? {};
  const apiMessage = error.errors
    ?.map((entry) => entry.message)
    .filter(Boolean)
    .join('; ');
  const reset = Number(error.headers?.['x-ratelimit-reset']);
  const status =
    first.type === 'NOT_FOUND'
      ? 404
      : first.type === 'FORBIDDEN'
        ? 403
        : first.type === 'RATE_LIMITED'
          ? 429
          : 422;
  return {
    status,
    ...(apiMessage ? { apiMessage } : {}),
    rateLimited: first.type === 'RATE_LIMITED',
    ...(Number.isFinite(reset) && reset > 0 ? { rateLimitResetAt: new Date(reset * 1000) } : {}),
  };
}

/** Runs one GraphQL query or mutation; HTTP failures read as REST ones do, GraphQL `errors` by their type. */
export async function graphql<T>(
  client: GitHubClient,
  context: FailureContext,
  signal: AbortSignal | undefined,
  query: string,
  variables: Record<string, unknown>,
): Promise<T> {
  try {
    return await client.graphql<T>(query, { ...variables, request: { signal } });
  } catch (error) {
    const graphqlError = (error as GraphqlErrorLike | undefined)?.name === 'GraphqlResponseError';
    throw providerError(
      graphqlError && !signal?.aborted
        ? graphqlFailure(error as GraphqlErrorLike)
        : githubFailure(error, signal),
      context,
    );
  }
}
