// The error codes clients get where the SDK's own differ from the protocol's. Bad params of a spec method: the SDK
// 2.4's codecs reject them with a bare Error, which goes out as -32603 (internal error) carrying zod's issue list as
// its message; they are the client's mistake, -32602, in a sentence (both eras). And 2025 clients' unknown
// resource: the SDK answers -32602 on every era (the 2026-07-28 code), where the 2025 revisions and Foresight's
// earlier releases answer -32002.
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '@modelcontextprotocol/server';
import type { ProtocolEra } from './caller.js';
import { endedRequestId } from './listen.js';
import { RESOURCE_NOT_FOUND } from './wire-errors.js';

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

/** zod's issue list, when an error message is one: what the SDK's request validation throws. */
function validationIssues(message: string): Array<{ path?: unknown[]; message?: string }> | undefined {
  if (!message.startsWith('[')) return undefined;
  try {
    const issues: unknown = JSON.parse(message);
    return Array.isArray(issues) &&
      issues.every((issue) => typeof issue === 'object' && issue !== null && 'code' in issue)
      ? (issues as Array<{ path?: unknown[]; message?: string }>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** "invalid params: params.name: Invalid input: expected string, received undefined". */
function invalidParamsSentence(issues: Array<{ path?: unknown[]; message?: string }>): string {
  const described = issues.map((issue) => {
    const path = (issue.path ?? []).map(String).join('.');
    return `${path === '' ? 'the request' : path}: ${issue.message ?? 'invalid'}`;
  });
  return `invalid params: ${described.join('; ')}`;
}

type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/** An error answer made clear: the SDK's bad-params answer as -32602 in a sentence; any other as it was. */
function clearParamsError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || message.error.code !== INTERNAL_ERROR) return message;
  const issues = validationIssues(message.error.message);
  return issues
    ? { ...message, error: { code: INVALID_PARAMS, message: invalidParamsSentence(issues) } }
    : message;
}

/** Transports already given the codes: a transport connected again is not wrapped twice. */
const withCodes = new WeakSet<Transport>();

/**
 * The transport, changed in place so that params the SDK's validation refused are answered with -32602, and, for a
 * 2025 client, a `resources/read` that fails for want of the resource with -32002. In place rather than behind a
 * Proxy: the SDK reads the transport's members on every message, and a Proxy's trap on each read cost every call.
 * A 2025 connection's requests are watched through `onmessage`, set before the server connects: the SDK's own
 * handler calls the one it finds there first.
 */
export function withClientErrorCodes<T extends Transport>(transport: T, era: ProtocolEra): T {
  if (withCodes.has(transport)) return transport;
  withCodes.add(transport);
  /** Ids of a 2025 client's `resources/read` requests still waiting for their answers. */
  const reads = new Set<RequestId>();
  const restore = (message: JSONRPCMessage): JSONRPCMessage => {
    const cleared = clearParamsError(message);
    if (era !== 'legacy' || reads.size === 0 || 'method' in cleared || !('id' in cleared)) return cleared;
    if (cleared.id === undefined || !reads.delete(cleared.id) || !('error' in cleared)) return cleared;
    const { error } = cleared;
    if (error.code !== INVALID_PARAMS) return cleared;
    if ((error.data as { kind?: unknown } | undefined)?.kind !== 'not_found') return cleared;
    return { ...cleared, error: { ...error, code: RESOURCE_NOT_FOUND } };
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(restore(message), options);
  if (era === 'legacy') {
    const earlier: MessageHandler | undefined = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message) {
        if (message.method === 'resources/read' && 'id' in message) reads.add(message.id);
        // A cancelled request is never answered: it is forgotten here instead.
        else if (message.method === 'notifications/cancelled') {
          const id = endedRequestId(message);
          if (id !== undefined) reads.delete(id);
        }
      }
      earlier?.(message, extra);
    };
  }
  return transport;
}
