// The 2025 era on the HTTP listener: sessions (one SDK transport and server each) opened by initialize, posted to
// under their Mcp-Session-Id, streamed from and ended by GET and DELETE, and expired when idle.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  isInitializeRequest,
} from '@modelcontextprotocol/server';
import type { ServerLimits } from '../config/index.js';
import { DirectPosts } from './direct-posts.js';
import { createMemoryEventStore } from './event-store.js';
import { sendJsonRpcError } from './http-answers.js';
import { requestIds } from './http-body.js';
import { catalogCheckOf } from './request-auth.js';
import type { Binding, BoundServer } from './server-factory.js';

export interface LegacySessionsOptions {
  /** How many sessions may be open, and how long an idle one lives. */
  limits: Pick<ServerLimits, 'maxSessions' | 'sessionIdleS' | 'unusedSessionIdleS'>;
  /** Suggested SSE reconnect delay sent to legacy clients; default 1000 ms. */
  retryIntervalMs?: number;
  createServer(binding: Binding): BoundServer;
  /** Under [auth.scopes]: each session notes its token's scopes, and a change of them changes its lists. */
  scopeGuarded: boolean;
  /** Under [auth]: a principal is a person, whose sessions share their slots and rate. Read when a session opens. */
  principalIsPerson(): boolean;
}

/** An open 2025 session. */
export interface LiveSession {
  transport: NodeStreamableHTTPServerTransport;
  /** The session's requests answered on their own responses (see DirectPosts). */
  direct: DirectPosts;
  bound: BoundServer;
  lastSeenMs: number;
  /** False until the session sends a request after initialize: such a session expires sooner. */
  used: boolean;
  /** The revision agreed at initialize, which decides whether a batch is allowed. */
  protocolVersion: string;
  /** Ids of the session's requests still waiting for their answers. */
  inFlight: Set<string | number>;
  /** Who opened the session: only they may use it. */
  principal: string;
  /** Under [auth.scopes], the scopes of the token last seen on the session (sorted, space-separated). */
  scopes?: string;
}

/** The one revision whose clients may send JSON-RPC batches: 2025-06-18 removed them again. */
const BATCHING_REVISION = '2025-03-26';

/** The revision a legacy initialize settles on: the one asked for when served, else the latest. */
function negotiatedVersion(initialize: unknown): string {
  const asked = (initialize as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
  return typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
    ? asked
    : LATEST_PROTOCOL_VERSION;
}

/** The scopes of a request's token, as one comparable string. */
function scopeKey(auth: AuthInfo | undefined): string {
  return [...(auth?.scopes ?? [])].sort().join(' ');
}

/**
 * A session is judged by each request's own token, so a new token with other scopes (a step-up) changes the tools
 * it is listed (and, when they are guarded too, the resources and prompts): its client is told, as for any change
 * of the lists. A token with fewer scopes also ends the subscriptions it may not read, whose updates would
 * otherwise keep coming.
 */
function noteSessionScopes(live: LiveSession, auth: AuthInfo): void {
  const scopes = scopeKey(auth);
  if (live.scopes !== undefined && live.scopes !== scopes) {
    const { server } = live.bound;
    server.sendToolListChanged().catch(() => {});
    const catalogs = catalogCheckOf(auth);
    if (catalogs) {
      server.sendResourceListChanged().catch(() => {});
      server.sendPromptListChanged().catch(() => {});
      live.bound.dropSubscriptions((uri) => catalogs.resource(uri).missing.length === 0);
    }
  }
  live.scopes = scopes;
}

export class LegacySessions {
  readonly #sessions = new Map<string, LiveSession>();
  /** Sessions whose initialize is being served: they count against the cap before they have an id. */
  #opening = 0;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: LegacySessionsOptions) {}

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * The session a request names, seen now. With `owner` (under OAuth) a session is its opener's: another principal
   * holding its id is told it does not exist. (An address is no identity: a client reaching localhost over IPv4
   * and then IPv6 keeps its session.)
   */
  seen(sessionId: string | undefined, auth: AuthInfo, owner: string | undefined): LiveSession | undefined {
    const known = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    const live = owner !== undefined && known?.principal !== owner ? undefined : known;
    if (live) {
      live.lastSeenMs = Date.now();
      if (this.options.scopeGuarded) noteSessionScopes(live, auth);
    }
    return live;
  }

  /** A 2025 request: an initialize opens a session, anything else goes to the live session it names. */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    request: { sessionId: string | undefined; live: LiveSession | undefined; principal: string },
  ): Promise<void> {
    const { sessionId, live } = request;
    if (req.method === 'POST') {
      if (live) return this.post(req, res, body, live);
      if (sessionId !== undefined)
        return sendJsonRpcError(res, 404, -32001, 'session not found; initialize again');
      if (!isInitializeRequest(body)) {
        return sendJsonRpcError(
          res,
          400,
          -32600,
          'no session: a 2025 client starts with initialize; a 2026-07-28 request carries _meta["io.modelcontextprotocol/protocolVersion"] and the MCP-Protocol-Version header',
        );
      }
      return this.open(req, res, body, request.principal);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!live) {
        return sessionId === undefined
          ? sendJsonRpcError(res, 400, -32600, 'missing Mcp-Session-Id header')
          : sendJsonRpcError(res, 404, -32001, 'session not found');
      }
      if (req.method === 'GET' && (await live.direct.resume(req, res))) return;
      return live.transport.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return sendJsonRpcError(res, 405, -32600, `method ${req.method ?? ''} not allowed`);
  }

  /** Closes the sessions idle past their expiry from now on (a used one after sessionIdleS, else sooner). */
  startExpiry(): void {
    const idleMs = this.options.limits.sessionIdleS * 1000;
    const unusedIdleMs = this.options.limits.unusedSessionIdleS * 1000;
    this.#sweeper = setInterval(
      () => {
        const now = Date.now();
        for (const live of this.#sessions.values()) {
          // An open GET stream counts as activity only when it began; idle here means no request at all.
          if (live.lastSeenMs < now - (live.used ? idleMs : unusedIdleMs)) void live.transport.close();
        }
      },
      // A tenth of the shorter expiry, so a session lives at most 10% past it.
      Math.max(1_000, Math.min(idleMs, unusedIdleMs) / 10),
    );
    this.#sweeper.unref();
  }

  stopExpiry(): void {
    clearInterval(this.#sweeper);
  }

  /** Closes every session. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#sessions.values()].map((s) => s.transport.close()));
    this.#sessions.clear();
  }

  private async open(req: IncomingMessage, res: ServerResponse, body: unknown, principal: string) {
    const { options } = this;
    const sessions = this.#sessions;
    const { maxSessions } = options.limits;
    if (sessions.size + this.#opening >= maxSessions)
      return sendJsonRpcError(
        res,
        503,
        -32000,
        `too many sessions: ${maxSessions} are open, the most this server keeps (server.limits.max_sessions); retry later`,
      );
    this.#opening++;
    try {
      const bound = options.createServer({
        era: 'legacy',
        connection: {
          transport: 'http',
          principal,
          stream: `session:${randomUUID()}`,
          // Under [auth] the principal is a person (a token's subject): their sessions share their slots and rate.
          // Without it, a principal may be an address or a shared static token, behind which many agents sit.
          ...(options.principalIsPerson() ? { client: principal } : {}),
        },
      });
      const eventStore = createMemoryEventStore();
      const retryIntervalMs = options.retryIntervalMs ?? 1_000;
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore,
        retryInterval: retryIntervalMs,
        onsessioninitialized: (id) => {
          sessions.set(id, {
            transport,
            direct,
            bound,
            lastSeenMs: Date.now(),
            used: false,
            protocolVersion: negotiatedVersion(body),
            inFlight: new Set(),
            principal,
            ...(options.scopeGuarded
              ? { scopes: scopeKey((req as IncomingMessage & { auth?: AuthInfo }).auth) }
              : {}),
          });
        },
      });
      // Before the server connects, so that its own wrappers of the transport's send come first.
      const direct = new DirectPosts(transport, { eventStore, retryIntervalMs });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        direct.close();
        bound.dispose();
      };
      await bound.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      this.#opening--;
    }
  }

  /**
   * A POST to a live session. JSON-RPC ids name one request: a second request under an id still waiting for its
   * answer would take that answer's place in the SDK's routing, so it is refused and the first one keeps it.
   */
  private post(req: IncomingMessage, res: ServerResponse, body: unknown, live: LiveSession) {
    if (Array.isArray(body) && live.protocolVersion !== BATCHING_REVISION)
      return sendJsonRpcError(
        res,
        400,
        -32600,
        `invalid request: JSON-RPC batches are not part of protocol revision ${live.protocolVersion} (only ${BATCHING_REVISION} had them); send one message per request`,
      );
    const ids = requestIds(body);
    // A request whose stream closed for polling is still waiting: its id stays taken until it is answered.
    const reused = ids.find((id) => live.inFlight.has(id) || live.direct.waiting(id));
    if (reused !== undefined || new Set(ids).size !== ids.length) {
      const id = reused ?? ids.find((candidate, at) => ids.indexOf(candidate) !== at)!;
      return sendJsonRpcError(
        res,
        409,
        -32600,
        `invalid request: id ${JSON.stringify(id)} is still in use by a request in flight on this session; use a new id`,
        id,
      );
    }
    if (ids.length > 0) {
      live.used = true;
      for (const id of ids) live.inFlight.add(id);
      res.once('close', () => {
        for (const id of ids) live.inFlight.delete(id);
      });
    }
    const request = DirectPosts.requestOf(req, body);
    if (request)
      return live.direct.post(req, res, request, (req as IncomingMessage & { auth?: AuthInfo }).auth);
    return live.transport.handleRequest(req, res, body);
  }
}
