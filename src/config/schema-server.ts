// The [server] table: transport, HTTP listen address, DNS-rebinding allow-lists, bearer token variable, log level,
// the stateless era's requestState and tasks.
import * as z from 'zod';
import { durationMs, durationS } from '../contract/index.js';
import {
  booleanValue,
  closedTable,
  intBetween,
  listOf,
  matching,
  nonEmptyString,
  oneOf,
} from './leaf-schemas.js';
import { LimitsSchema, type ServerLimits } from './schema-limits.js';

export const TRANSPORTS = ['stdio', 'http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LEGACY_POSTURES = ['serve', 'reject'] as const;
export type LegacyPosture = (typeof LEGACY_POSTURES)[number];

export const DEFAULT_REQUEST_STATE_TTL_S = 300;

/** Tasks (the io.modelcontextprotocol/tasks extension): when a call becomes one, and how long it is kept. */
export const DEFAULT_TASK_AFTER_MS = 1_000;
export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_MAX_TASKS = 1_000;

/** How long a SIGTERM waits for calls in flight before the process exits anyway. */
export const DEFAULT_DRAIN_TIMEOUT_S = 10;
/** A drain longer than this would outlive any orchestrator's kill grace period (Kubernetes: 30 s by default). */
export const MAX_DRAIN_TIMEOUT_S = 3_600;

export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3000;

export interface HttpAddress {
  host: string;
  /** 0 lets the system pick a free port. */
  port: number;
}

/** An environment variable name, as `*_env` keys give them. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const HOST_PORT = /^(?:(\[[0-9A-Fa-f:.]+\]|[^\s:[\]/]+)?:)?(\d{1,5})$/;
const HTTP_EXAMPLE = 'a "[host:]port" string such as "127.0.0.1:3000" or "3000"';

/** Parses `[host:]port` (IPv6 hosts in brackets); undefined when the text is not one. */
export function parseHttpAddress(text: string): HttpAddress | undefined {
  const match = HOST_PORT.exec(text.trim());
  if (!match?.[2]) return undefined;
  const port = Number(match[2]);
  if (port > 65_535) return undefined;
  const host = match[1]?.replace(/^\[(.*)\]$/, '$1') || DEFAULT_HTTP_HOST;
  return { host, port };
}

const HttpAddressSchema = z.string({ error: `expected ${HTTP_EXAMPLE}` }).transform((text, ctx) => {
  const address = parseHttpAddress(text);
  if (address) return address;
  ctx.issues.push({
    code: 'custom',
    input: text,
    message: `expected ${HTTP_EXAMPLE}, got ${JSON.stringify(text)}`,
  });
  return z.NEVER;
});

const ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\s]+$/;

export const ServerConfigSchema = closedTable({
  transport: oneOf(TRANSPORTS).default('stdio'),
  http: HttpAddressSchema.optional(),
  allowed_hosts: listOf(nonEmptyString('a host name'), 'an array of host names').default([]),
  allowed_origins: listOf(
    matching(ORIGIN, 'an origin such as "http://localhost:3000"'),
    'an array of origins such as "http://localhost:3000"',
  ).default([]),
  auth_token_env: matching(
    ENV_NAME_PATTERN,
    'an environment variable name such as "FORESIGHT_TOKEN"',
  ).optional(),
  allow_unauthenticated: booleanValue().default(false),
  log_level: oneOf(LOG_LEVELS).default('info'),
  legacy_clients: oneOf(LEGACY_POSTURES).default('serve'),
  request_state_key_env: matching(
    ENV_NAME_PATTERN,
    'an environment variable name such as "FORESIGHT_STATE_KEY"',
  ).optional(),
  request_state_ttl_s: durationS({ min: 1, max: 86_400 }).default(DEFAULT_REQUEST_STATE_TTL_S),
  task_after_ms: durationMs({ max: 60_000 }).default(DEFAULT_TASK_AFTER_MS),
  task_ttl_ms: durationMs({ min: 1_000, max: 86_400_000 }).default(DEFAULT_TASK_TTL_MS),
  task_poll_interval_ms: durationMs({ min: 100, max: 60_000 }).default(DEFAULT_TASK_POLL_INTERVAL_MS),
  max_tasks: intBetween(1, 100_000).default(DEFAULT_MAX_TASKS),
  metrics: booleanValue().default(false),
  metrics_public: booleanValue().default(false),
  drain_timeout_s: durationS({ max: MAX_DRAIN_TIMEOUT_S }).default(DEFAULT_DRAIN_TIMEOUT_S),
  limits: LimitsSchema.prefault({}),
}).transform((raw): ServerConfig => ({
  transport: raw.transport,
  http: raw.http ?? { host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT },
  allowedHosts: raw.allowed_hosts,
  allowedOrigins: raw.allowed_origins,
  ...(raw.auth_token_env === undefined ? {} : { authTokenEnv: raw.auth_token_env }),
  allowUnauthenticated: raw.allow_unauthenticated,
  logLevel: raw.log_level,
  legacyClients: raw.legacy_clients,
  ...(raw.request_state_key_env === undefined ? {} : { requestStateKeyEnv: raw.request_state_key_env }),
  requestStateTtlS: raw.request_state_ttl_s,
  tasks: {
    afterMs: raw.task_after_ms,
    ttlMs: raw.task_ttl_ms,
    pollIntervalMs: raw.task_poll_interval_ms,
    maxTasks: raw.max_tasks,
  },
  ops: { metrics: raw.metrics, metricsPublic: raw.metrics_public, drainTimeoutS: raw.drain_timeout_s },
  limits: raw.limits,
}));

export interface ServerConfig {
  /** Default "stdio". */
  transport: Transport;
  /** Where the HTTP transport listens; default 127.0.0.1:3000. */
  http: HttpAddress;
  /** Host header values accepted besides the listen address and localhost; default none. */
  allowedHosts: string[];
  /** Origin header values accepted besides the local ones; default none. */
  allowedOrigins: string[];
  /** Environment variable holding the bearer token HTTP clients must send; default none (no auth). */
  authTokenEnv?: string;
  /**
   * Serve HTTP on an address beyond loopback (0.0.0.0, a LAN address) with no authentication, which anyone who can
   * reach the port may then use; default false: such a listener refuses to start (a warning is logged when true).
   */
  allowUnauthenticated: boolean;
  /** pino level; default "info". */
  logLevel: LogLevel;
  /** Clients of the 2025 revisions (initialize, sessions): served (default) or refused with the supported versions. */
  legacyClients: LegacyPosture;
  /**
   * Environment variable holding the key (at least 32 bytes) that signs requestState; processes that share it
   * complete each other's multi round-trip requests. Default none: a random key per process.
   */
  requestStateKeyEnv?: string;
  /** How long an issued requestState is accepted; default 300 s. */
  requestStateTtlS: number;
  /** Tasks for 2026-07-28 clients that declare the io.modelcontextprotocol/tasks extension. */
  tasks: TaskSettings;
  /** Operations: `/metrics`, and the drain on SIGTERM. */
  ops: OpsSettings;
  /** [server.limits]: caps on sessions, streams, calls in flight and request size. */
  limits: ServerLimits;
}

export interface OpsSettings {
  /**
   * `metrics`: Prometheus metrics at GET /metrics on the HTTP server; default false: counting each call costs a
   * 2025 session's sequential calls about 1.2 ms each (docs/benchmarks.md), so it is asked for, not paid by all.
   */
  metrics: boolean;
  /**
   * `metrics_public`: /metrics without the token (and Host check) /mcp needs, for a scraper that holds none;
   * default false: /metrics asks for what /mcp asks for.
   */
  metricsPublic: boolean;
  /** `drain_timeout_s`: how long SIGTERM lets calls in flight finish before the process exits; default 10 s. */
  drainTimeoutS: number;
}

export const DEFAULT_OPS: OpsSettings = {
  metrics: false,
  metricsPublic: false,
  drainTimeoutS: DEFAULT_DRAIN_TIMEOUT_S,
};

export interface TaskSettings {
  /**
   * How long a call of a task-capable tool runs before it becomes a task (default 1000 ms; 0: at once). A call
   * that finishes, or asks for input, within it answers its request directly.
   */
  afterMs: number;
  /** How long a task is kept after it starts, whatever its state (default 1 hour). */
  ttlMs: number;
  /** The polling interval suggested to clients (default 1000 ms). */
  pollIntervalMs: number;
  /** Tasks kept at once; when all are running, a new call answers directly instead (default 1000). */
  maxTasks: number;
}
