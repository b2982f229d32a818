// What createHost takes and what the host it returns offers: the composition root's public surface as types.
import type { ServerEventBus, Transport } from '@modelcontextprotocol/server';
import type {
  AuditConfig,
  ForesightConfig,
  OpsSettings,
  PlannerConfig,
  ServerLimits,
  TaskSettings,
  ToolScopeRule,
} from '../config/index.js';
import type { Logger, Plugin, SharedRateLimits, ToolEnricher } from '../contract/index.js';
import type { RuleReport, ToolPipeline } from '../enrich/index.js';
import type { MountSpec, PluginHost, SharedPluginStates } from '../host/index.js';
import type { HostMetrics, ReadinessCheck } from '../ops/index.js';
import type { Planner, SharedLearning, SharedSlots, SharedSpeculation } from '../planner/index.js';
import type {
  Binding,
  BoundServer,
  HttpServing,
  OAuthResourceOptions,
  StdioServing,
} from '../protocol/index.js';

export interface CreateHostOptions {
  /** Mounts every enabled [plugins.*] entry, in file order. */
  config?: ForesightConfig;
  /** Further plugins, mounted after the config's. */
  plugins?: readonly (Plugin | MountSpec)[];
  /**
   * Enrichers for every plugin's tools. They run after each plugin's own enrichers and before the
   * format layer and the config's [[enrich]] rules, in this order.
   */
  enrichers?: readonly ToolEnricher[];
  /** Default: pino JSON on stderr at the config's log level. */
  logger?: Logger;
  /** Adds stack traces to error messages sent to clients. Default false. */
  debug?: boolean;
  /** Planner settings over the config's [planner] table (e.g. `{ enabled: false }`). */
  planner?: Partial<PlannerConfig>;
  /**
   * Where change events reach the listen streams of 2026-07-28 HTTP clients. Default an in-process bus; give
   * one over a broker so that several processes behind one address tell every client.
   */
  bus?: ServerEventBus;
  /**
   * The key (at least 32 bytes) that signs requestState. Default the config's `request_state_key_env`, else a
   * random key of this process.
   */
  requestStateKey?: string | Uint8Array;
  /**
   * Task settings over the config's `[server]` task keys (e.g. `{ afterMs: 0 }`); `now` is the clock tasks expire
   * by (default `Date.now`).
   */
  tasks?: Partial<TaskSettings> & { now?: () => number };
  /** Limits over the config's `[server.limits]` (e.g. `{ maxSessions: 10 }`). */
  limits?: Partial<ServerLimits>;
  /**
   * Logs, once the plugins have settled and again whenever the tools change, each tool rule, glob or parameter
   * name of the config that matches nothing (an error naming file and line). Default true.
   */
  logRuleProblems?: boolean;
  /**
   * Audit settings over the config's `[audit]` table (e.g. `{ enabled: true, file: '/var/log/foresight.audit' }`):
   * one JSON line per tool call answered and per call the planner ran ahead. Default off.
   */
  audit?: Partial<AuditConfig>;
  /** Metrics and drain settings over the config's `[server]` keys (e.g. `{ metricsPublic: true }`). */
  ops?: Partial<OpsSettings>;
  /**
   * Further conditions of `/readyz` besides every plugin started (e.g. the cluster's Redis reachable). A check
   * that throws or takes over 2 s counts as failing; its `detail` is shown to anyone who asks, so it never names
   * a secret (configured secrets are redacted from it anyway). Default none.
   */
  readiness?: readonly ReadinessCheck[];
  /**
   * What this process shares with the other processes of a cluster (`joinCluster(...).shared`). Default nothing:
   * a single process keeps everything in memory.
   */
  shared?: SharedServices;
}

/** The parts of a cluster member's state kept in common with the other members; each absent part stays local. */
export interface SharedServices {
  /** Results run ahead, in-flight claims and invalidations (the planner's cache across processes). */
  speculation?: SharedSpeculation;
  /** Each plugin instance's `PluginContext.sharedState` (trackers' metadata loaded by one process, read by all). */
  pluginState?: SharedPluginStates;
  /** Follow-up counts each process learns, added up for all and read back (the planner's learning across processes). */
  learning?: SharedLearning;
  /** Rate budgets: the per-host cap on calls run ahead, and the rate limits providers learn (`ctx.rateLimits`). */
  budgets?: SharedBudgets;
}

/** The budgets N processes spend as one; each absent part is counted by each process alone. */
export interface SharedBudgets {
  slots?: SharedSlots;
  rateLimits?: SharedRateLimits;
}

export interface HttpOptions {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  path?: string;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  authToken?: string;
  /**
   * OAuth access tokens instead of `authToken` (not both): JWTs from `issuer` for `audience`, verified against the
   * issuer's keys; the token's subject becomes the principal. The protected resource metadata is served too.
   */
  oauth?: OAuthOptions;
  /**
   * Serve an address beyond loopback (0.0.0.0, a LAN address) without `authToken` or `oauth`; default false: serveHttp
   * refuses, since anyone who reaches the port could call every tool. When true, a warning is logged.
   */
  allowUnauthenticated?: boolean;
}

/** `[auth]` as serveHttp takes it: the resource server's settings, and the scopes tools need. */
export interface OAuthOptions extends OAuthResourceOptions {
  /**
   * `[auth.scopes]`: a tool the token lacks scopes for is not listed to it, and its calls get 403
   * `insufficient_scope`. Each glob must match a listed tool once plugins have settled, or serveHttp refuses.
   * Default none: any valid token sees and calls every tool.
   */
  toolScopes?: readonly ToolScopeRule[];
}

export interface ForesightHost {
  readonly plugins: PluginHost;
  /** Tools as clients see them: enriched list, calls mapped and validated. `refresh()` after new metadata. */
  readonly tools: ToolPipeline;
  /** Runs likely follow-up calls ahead and answers from their results; its counters are `foresight://planner/stats`. */
  readonly planner: Planner;
  /**
   * What each tool rule of the config (`tools.allow` / `tools.deny`, `[[enrich]]`) matched, and each rule, glob or
   * parameter name that matches nothing. Start the host (and let background plugins settle) first.
   */
  checkRules(): RuleReport;
  readonly logger: Logger;
  /** Builds and starts every plugin; idempotent. */
  start(): Promise<void>;
  /**
   * An SDK Server for one connection of the given era (default: a 2025 client in memory), bound to this host;
   * call `dispose()` when its transport closes. Start the host first.
   */
  createServer(binding?: Partial<Binding>): BoundServer;
  /** Starts the host if needed and serves one 2025-era connection over the given transport (e.g. in memory). */
  connect(transport: Transport): Promise<BoundServer>;
  /** Serves both eras on the process's stdin and stdout (or the given streams). */
  serveStdio(io?: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream }): Promise<StdioServing>;
  serveHttp(options: HttpOptions): Promise<HttpServing>;
  /** Prometheus metrics (what /metrics serves); absent when `metrics` is off. */
  readonly metrics: HostMetrics | undefined;
  /**
   * The graceful stop: /readyz turns 503, HTTP refuses new requests with 503 and stdio reads no more, then the calls
   * already taken finish, up to `drainTimeoutS` (default the config's `drain_timeout_s`). Resolves true when all did;
   * at the deadline, the calls still running are ended (their clients get a shutting-down error; plugins begin to
   * shut down) and it resolves false, at most a second later. `close()` after it ends whatever is left.
   */
  drain(drainTimeoutS?: number): Promise<boolean>;
  /** Closes every transport, then shuts plugins down in reverse mount order. */
  close(): Promise<void>;
}
