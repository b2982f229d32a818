// Streamable HTTP serving of both protocol eras on one loopback listener: 2026-07-28 requests through the SDK's
// per-request entry (createMcpHandler), 2025 clients in sessions (one SDK transport and server per session).
import { createHash, randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  type ServerEventBus,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  classifyInboundRequest,
  createMcpHandler,
  isInitializeRequest,
} from '@modelcontextprotocol/server';
import type { LegacyPosture, ServerLimits } from '../config/index.js';
import type { Logger, McpTool } from '../contract/index.js';
import { DirectPosts } from './direct-posts.js';
import { createMemoryEventStore } from './event-store.js';
import { RETRY_AFTER_S, header, sendJsonRpcError } from './http-answers.js';
import { type HttpGuardOptions, createHttpGuard } from './http-guard.js';
import { nestsDeeperThan } from './json-depth.js';
import {
  HEALTH_PATH,
  METRICS_PATH,
  type OpsEndpoints,
  READY_PATH,
  serveHealth,
  serveMetrics,
  serveReady,
} from './ops-endpoints.js';
import { localUrlHost } from './listen-address.js';
import { type ListenStreamCap, type ListenSubscriptions, listenedResources } from './listen.js';
import { type HeaderParam, headerParams, paramHeaderMismatch } from './param-headers.js';
import {
  type CatalogScopeGuard,
  type ScopeGuard,
  authInfoOf,
  catalogCheckOf,
  principalFromAuthInfo,
  scopeCheckOf,
} from './request-auth.js';
import { type OAuthResourceOptions, type ResourceServer, createResourceServer } from './resource-server.js';
import { type ScopeRefusal, scopeShortfall, stepUpAnswer } from './scope-challenge.js';
import type { Binding, BoundServer } from './server-factory.js';

export interface HttpServeOptions extends Omit<HttpGuardOptions, 'port'> {
  /** 0 picks a free port. */
  port: number;
  /** Default "/mcp". */
  path?: string;
  /** Suggested SSE reconnect delay sent to legacy clients; default 1000 ms. */
  retryIntervalMs?: number;
  /** Sessions, listen streams, body size and nesting, idle expiry, HTTP timeouts. */
  limits: Omit<ServerLimits, 'maxInFlight' | 'maxInFlightPerClient' | 'maxQueuedPerClient'>;
  /** Open listen streams, shared with the stdio transport. */
  listenCap: ListenStreamCap;
  /** Default "serve". */
  legacyClients?: LegacyPosture;
  logger: Logger;
  createServer(binding: Binding): BoundServer;
  /** Where the host's change events reach modern listen streams. */
  bus: ServerEventBus;
  listen: ListenSubscriptions;
  /** OAuth access tokens ([auth]) instead of the static `authToken`: every request needs one, verified here. */
  oauth?: OAuthResourceOptions;
  /**
   * With `oauth`: the scopes each tool needs ([auth.scopes]). A tool the request's token lacks scopes for is not
   * listed to it, and a call of it is refused with 403 `insufficient_scope` naming them (the step-up challenge);
   * each request is judged by its own token, so a 2025 session steps up by sending a new one.
   * Default none: every tool is listed and callable by any valid token.
   */
  scopeGuard?: ScopeGuard;
  /**
   * With `scopeGuard`: the scopes each plugin's resources and prompts need. What the token may not read is not
   * listed to it, and a read, subscription, prompts/get or completion of it is the same 403. Default none.
   */
  catalogScopeGuard?: CatalogScopeGuard;
  /** Hears of each request refused for want of scope (the audit log), once the 403 has gone. Default none. */
  onScopeRefused?(refusal: ScopeRefusal): void;
  /** The input schema of a listed tool, for the `Mcp-Param-*` headers of its 2026-07-28 calls. */
  toolSchema?(name: string): McpTool['inputSchema'] | undefined;
  /** /healthz, /readyz and /metrics; default none (404, like any other path). */
  ops?: OpsEndpoints;
}

export interface HttpServing {
  url: string;
  port: number;
  /** Open legacy sessions. */
  sessionCount(): number;
  /**
   * Stops taking requests (each new one is a 503 with Retry-After, /readyz a 503) and resolves once every request
   * already taken has been answered. Listen streams and 2025 GET streams do not hold it: close() ends them.
   */
  drain(): Promise<void>;
  close(): Promise<void>;
}

interface LiveSession {
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

class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
    readonly id: string | number | null = null,
  ) {
    super(message);
  }
}

/**
 * The body as text, read with the stream's events: an async iterator over the request took 2% of the main thread
 * on a proxied 2025 HTTP call (a profile of the upstream bench). A body growing past `maxBytes` is refused, and the
 * rest is not kept.
 */
function readText(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // The rest flows on unread (the 413 goes out meanwhile); Node closes the connection if it keeps coming.
      req.off('data', onData);
      reject(new BodyError(413, -32600, `request body exceeds the ${maxBytes}-byte limit`));
    };
    let ended = false;
    req.on('data', onData);
    req.once('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    req.once('error', reject);
    // A client gone before its body ended. Every request closes once answered: an Error made then, only to be
    // dropped by the settled promise, cost 20 µs a call (its stack trace) in a profile of the upstream bench.
    req.once('close', () => {
      if (!ended) reject(new Error('the request closed before its body ended'));
    });
  });
}

async function readJsonBody(req: IncomingMessage, maxBytes: number, maxDepth: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes)
    throw new BodyError(413, -32600, `request body exceeds the ${maxBytes}-byte limit`);
  const text = await readText(req, maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new BodyError(400, -32700, `parse error: ${(error as Error).message}`);
  }
  if (nestsDeeperThan(body, maxDepth, text.length))
    throw new BodyError(
      400,
      -32602,
      `invalid params: the message nests objects and arrays more than ${maxDepth} levels deep (arguments and _meta included); send a flatter value`,
      idOf(body),
    );
  return body;
}

/** The id of a single request, for an error that answers it. */
function idOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The ids of the requests in a body (one message or a batch). */
function requestIds(body: unknown): Array<string | number> {
  const ids: Array<string | number> = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** The revision a legacy initialize settles on: the one asked for when served, else the latest. */
function negotiatedVersion(initialize: unknown): string {
  const asked = (initialize as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
  return typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
    ? asked
    : LATEST_PROTOCOL_VERSION;
}

/** The principal of an HTTP request: the bearer token's holder when one is configured, else its address. */
function principalOf(req: IncomingMessage, tokenFingerprint: string | undefined): string {
  return tokenFingerprint ?? `address:${req.socket.remoteAddress ?? 'unknown'}`;
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

/** The protected resource metadata (RFC 9728): public, so any origin may read it. */
function serveMetadata(req: IncomingMessage, res: ServerResponse, resourceServer: ResourceServer): void {
  res.setHeader('access-control-allow-origin', '*');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    res.writeHead(405).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(resourceServer.metadata()));
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const path = options.path ?? '/mcp';
  const { limits } = options;
  const maxBodyBytes = limits.maxRequestBytes;
  const sessions = new Map<string, LiveSession>();
  /** Sessions whose initialize is being served: they count against the cap before they have an id. */
  let opening = 0;
  let guard = createHttpGuard({ ...options, port: options.port });
  // Holders of the static token share one principal; the fingerprint names it without carrying it.
  // Resources and prompts are guarded only with the tools: [auth.scopes] is what both come from.
  const catalogGuard = options.scopeGuard ? options.catalogScopeGuard : undefined;
  const tokenFingerprint =
    options.authToken === undefined
      ? undefined
      : `token:${createHash('sha256').update(options.authToken).digest('base64url').slice(0, 16)}`;

  /** Set once the port is known: the metadata's URL names it. */
  let resourceServer: ResourceServer | undefined = undefined;

  // The drain: requests answered in full (not listen streams, which end only at close) are counted while open.
  let draining = false;
  let answering = 0;
  let drained: (() => void) | undefined;
  /** Set by the first drain(): a second one waits for the same requests. */
  let drainDone: Promise<void> | undefined;
  const answered = () => {
    answering--;
    if (draining && answering === 0) drained?.();
  };

  const modern = createMcpHandler(
    ({ era, authInfo }) =>
      options.createServer({
        era,
        connection: { transport: 'http', principal: principalFromAuthInfo(authInfo) },
      }).server,
    {
      legacy: 'reject',
      bus: options.bus,
      maxRequestBodySize: maxBodyBytes,
      onerror: (error) => options.logger.debug({ err: error.message }, 'http: request refused or failed'),
    },
  );
  const serveModern = toNodeHandler(modern, {
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => options.logger.error({ err: error.message }, 'http: request failed'),
  });

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown, principal: string) => {
    if (sessions.size + opening >= limits.maxSessions)
      return sendJsonRpcError(
        res,
        503,
        -32000,
        `too many sessions: ${limits.maxSessions} are open, the most this server keeps (server.limits.max_sessions); retry later`,
      );
    opening++;
    try {
      const bound = options.createServer({
        era: 'legacy',
        connection: {
          transport: 'http',
          principal,
          stream: `session:${randomUUID()}`,
          // Under [auth] the principal is a person (a token's subject): their sessions share their slots and rate.
          // Without it, a principal may be an address or a shared static token, behind which many agents sit.
          ...(resourceServer === undefined ? {} : { client: principal }),
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
            ...(options.scopeGuard
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
      opening--;
    }
  };

  /**
   * A POST to a live session. JSON-RPC ids name one request: a second request under an id still waiting for its
   * answer would take that answer's place in the SDK's routing, so it is refused and the first one keeps it.
   */
  const postToSession = (req: IncomingMessage, res: ServerResponse, body: unknown, live: LiveSession) => {
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
  };

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
   * A modern request. A listen stream subscribes its resources at their plugins while its response is open
   * (a refused listen closes at once, and unsubscribes as quickly).
   */
  const handleModern = async (req: IncomingMessage, res: ServerResponse, body: unknown, modern: boolean) => {
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
      // It ends only at close: the drain does not wait for it.
      answered();
      res.removeListener('close', answered);
      options.listen.opened(key, listen.uris);
      res.once('close', () => {
        options.listen.closed(key);
        options.listenCap.release();
      });
    }
    await serveModern(req, res, body);
  };

  /** The Host/Origin guard and the token, as /mcp asks them: who is calling, or undefined once refused. */
  const admit = async (req: IncomingMessage, res: ServerResponse) => {
    const verdict = guard(req.headers);
    if (!verdict.ok) {
      if (verdict.status === 401) res.setHeader('www-authenticate', 'Bearer');
      return sendJsonRpcError(res, verdict.status, -32600, verdict.message);
    }
    if (resourceServer) {
      const verified = await resourceServer.authenticate(header(req, 'authorization'));
      if (!verified.ok) {
        if (verified.challenge !== undefined) res.setHeader('www-authenticate', verified.challenge);
        if (verified.status === 503)
          options.logger.warn({ why: verified.message }, 'http: access token not checked');
        return sendJsonRpcError(res, verified.status, -32600, verified.message);
      }
      const principal = verified.principal;
      return { principal, auth: authInfoOf(principal, verified.scopes, options.scopeGuard, catalogGuard) };
    }
    const principal = principalOf(req, tokenFingerprint);
    return { principal, auth: authInfoOf(principal) };
  };

  /**
   * The operations endpoints: probes answer anyone with any Host (a balancer's health check sends its own, and
   * they carry nothing worth rebinding for); /metrics asks what /mcp asks unless it is public.
   */
  const serveOps = async (req: IncomingMessage, res: ServerResponse, pathname: string, ops: OpsEndpoints) => {
    if (pathname === HEALTH_PATH) return serveHealth(req, res);
    if (pathname === READY_PATH) return serveReady(req, res, ops, RETRY_AFTER_S);
    const metrics = ops.metrics!;
    if (!metrics.public && (await admit(req, res)) === undefined) return;
    return serveMetrics(req, res, metrics);
  };
  const isOps = (pathname: string, ops: OpsEndpoints | undefined): ops is OpsEndpoints =>
    ops !== undefined &&
    (pathname === HEALTH_PATH ||
      pathname === READY_PATH ||
      (pathname === METRICS_PATH && ops.metrics !== undefined));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (resourceServer?.metadataPaths.has(url.pathname)) return serveMetadata(req, res, resourceServer);
    if (url.pathname !== path && isOps(url.pathname, options.ops))
      return serveOps(req, res, url.pathname, options.ops);
    if (url.pathname !== path) return sendJsonRpcError(res, 404, -32601, `not found: use ${path}`);
    // A draining process takes nothing new: the balancer (told by /readyz) sends the client elsewhere.
    if (draining)
      return sendJsonRpcError(
        res,
        503,
        -32000,
        'server shutting down: send the request again (another process may take it)',
      );
    if (req.method === 'POST') {
      answering++;
      res.once('close', answered);
    }
    const admitted = await admit(req, res);
    if (admitted === undefined) return;
    const { principal, auth } = admitted;
    (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
    const sessionId = header(req, 'mcp-session-id');
    const known = sessionId === undefined ? undefined : sessions.get(sessionId);
    // Under OAuth a session is its opener's: another principal holding its id is told it does not exist. (An
    // address is no identity: a client reaching localhost over IPv4 and then IPv6 keeps its session.)
    const live = resourceServer && known?.principal !== principal ? undefined : known;
    if (live) {
      live.lastSeenMs = Date.now();
      if (options.scopeGuard) noteSessionScopes(live, auth);
    }

    const body = req.method === 'POST' ? await readJsonBody(req, maxBodyBytes, limits.maxDepth) : undefined;
    const era = classifyInboundRequest({
      httpMethod: req.method ?? 'GET',
      protocolVersionHeader: header(req, 'mcp-protocol-version'),
      mcpMethodHeader: header(req, 'mcp-method'),
      mcpNameHeader: header(req, 'mcp-name'),
      ...(body === undefined ? {} : { body }),
    });
    // Before either era's entry: a call (or a read, prompt, subscription or listen) the token lacks scopes for is
    // the HTTP 403 step-up challenge, in a 2025 session and a 2026-07-28 request alike (a JSON-RPC error inside a
    // 200 would not tell the client to re-auth).
    const check = resourceServer && body !== undefined ? scopeCheckOf(auth) : undefined;
    const shortfall = check && scopeShortfall(body, { tool: check, catalog: catalogCheckOf(auth) });
    if (resourceServer && shortfall) {
      const { challenge, message } = stepUpAnswer(resourceServer.metadataUrl, shortfall);
      res.setHeader('www-authenticate', challenge);
      sendJsonRpcError(res, 403, -32600, message, shortfall.id);
      // After the answer has gone: what a listener throws reaches the request's catch, which only logs it.
      options.onScopeRefused?.({ ...shortfall, principal, era: era.kind === 'modern' ? 'modern' : 'legacy' });
      return;
    }
    // Modern requests, the requests the SDK refuses (mismatched headers, unknown versions), and every request
    // when 2025 clients are refused: the SDK's entry answers them.
    if (era.kind !== 'legacy' || options.legacyClients === 'reject')
      return handleModern(req, res, body, era.kind === 'modern');

    if (req.method === 'POST') {
      if (live) return postToSession(req, res, body, live);
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
      return openSession(req, res, body, principal);
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
  };

  const server = createServer(
    // A client that trickles its headers or body holds a socket: it gets these long, then the socket closes.
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks those timeouts on this interval (default 30 s), so it sets how late they may fire.
      connectionsCheckingInterval: Math.max(
        250,
        Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4,
      ),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (error instanceof BodyError)
          return sendJsonRpcError(res, error.status, error.rpcCode, error.message, error.id);
        options.logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          'HTTP request failed',
        );
        sendJsonRpcError(res, 500, -32603, 'internal error');
      });
    },
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const idleMs = limits.sessionIdleS * 1000;
  const unusedIdleMs = limits.unusedSessionIdleS * 1000;
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const live of sessions.values()) {
        // An open GET stream counts as activity only when it began; idle here means no request at all.
        if (live.lastSeenMs < now - (live.used ? idleMs : unusedIdleMs)) void live.transport.close();
      }
    },
    // A tenth of the shorter expiry, so a session lives at most 10% past it.
    Math.max(1_000, Math.min(idleMs, unusedIdleMs) / 10),
  );
  sweeper.unref();
  // With port 0 the real port is known only now, and the Host check needs it.
  guard = createHttpGuard({ ...options, port });
  const url = `http://${localUrlHost(options.host)}:${port}${path}`;
  resourceServer = options.oauth === undefined ? undefined : createResourceServer(options.oauth, url);

  return {
    url,
    port,
    sessionCount: () => sessions.size,
    drain: () => {
      draining = true;
      drainDone ??= answering === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve));
      return drainDone;
    },
    close: async () => {
      clearInterval(sweeper);
      // Listen streams get their graceful end (the empty listen result) before the connections go.
      await modern.close();
      await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
