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

/**
 * The transport as the server sees it: everything passes through, but params the SDK's validation refused are
 * answered with -32602, and, for a 2025 client, a `resources/read` that fails for want of the resource with -32002.
 * A Proxy, so that what the server sets on the transport (`onclose`, `onerror`) lands on the transport itself; the
 * methods it hands out are bound once, since the SDK reads them on every message.
 */
export function withClientErrorCodes<T extends Transport>(transport: T, era: ProtocolEra): T {
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
  const send = (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]) =>
    transport.send(restore(message), options);
  // By the function itself: a handler the server sets again (onclose, onerror) must not come back as the old one.
  const bound = new WeakMap<object, unknown>();
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'send') return send;
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      let method = bound.get(value);
      if (method === undefined) bound.set(value, (method = (value as () => unknown).bind(target)));
      return method;
    },
    set(target, property, value: unknown) {
      if (era !== 'legacy' || property !== 'onmessage' || typeof value !== 'function')
        return Reflect.set(target, property, value);
      const handler = value as MessageHandler;
      const watching: MessageHandler = (message, extra) => {
        if ('method' in message) {
          if (message.method === 'resources/read' && 'id' in message) reads.add(message.id);
          // A cancelled request is never answered: it is forgotten here instead.
          else if (message.method === 'notifications/cancelled') {
            const id = endedRequestId(message);
            if (id !== undefined) reads.delete(id);
          }
        }
        handler(message, extra);
      };
      return Reflect.set(target, property, watching);
    },
  });
}
