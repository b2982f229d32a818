// Streamable HTTP serving of both protocol eras on one loopback listener: who may call and on which path, then
// 2026-07-28 requests through the SDK's per-request entry (http-modern.ts), 2025 clients in sessions
// (http-sessions.ts).
import { createHash } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuthInfo, type ServerEventBus, classifyInboundRequest } from '@modelcontextprotocol/server';
import type { LegacyPosture, ServerLimits } from '../config/index.js';
import type { Logger, McpTool } from '../contract/index.js';
import { RETRY_AFTER_S, header, sendJsonRpcError } from './http-answers.js';
import { BodyError, readJsonBody } from './http-body.js';
import { HttpDrain } from './http-drain.js';
import { type HttpGuardOptions, createHttpGuard } from './http-guard.js';
import { createModernEntry } from './http-modern.js';
import { LegacySessions } from './http-sessions.js';
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
import type { ListenStreamCap, ListenSubscriptions } from './listen.js';
import {
  type CatalogScopeGuard,
  type ScopeGuard,
  authInfoOf,
  catalogCheckOf,
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

/** The principal of an HTTP request: the bearer token's holder when one is configured, else its address. */
function principalOf(req: IncomingMessage, tokenFingerprint: string | undefined): string {
  return tokenFingerprint ?? `address:${req.socket.remoteAddress ?? 'unknown'}`;
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
  const drain = new HttpDrain();
  const modern = createModernEntry({
    createServer: options.createServer,
    bus: options.bus,
    listen: options.listen,
    listenCap: options.listenCap,
    maxRequestBytes: maxBodyBytes,
    logger: options.logger,
    ...(options.toolSchema ? { toolSchema: options.toolSchema } : {}),
    onListenStream: (res) => drain.untrack(res),
  });
  const sessions = new LegacySessions({
    limits,
    ...(options.retryIntervalMs === undefined ? {} : { retryIntervalMs: options.retryIntervalMs }),
    createServer: options.createServer,
    scopeGuarded: Boolean(options.scopeGuard),
    principalIsPerson: () => resourceServer !== undefined,
  });

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
    if (drain.draining)
      return sendJsonRpcError(
        res,
        503,
        -32000,
        'server shutting down: send the request again (another process may take it)',
      );
    if (req.method === 'POST') drain.track(res);
    const admitted = await admit(req, res);
    if (admitted === undefined) return;
    const { principal, auth } = admitted;
    (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
    const sessionId = header(req, 'mcp-session-id');
    const live = sessions.seen(sessionId, auth, resourceServer ? principal : undefined);

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
      return modern.serve(req, res, body, era.kind === 'modern');
    return sessions.serve(req, res, body, { sessionId, live, principal });
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
  sessions.startExpiry();
  // With port 0 the real port is known only now, and the Host check needs it.
  guard = createHttpGuard({ ...options, port });
  const url = `http://${localUrlHost(options.host)}:${port}${path}`;
  resourceServer = options.oauth === undefined ? undefined : createResourceServer(options.oauth, url);

  return {
    url,
    port,
    sessionCount: () => sessions.size,
    drain: () => drain.drain(),
    close: async () => {
      sessions.stopExpiry();
      // Listen streams get their graceful end (the empty listen result) before the connections go.
      await modern.close();
      await sessions.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
