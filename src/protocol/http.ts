// Streamable HTTP serving: one SDK transport and one session Server per MCP session, on a loopback listener.
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../host/index.js';
import { createMemoryEventStore } from './event-store.js';
import { type HttpGuardOptions, createHttpGuard } from './http-guard.js';
import type { Session } from './session.js';
import { NOT_JSON_RPC } from './wire-errors.js';

export interface HttpServeOptions extends Omit<HttpGuardOptions, 'port'> {
  /** 0 picks a free port. */
  port: number;
  /** Default "/mcp". */
  path?: string;
  /** Largest request body accepted; default 4 MiB. */
  maxBodyBytes?: number;
  /** Suggested SSE reconnect delay sent to clients; default 1000 ms. */
  retryIntervalMs?: number;
  /** A session with no request for this long is closed (clients rarely send DELETE); default 30 min. */
  sessionIdleMs?: number;
  logger: Logger;
  createSession(): Session;
}

export interface HttpServing {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

interface LiveSession {
  transport: StreamableHTTPServerTransport;
  session: Session;
  lastSeenMs: number;
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes)
    throw new BodyError(413, -32600, `request body exceeds the ${maxBytes}-byte limit`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyError(413, -32600, `request body exceeds the ${maxBytes}-byte limit`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new BodyError(400, -32700, `parse error: ${(error as Error).message}`);
  }
}

/** A JSON-RPC message or a non-empty batch of them; anything else is -32600 (the SDK would answer -32700). */
function isJsonRpcPayload(body: unknown): boolean {
  const items = Array.isArray(body) ? body : [body];
  return items.length > 0 && items.every((item) => JSONRPCMessageSchema.safeParse(item).success);
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessions = new Map<string, LiveSession>();
  let guard = createHttpGuard({ ...options, port: options.port });

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const session = options.createSession();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: createMemoryEventStore(),
      retryInterval: options.retryIntervalMs ?? 1_000,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, session, lastSeenMs: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      session.dispose();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return sendJsonRpcError(res, 404, -32601, `not found: use ${path}`);
    const verdict = guard(req.headers);
    if (!verdict.ok) {
      if (verdict.status === 401) res.setHeader('www-authenticate', 'Bearer');
      return sendJsonRpcError(res, verdict.status, -32600, verdict.message);
    }
    const sessionId = req.headers['mcp-session-id'];
    const live = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (live) live.lastSeenMs = Date.now();
    if (req.method === 'POST') {
      const body = await readJsonBody(req, maxBodyBytes);
      if (!isJsonRpcPayload(body)) {
        return sendJsonRpcError(res, 400, -32600, NOT_JSON_RPC);
      }
      if (live) return live.transport.handleRequest(req, res, body);
      if (sessionId !== undefined)
        return sendJsonRpcError(res, 404, -32001, 'session not found; initialize again');
      if (!isInitializeRequest(body)) {
        return sendJsonRpcError(res, 400, -32600, 'no session: the first request must be initialize');
      }
      return openSession(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!live) {
        return sessionId === undefined
          ? sendJsonRpcError(res, 400, -32600, 'missing Mcp-Session-Id header')
          : sendJsonRpcError(res, 404, -32001, 'session not found');
      }
      return live.transport.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return sendJsonRpcError(res, 405, -32600, `method ${req.method ?? ''} not allowed`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof BodyError)
        return sendJsonRpcError(res, error.status, error.rpcCode, error.message);
      options.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'HTTP request failed',
      );
      sendJsonRpcError(res, 500, -32603, 'internal error');
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sweeper = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const live of sessions.values()) {
        // An open GET stream counts as activity only when it began; idle here means no request at all.
        if (live.lastSeenMs < cutoff) void live.transport.close();
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();
  // With port 0 the real port is known only now, and the Host check needs it.
  guard = createHttpGuard({ ...options, port });
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${hostForUrl}:${port}${path}`,
    port,
    sessionCount: () => sessions.size,
    close: async () => {
      clearInterval(sweeper);
      await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
