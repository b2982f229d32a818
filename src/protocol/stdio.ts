// stdio serving on the SDK's dual-era entry: the connection's opening decides its era (initialize: 2025;
// a request with the per-request _meta: 2026-07-28), and one server is pinned to it until stdin closes.
import { randomUUID } from 'node:crypto';
import { type JSONRPCMessage, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { serveStdio as serveStdioEntry } from '@modelcontextprotocol/server/stdio';
import type { LegacyPosture } from '../config/index.js';
import type { Logger } from '../host/index.js';
import { LOCAL_PRINCIPAL, MODERN_PROTOCOL_VERSIONS, unsupportedClaim } from './caller.js';
import { type ListenSubscriptions, endedRequestId, listenedResources } from './listen.js';
import type { Binding, BoundServer } from './server-factory.js';
import { type LineTransportOptions, LineStdioTransport } from './stdio-transport.js';

export interface StdioServeOptions extends Pick<LineTransportOptions, 'input' | 'output'> {
  createServer(binding: Binding): BoundServer;
  listen: ListenSubscriptions;
  logger: Logger;
  /** Default "serve". */
  legacyClients?: LegacyPosture;
}

export interface StdioServing {
  /** Resolves when the client closes stdin or the transport closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export function serveStdio(options: StdioServeOptions): StdioServing {
  const connection = randomUUID();
  // Listen streams of this connection, by the JSON-RPC id of their request.
  const listening = new Set<string | number>();
  const streamKey = (id: string | number) => `stdio:${connection}:${JSON.stringify(id)}`;
  const ended = (message: JSONRPCMessage) => {
    const id = endedRequestId(message);
    if (id !== undefined && listening.delete(id)) options.listen.closed(streamKey(id));
  };
  const transport = new LineStdioTransport({
    input: options.input,
    output: options.output,
    observe: {
      inbound: (message) => {
        const listen = listenedResources(message);
        if (listen) {
          listening.add(listen.id);
          options.listen.opened(streamKey(listen.id), listen.uris);
        } else ended(message);
      },
      outbound: ended,
    },
    screen: (request) => {
      const requested = unsupportedClaim(request);
      if (requested === undefined) return undefined;
      return {
        code: ProtocolErrorCode.UnsupportedProtocolVersion,
        message: `Unsupported protocol version: ${requested}`,
        data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested },
      };
    },
  });
  const handle = serveStdioEntry(
    ({ era }) => {
      // A fresh stream per instance: a discarded server/discover probe instance takes its own with it.
      const bound = options.createServer({
        era,
        connection: { transport: 'stdio', principal: LOCAL_PRINCIPAL, stream: `stdio:${randomUUID()}` },
      });
      bound.server.onclose = () => bound.dispose();
      return bound.server;
    },
    {
      transport,
      legacy: options.legacyClients ?? 'serve',
      onerror: (error) => options.logger.debug({ err: error.message }, 'stdio: protocol error'),
    },
  );
  const closed = transport.closed.then(() => {
    for (const id of listening) options.listen.closed(streamKey(id));
    listening.clear();
  });
  return { closed, close: () => handle.close() };
}
