// The 2026-07-28 era on the HTTP listener: each request through the SDK's per-request entry (createMcpHandler),
// after the checks the SDK leaves to us: Mcp-Param-* headers against a call's arguments, and the listen-stream cap.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { type ServerEventBus, createMcpHandler } from '@modelcontextprotocol/server';
import type { Logger, McpTool } from '../contract/index.js';
import { header, sendJsonRpcError } from './http-answers.js';
import { idOf } from './http-body.js';
import { type ListenStreamCap, type ListenSubscriptions, listenedResources } from './listen.js';
import { type HeaderParam, headerParams, paramHeaderMismatch } from './param-headers.js';
import { principalFromAuthInfo } from './request-auth.js';
import type { Binding, BoundServer } from './server-factory.js';

export interface ModernEntryOptions {
  createServer(binding: Binding): BoundServer;
  /** Where the host's change events reach modern listen streams. */
  bus: ServerEventBus;
  listen: ListenSubscriptions;
  /** Open listen streams, shared with the stdio transport. */
  listenCap: ListenStreamCap;
  maxRequestBytes: number;
  logger: Logger;
  /** The input schema of a listed tool, for the `Mcp-Param-*` headers of its 2026-07-28 calls. */
  toolSchema?(name: string): McpTool['inputSchema'] | undefined;
  /** A listen stream opens on `res`: it ends only at close, so the drain does not wait for it. */
  onListenStream(res: ServerResponse): void;
}

export interface ModernEntry {
  /**
   * Answers a request the SDK's entry serves: a modern one (`modern`), or one it refuses (mismatched headers,
   * unknown versions, every 2025 request when they are refused).
   */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, modern: boolean): Promise<void>;
  /** Ends the listen streams gracefully (the empty listen result). */
  close(): Promise<void>;
}

export function createModernEntry(options: ModernEntryOptions): ModernEntry {
  const handler = createMcpHandler(
    ({ era, authInfo }) =>
      options.createServer({
        era,
        connection: { transport: 'http', principal: principalFromAuthInfo(authInfo) },
      }).server,
    {
      legacy: 'reject',
      bus: options.bus,
      maxRequestBodySize: options.maxRequestBytes,
      onerror: (error) => options.logger.debug({ err: error.message }, 'http: request refused or failed'),
    },
  );
  const serveNode = toNodeHandler(handler, {
    maxRequestBodySize: options.maxRequestBytes,
    onerror: (error) => options.logger.error({ err: error.message }, 'http: request failed'),
  });

  /** The parameters each tool schema mirrors into headers, worked out once per schema. */
  const mirrored = new WeakMap<object, HeaderParam[]>();
  /** A tool call whose Mcp-Param-* headers disagree with its arguments: why, and the request's id. */
  const paramMismatch = (req: IncomingMessage, body: unknown) => {
    const call = body as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
    if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') return undefined;
    const schema = options.toolSchema?.(call.params.name);
    if (!schema) return undefined;
    let params = mirrored.get(schema);
    if (!params) mirrored.set(schema, (params = headerParams(schema)));
    if (params.length === 0) return undefined;
    const why = paramHeaderMismatch(params, call.params.arguments, (name) => header(req, name));
    const id = idOf(body);
    return why === undefined ? undefined : { why, id };
  };

  /**
   * A listen stream subscribes its resources at their plugins while its response is open (a refused listen closes
   * at once, and unsubscribes as quickly).
   */
  const serve = async (req: IncomingMessage, res: ServerResponse, body: unknown, modern: boolean) => {
    // SEP-2243: a server that reads the body checks the headers a tool's parameters are mirrored into.
    const mismatch = modern ? paramMismatch(req, body) : undefined;
    if (mismatch) return sendJsonRpcError(res, 400, -32020, `Header mismatch: ${mismatch.why}`, mismatch.id);
    const listen = modern ? listenedResources(body) : undefined;
    if (listen) {
      if (!options.listenCap.take())
        return sendJsonRpcError(
          res,
          503,
          -32000,
          `too many listen streams: ${options.listenCap.max} are open, the most this server keeps (server.limits.max_listen_streams); retry later`,
          listen.id,
        );
      const key = `http:${randomUUID()}`;
      options.onListenStream(res);
      options.listen.opened(key, listen.uris);
      res.once('close', () => {
        options.listen.closed(key);
        options.listenCap.release();
      });
    }
    await serveNode(req, res, body);
  };

  return { serve, close: () => handler.close() };
}
