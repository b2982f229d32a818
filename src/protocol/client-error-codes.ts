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

/** "invalid params for prompts/get: params.name: Invalid input: expected string, received undefined". */
function invalidParamsSentence(
  method: string,
  issues: Array<{ path?: unknown[]; message?: string }>,
): string {
  const described = issues.map((issue) => {
    const path = (issue.path ?? []).map(String).join('.');
    return `${path === '' ? 'the request' : path}: ${issue.message ?? 'invalid'}`;
  });
  return `invalid params for ${method}: ${described.join('; ')}`;
}

type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * The transport as the server sees it: everything passes through, but params the SDK's validation refused are
 * answered with -32602, and, for a 2025 client, a `resources/read` that fails for want of the resource with -32002. A Proxy, so that what the server sets on the transport
 * (`onclose`, `onerror`) lands on the transport itself.
 */
export function withClientErrorCodes<T extends Transport>(transport: T, era: ProtocolEra): T {
  /** The method of each request still waiting for its answer. */
  const methods = new Map<RequestId, string>();
  const restore = (message: JSONRPCMessage): JSONRPCMessage => {
    if ('method' in message || !('id' in message) || message.id === undefined) return message;
    const method = methods.get(message.id);
    if (method === undefined) return message;
    methods.delete(message.id);
    if (!('error' in message)) return message;
    const { error } = message;
    if (error.code === INTERNAL_ERROR) {
      const issues = validationIssues(error.message);
      return issues
        ? { ...message, error: { code: INVALID_PARAMS, message: invalidParamsSentence(method, issues) } }
        : message;
    }
    if (era !== 'legacy' || method !== 'resources/read' || error.code !== INVALID_PARAMS) return message;
    if ((error.data as { kind?: unknown } | undefined)?.kind !== 'not_found') return message;
    return { ...message, error: { ...error, code: RESOURCE_NOT_FOUND } };
  };
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'send')
        return (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]) =>
          target.send(restore(message), options);
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, property, value: unknown) {
      if (property !== 'onmessage' || typeof value !== 'function')
        return Reflect.set(target, property, value);
      const handler = value as MessageHandler;
      const watching: MessageHandler = (message, extra) => {
        if ('method' in message && 'id' in message) methods.set(message.id, message.method);
        // A cancelled request is never answered: it is forgotten here instead.
        else if ('method' in message && message.method === 'notifications/cancelled') {
          const id = endedRequestId(message);
          if (id !== undefined) methods.delete(id);
        }
        handler(message, extra);
      };
      return Reflect.set(target, property, watching);
    },
  });
}
