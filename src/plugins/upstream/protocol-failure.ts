// An upstream's JSON-RPC error answer to a tool call, as Foresight's own error: the task extension tells it apart
// from a tool's failure (a task ends `failed`, not `completed` with isError), so it must not reach the host as a
// plain error, which any plugin may throw and which the host reports as the tool having failed.
import { ProtocolError } from '@modelcontextprotocol/client';
import { errors } from '../../contract/index.js';

/**
 * E_UPSTREAM_PROTOCOL_ERROR for a ProtocolError (the server's error answer, or an answer the SDK client found
 * breaks the protocol), carrying the server's code; undefined for anything else (a lost connection, a timeout,
 * a refusal already told as Foresight's own), which keeps its own error.
 */
export function protocolFailure(error: unknown, target: string): Error | undefined {
  if (!(error instanceof ProtocolError)) return undefined;
  return errors.upstreamProtocolError(target, Number(error.code), error.message);
}
