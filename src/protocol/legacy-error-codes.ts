// Keeps 2025 clients' error codes as their revision defines them: the SDK 2 answers an unknown resource with -32602
// on every era (the 2026-07-28 code), where the 2025 revisions and Foresight's earlier releases answer -32002.
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '@modelcontextprotocol/server';
import { RESOURCE_NOT_FOUND } from './wire-errors.js';

type MessageHandler = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * The transport as a 2025-era server sees it: everything passes through, but a `resources/read` that fails for
 * want of the resource is answered with -32002. A Proxy, so that what the server sets on the transport
 * (`onclose`, `onerror`) lands on the transport itself.
 */
export function withLegacyErrorCodes<T extends Transport>(transport: T): T {
  const reads = new Set<RequestId>();
  const restore = (message: JSONRPCMessage): JSONRPCMessage => {
    if ('method' in message || !('id' in message) || message.id === undefined || !reads.delete(message.id))
      return message;
    if (!('error' in message) || message.error.code !== -32602) return message;
    if ((message.error.data as { kind?: unknown } | undefined)?.kind !== 'not_found') return message;
    return { ...message, error: { ...message.error, code: RESOURCE_NOT_FOUND } };
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
        if ('method' in message && 'id' in message && message.method === 'resources/read')
          reads.add(message.id);
        handler(message, extra);
      };
      return Reflect.set(target, property, watching);
    },
  });
}
