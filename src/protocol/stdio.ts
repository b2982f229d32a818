// stdio serving on the SDK's dual-era entry: the connection's opening decides its era (initialize: 2025;
// a request with the per-request _meta: 2026-07-28), and one server is pinned to it until stdin closes.
import { randomUUID } from 'node:crypto';
import { type JSONRPCMessage, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { serveStdio as serveStdioEntry } from '@modelcontextprotocol/server/stdio';
import type { LegacyPosture, ServerLimits } from '../config/index.js';
import type { Logger } from '../contract/index.js';
import {
  LOCAL_PRINCIPAL,
  MODERN_PROTOCOL_VERSIONS,
  claimsModernRevision,
  unsupportedClaim,
} from './caller.js';
import {
  type ListenStreamCap,
  type ListenSubscriptions,
  endedRequestId,
  listenedResources,
} from './listen.js';
import type { Binding, BoundServer } from './server-factory.js';
import { type LineTransportOptions, LineStdioTransport } from './stdio-transport.js';

export interface StdioServeOptions extends Pick<LineTransportOptions, 'input' | 'output'> {
  createServer(binding: Binding): BoundServer;
  listen: ListenSubscriptions;
  /** Open listen streams, shared with the HTTP transport. */
  listenCap: ListenStreamCap;
  logger: Logger;
  /** Default "serve". */
  legacyClients?: LegacyPosture;
  limits: Pick<ServerLimits, 'maxRequestBytes' | 'maxDepth' | 'maxQueuedPerClient'>;
}

/** What a connection may ask before it says which revision it speaks: a ping, or its opening request. */
const BEFORE_OPENING = new Set(['ping', 'initialize', 'server/discover']);

export interface StdioServing {
  /** Resolves when the client closes stdin or the transport closes. */
  closed: Promise<void>;
  /** Reads no more requests; resolves (as `closed`) once every request already read is answered. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export function serveStdio(options: StdioServeOptions): StdioServing {
  const connection = randomUUID();
  // Listen streams of this connection, by the JSON-RPC id of their request.
  const listening = new Set<string | number>();
  const streamKey = (id: string | number) => `stdio:${connection}:${JSON.stringify(id)}`;
  const ended = (message: JSONRPCMessage) => {
    const id = endedRequestId(message);
    if (id === undefined || !listening.delete(id)) return;
    options.listen.closed(streamKey(id));
    options.listenCap.release();
  };
  // Until a 2025 client's initialize or a 2026-07-28 request opens the connection, nothing else is served.
  let opened = false;
  const transport = new LineStdioTransport({
    input: options.input,
    output: options.output,
    maxLineBytes: options.limits.maxRequestBytes,
    maxDepth: options.limits.maxDepth,
    // A stdio connection is one client: it is slowed down before its calls could be refused, even when the
    // whole process is busy and none of them runs yet.
    maxUnanswered: Math.max(1, options.limits.maxQueuedPerClient),
    observe: {
      inbound: (message) => {
        const listen = listenedResources(message);
        if (listen) {
          // The screen below refused the stream when every place was taken.
          options.listenCap.take();
          listening.add(listen.id);
          options.listen.opened(streamKey(listen.id), listen.uris);
        } else ended(message);
      },
      outbound: ended,
    },
    screen: (request) => {
      // The cap is read first, so a request is looked at for a listen only while every place is taken.
      if (options.listenCap.count >= options.listenCap.max && listenedResources(request))
        return {
          code: -32000,
          message: `too many listen streams: ${options.listenCap.max} are open, the most this server keeps (server.limits.max_listen_streams); close one first`,
        };
      const requested = unsupportedClaim(request);
      if (requested === undefined) {
        if (opened || !('method' in request)) return undefined;
        // server/discover is a probe: the SDK pins the connection's era on the first request after it.
        if (
          request.method === 'initialize' ||
          (claimsModernRevision(request) && request.method !== 'server/discover')
        )
          opened = true;
        else if (!BEFORE_OPENING.has(request.method))
          return {
            code: ProtocolErrorCode.InvalidRequest,
            message: `${request.method} before the connection is open: a 2025 client sends initialize first; a 2026-07-28 request carries _meta["io.modelcontextprotocol/protocolVersion"]`,
          };
        return undefined;
      }
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
    for (const id of listening) {
      options.listen.closed(streamKey(id));
      options.listenCap.release();
    }
    listening.clear();
  });
  return {
    closed,
    drain: () => {
      transport.stopReading();
      return closed;
    },
    close: () => handle.close(),
  };
}
