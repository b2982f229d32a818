// How an upstream failure reads in messages and logs: HTTP answers named by status and the server's own words.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describeThrown } from '../../host/index.js';
import type { UpstreamTarget } from './options.js';

/** The `message` of a JSON-RPC error body, when the text after the SDK's prefix is one. */
function jsonRpcMessage(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start === -1) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line for a failure to reach or use the server. An HTTP refusal says its status, what the server said,
 * and, for 401/403, which variable the token came from (never the token).
 */
export function describeFailure(error: unknown, target: UpstreamTarget): string {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined || error.code < 400)
    return describeThrown(error);
  const said = jsonRpcMessage(error.message) ?? error.message;
  const status = `HTTP ${error.code}: ${said}`;
  if ((error.code === 401 || error.code === 403) && target.kind === 'http')
    return target.tokenEnv === undefined
      ? `the server wants a bearer token (${status}); set token_env to the variable holding it`
      : `the server refused the bearer token from ${target.tokenEnv} (${status})`;
  return `the server refused the request (${status})`;
}
