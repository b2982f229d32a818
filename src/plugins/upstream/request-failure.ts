// Which failures of a request are the connection's rather than the request's: the server gone, the session it
// forgot, the server unreachable (and whether it refused the connection, so the request never reached it).
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

/** Why a request failed, as far as the connection is concerned. */
export type ConnectionFailure = 'closed' | 'session_gone' | 'unreachable';

export function connectionFailure(error: unknown): ConnectionFailure | undefined {
  // The server went away with the request unanswered (its process exited, its stream ended).
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) return 'closed';
  // The server no longer knows our session (it restarted, or expired it): the spec says to initialise anew.
  // (A modern server has no sessions; one that answers 404 was replaced by a legacy one, which also wants anew.)
  if (error instanceof SdkHttpError && error.status === 404) return 'session_gone';
  // Servers that answer 400 for an unknown session (server-everything among them) mean the same.
  if (error instanceof SdkHttpError && error.status === 400 && /session/i.test(error.message))
    return 'session_gone';
  // fetch() itself failed: refused, reset, DNS. The server is down, not the request wrong.
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return 'unreachable';
  return undefined;
}

/** Whether an unreachable server refused the connection, so the request never reached it. */
export function refused(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error && (cause as NodeJS.ErrnoException).code === 'ECONNREFUSED';
}
