// The [server.limits] table: how much one process and one client may hold at once, so that no client can exhaust
// the server's memory, sockets or event loop, or keep the others waiting.
import { durationMs, durationS } from '../contract/index.js';
import { closedTable, intBetween } from './leaf-schemas.js';

const MIB = 1024 * 1024;

/** The defaults, documented in the README's config reference. */
export const DEFAULT_LIMITS: ServerLimits = {
  maxSessions: 1_000,
  maxListenStreams: 1_000,
  sessionIdleS: 1_800,
  unusedSessionIdleS: 60,
  maxInFlight: 64,
  maxInFlightPerClient: 16,
  maxQueuedPerClient: 256,
  maxCallsPerMinutePerClient: 0,
  maxRequestBytes: 4 * MIB,
  maxDepth: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
};

export const LimitsSchema = closedTable({
  max_sessions: intBetween(1, 100_000).default(DEFAULT_LIMITS.maxSessions),
  max_listen_streams: intBetween(1, 100_000).default(DEFAULT_LIMITS.maxListenStreams),
  session_idle_s: durationS({ min: 10, max: 86_400 }).default(DEFAULT_LIMITS.sessionIdleS),
  unused_session_idle_s: durationS({ min: 5, max: 86_400 }).default(DEFAULT_LIMITS.unusedSessionIdleS),
  max_in_flight: intBetween(1, 10_000).default(DEFAULT_LIMITS.maxInFlight),
  max_in_flight_per_client: intBetween(1, 10_000).default(DEFAULT_LIMITS.maxInFlightPerClient),
  max_queued_per_client: intBetween(0, 100_000).default(DEFAULT_LIMITS.maxQueuedPerClient),
  max_calls_per_minute_per_client: intBetween(0, 1_000_000).default(
    DEFAULT_LIMITS.maxCallsPerMinutePerClient,
  ),
  max_request_bytes: intBetween(1024, 256 * MIB).default(DEFAULT_LIMITS.maxRequestBytes),
  max_depth: intBetween(8, 1_000).default(DEFAULT_LIMITS.maxDepth),
  headers_timeout_ms: durationMs({ min: 1_000, max: 600_000 }).default(DEFAULT_LIMITS.headersTimeoutMs),
  request_timeout_ms: durationMs({ min: 1_000, max: 3_600_000 }).default(DEFAULT_LIMITS.requestTimeoutMs),
}).transform((raw): ServerLimits => ({
  maxSessions: raw.max_sessions,
  maxListenStreams: raw.max_listen_streams,
  sessionIdleS: raw.session_idle_s,
  unusedSessionIdleS: raw.unused_session_idle_s,
  maxInFlight: raw.max_in_flight,
  maxInFlightPerClient: raw.max_in_flight_per_client,
  maxQueuedPerClient: raw.max_queued_per_client,
  maxCallsPerMinutePerClient: raw.max_calls_per_minute_per_client,
  maxRequestBytes: raw.max_request_bytes,
  maxDepth: raw.max_depth,
  headersTimeoutMs: raw.headers_timeout_ms,
  requestTimeoutMs: raw.request_timeout_ms,
}));

export interface ServerLimits {
  /** Open 2025-era HTTP sessions; a new one beyond it is answered 503 with Retry-After. */
  maxSessions: number;
  /** Open `subscriptions/listen` streams of 2026-07-28 clients, over all transports; beyond it, 503 (HTTP) or an error. */
  maxListenStreams: number;
  /** A 2025-era HTTP session with no request for this long is closed. */
  sessionIdleS: number;
  /** A session that has made no request since `initialize` is closed after this long: opening sessions costs nothing. */
  unusedSessionIdleS: number;
  /** Calls (tools, resource reads, prompts, completions) running at once in the whole process. */
  maxInFlight: number;
  /** Calls running at once for one client (a stdio connection, a 2025 session, a 2026-07-28 principal). */
  maxInFlightPerClient: number;
  /**
   * Calls of one client waiting for a slot; one more is refused at once (E_SERVER_BUSY). Over stdio the server
   * stops reading stdin once this many requests are unanswered, so a pipelining client is slowed down, not refused.
   */
  maxQueuedPerClient: number;
  /**
   * Calls (tools, plugin resource reads, prompts) one client may make per minute, in a burst or spread out; one
   * more is refused with E_RATE_LIMITED naming when to retry. 0 (the default): no limit. Calls the planner runs
   * ahead do not count, nor a 2026-07-28 retry that answers the server's own question.
   */
  maxCallsPerMinutePerClient: number;
  /** Largest JSON-RPC message: an HTTP body or a stdio line. */
  maxRequestBytes: number;
  /** Deepest nesting of objects and arrays in one message (arguments and `_meta` included). */
  maxDepth: number;
  /** The HTTP server waits this long for a request's headers. */
  headersTimeoutMs: number;
  /** The HTTP server waits this long for a whole request (headers and body); responses may stream longer. */
  requestTimeoutMs: number;
}
