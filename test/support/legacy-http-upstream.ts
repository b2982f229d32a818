// A 2025-only MCP server over Streamable HTTP on loopback, in process: one SDK v2 Server and Node transport per
// session, routed by Mcp-Session-Id, as the spec's stateful servers work. `forget()` drops every session, as a
// restarted server would: the next request under an old session is answered 404, which the spec says means
// "initialise again". Its tools: `echo` answers the text it was given; `crash` answers the tools/call with a
// JSON-RPC error (InternalError), a protocol-level failure rather than a tool result with isError.
import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type Tool,
  isInitializeRequest,
} from '@modelcontextprotocol/server';

/** What `crash` says in its JSON-RPC error. */
export const CRASH_MESSAGE = 'the worker running the job crashed';

const TOOLS: Tool[] = [
  {
    name: 'echo',
    description: 'Answers the text it was given',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  { name: 'crash', description: 'Answers with a JSON-RPC error', inputSchema: { type: 'object' } },
];

export interface LegacyHttpUpstream {
  url: string;
  /** Sessions opened so far (each initialize opens one). */
  sessionsOpened(): number;
  /** The headers of every request received, in order. */
  readonly headersSeen: readonly IncomingHttpHeaders[];
  /** Forgets every session, as a restart would; their transports stay open until close(). */
  forget(): void;
  close(): Promise<void>;
}

function buildServer(): Server {
  const server = new Server(
    { name: 'legacy-http-fixture', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: TOOLS }));
  server.setRequestHandler('tools/call', async (request) => {
    if (request.params.name === 'crash')
      throw new ProtocolError(ProtocolErrorCode.InternalError, CRASH_MESSAGE);
    const text = request.params.arguments?.text;
    return { content: [{ type: 'text', text: `echo: ${typeof text === 'string' ? text : ''}` }] };
  });
  return server;
}

function reply(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function serveLegacyHttp(): Promise<LegacyHttpUpstream> {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  // Every transport ever opened, forgotten or not: close() ends them all (an agent's GET stream among them).
  const opened: NodeStreamableHTTPServerTransport[] = [];
  const headersSeen: IncomingHttpHeaders[] = [];

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    opened.push(transport);
    await buildServer().connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    headersSeen.push({ ...req.headers });
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (session) return session.handleRequest(req, res, body);
    if (sessionId !== undefined) return reply(res, 404, 'session not found');
    if (req.method === 'POST' && isInitializeRequest(body)) return openSession(req, res, body);
    // Not a 2025 initialize: this server knows no other revision (a 2026-07-28 probe is refused too).
    return reply(res, 400, 'no session: the first request must be initialize');
  };

  const listener = createServer((req, res) => {
    handle(req, res).catch(() => reply(res, 500, 'internal error'));
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessionsOpened: () => opened.length,
    headersSeen,
    forget: () => sessions.clear(),
    close: async () => {
      await Promise.allSettled(opened.map((transport) => transport.close()));
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
