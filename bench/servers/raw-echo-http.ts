// Side A over Streamable HTTP: the raw echo server wired as Foresight wires its listener (src/protocol/http.ts),
// so that the comparison is the host, not the wiring: 2026-07-28 requests go to the SDK's per-request entry
// (createMcpHandler, legacy refused there, through toNodeHandler), 2025 clients get sessions (one SDK Node
// transport and one server per session, routed by Mcp-Session-Id, resumable with Last-Event-ID through the same
// event store Foresight gives its sessions, and each session's requests answered on their own responses as
// Foresight answers them: src/protocol/direct-posts.ts). Prints its URL on stderr.
// Usage: node raw-echo-http.js <count> <prefix>...
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { classifyInboundRequest, createMcpHandler, isInitializeRequest } from '@modelcontextprotocol/server';
import { DirectPosts } from '../../src/protocol/direct-posts.js';
import { createMemoryEventStore } from '../../src/protocol/event-store.js';
import { echoServerFactory } from './raw-echo-server.js';

const PATH = '/mcp';

const buildServer = echoServerFactory('raw-echo-http', process.argv.slice(2));
const modern = createMcpHandler(() => buildServer(), { legacy: 'reject' });
const serveModern = toNodeHandler(modern);
interface Session {
  transport: NodeStreamableHTTPServerTransport;
  direct: DirectPosts;
}
const sessions = new Map<string, Session>();

function reply(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: null }));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body as JSON; the era is read from it, so it is parsed once here and handed to the SDK parsed. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const server = buildServer();
  // The store a 2025 session's streams are resumed from, as Foresight gives each of its sessions one.
  const eventStore = createMemoryEventStore();
  const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore,
    retryInterval: 1_000,
    onsessioninitialized: (id) => {
      sessions.set(id, { transport, direct });
    },
  });
  // Before the server connects, as Foresight installs it.
  const direct = new DirectPosts(transport, { eventStore, retryIntervalMs: 1_000 });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
    direct.close();
  };
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (new URL(req.url ?? '/', 'http://localhost').pathname !== PATH) return reply(res, 404, 'not found');
  const sessionId = header(req, 'mcp-session-id');
  const session = sessionId === undefined ? undefined : sessions.get(sessionId);
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  const era = classifyInboundRequest({
    httpMethod: req.method ?? 'GET',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    ...(body === undefined ? {} : { body }),
  });
  // Everything that is not 2025 traffic (the SDK's entry also answers the requests it refuses).
  if (era.kind !== 'legacy') return serveModern(req, res, body);
  if (session) {
    const request = req.method === 'POST' ? DirectPosts.requestOf(req, body) : undefined;
    if (request) return session.direct.post(req, res, request, undefined);
    if (req.method === 'GET' && (await session.direct.resume(req, res))) return;
    return session.transport.handleRequest(req, res, body);
  }
  if (sessionId !== undefined) return reply(res, 404, 'session not found');
  if (req.method === 'POST' && isInitializeRequest(body)) return openSession(req, res, body);
  return reply(res, 400, 'no session: the first request must be initialize');
}

const listener = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    process.stderr.write(`raw-echo-http: ${error instanceof Error ? error.message : String(error)}\n`);
    reply(res, 500, 'internal error');
  });
});
listener.listen(0, '127.0.0.1', () => {
  const { port } = listener.address() as AddressInfo;
  process.stderr.write(`raw-echo-http: serving Streamable HTTP on http://127.0.0.1:${port}${PATH}\n`);
});

// The bench ends the server with SIGTERM; exiting normally writes a --cpu-prof profile.
process.once('SIGTERM', () => {
  void Promise.allSettled([modern.close(), ...[...sessions.values()].map((s) => s.transport.close())]).then(
    () => {
      listener.closeAllConnections();
      listener.close(() => process.exit(0));
    },
  );
});
