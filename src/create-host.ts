// Composition root: turns a config (or plugin objects) into a running host that serves any SDK transport.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { InMemoryServerEventBus, type ServerEventBus, type Transport } from '@modelcontextprotocol/server';
import {
  type AuditRecord,
  type CallObserver,
  AuditLog,
  auditedTools,
  prefetchRecord,
  scopeRefusalRecord,
} from './audit/index.js';
import {
  type AuditConfig,
  type ForesightConfig,
  type OpsSettings,
  type PlannerConfig,
  type PluginEntry,
  type ServerLimits,
  type TaskSettings,
  type ToolScopeRule,
  DEFAULT_LIMITS,
  DEFAULT_OPS,
  EMBEDDED_DEFAULT,
  defaultConfig,
  entryProblem,
  nearestPathHint,
  redactSecrets,
  registerBasicCredential,
  registerSecret,
  redactSecretsIn,
  redactSecretsInListing,
  resolveRequestStateKey,
  unknownKindProblem,
  validatePluginOptions,
} from './config/index.js';
import {
  errors,
  type Logger,
  type Plugin,
  type SharedRateLimits,
  type ToolEnricher,
} from './contract/index.js';
import {
  type RuleReport,
  ToolPipeline,
  createArgumentValidator,
  createConfigRules,
  createRuleLog,
} from './enrich/index.js';
import { createFormatEnricher } from './format/index.js';
import { type HostMetrics, type ReadinessCheck, createHostOps } from './ops/index.js';
import { type MountSpec, type SharedPluginStates, PluginHost, createLogger } from './host/index.js';
import {
  PLANNER_STATS_URI,
  Planner,
  type PlannerLearning,
  type SharedLearning,
  type SharedSlots,
  type SharedSpeculation,
  attachLearning,
} from './planner/index.js';
import { BUILTIN_KINDS, BUILTIN_PLUGINS } from './plugins/index.js';
import {
  AgentStreams,
  type Binding,
  type BoundServer,
  type BuiltinResource,
  type CacheHints,
  type HttpServing,
  type ServerFactoryOptions,
  InputRounds,
  LOCAL_PRINCIPAL,
  ListenSubscriptions,
  PRIVATE_UNCACHED,
  ListenStreamCap,
  RequestAdmission,
  CallRateLimiter,
  RequestStateSeal,
  type StdioServing,
  type StreamOrigin,
  TaskStore,
  checkExposure,
  combinedHints,
  createBoundServer,
  publishHostEvents,
  serveHttp,
  serveStdio,
  taskSupportOf,
  type OAuthResourceOptions,
  basicCredentialParts,
} from './protocol/index.js';
import { createCatalogScopeGuard, resolveToolScopes, scopesNamed } from './tool-scopes.js';
import { FORESIGHT_VERSION } from './version.js';

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

/** What the resource server takes: unless the config lists them, the metadata names every scope tools need. */
function resourceOptions({ toolScopes, ...oauth }: OAuthOptions): OAuthResourceOptions {
  if (!toolScopes?.length || oauth.scopesSupported !== undefined) return oauth;
  return { ...oauth, scopesSupported: scopesNamed(toolScopes) };
}

/**
 * The audit log and the metrics, each told of every call that ends; undefined when neither is on. The metrics hear
 * only once they count (an HTTP listener serves them), and `observing()` says whether anyone listens now.
 */
function callObserver(
  audit: AuditLog | undefined,
  metrics: HostMetrics | undefined,
): (CallObserver & { observing(): boolean }) | undefined {
  if (!audit && !metrics) return undefined;
  return {
    write(record: AuditRecord) {
      audit?.write(record);
      if (metrics?.counting) metrics.observeCall(record);
    },
    observing: () => audit !== undefined || metrics?.counting === true,
  };
}

function isPluginObject(value: Plugin | MountSpec): value is Plugin {
  return typeof (value as Plugin).build === 'function';
}

/**
 * A path a plugin's table names must exist before the plugin is built, so the mistake is reported at its line
 * with the nearest name that does exist, not as the plugin's failure.
 */
async function expectPath(
  entry: PluginEntry,
  key: string,
  resolved: string,
  kind: 'file' | 'directory',
): Promise<void> {
  const found = await stat(resolved).catch(() => undefined);
  if (found && (kind === 'file' ? found.isFile() : found.isDirectory())) return;
  const relativePath = relative(entry.baseDir, resolved);
  const written =
    typeof entry.options[key] === 'string'
      ? entry.options[key]
      : relativePath.startsWith('..')
        ? resolved
        : `./${relativePath}`;
  const what = found ? `is not a ${kind}` : 'does not exist';
  throw entryProblem(
    entry,
    key,
    `${JSON.stringify(resolved)} ${what}${nearestPathHint(written, resolved, kind === 'directory')}`,
  );
}

/** Resolves one config entry into what the host mounts: the plugin, its validated options, its limits. */
export async function mountSpecFromEntry(entry: PluginEntry): Promise<MountSpec> {
  const base = {
    name: entry.name,
    prefix: entry.prefix,
    deadlines: entry.deadlinesMs,
    isolation: entry.isolation,
  };
  if (entry.origin.type === 'module') {
    await expectPath(entry, 'module', entry.origin.path, 'file');
    return { ...base, module: entry.origin.path, options: entry.options };
  }
  const builtin = BUILTIN_PLUGINS[entry.origin.kind];
  if (!builtin) throw unknownKindProblem(entry, entry.origin.kind, BUILTIN_KINDS);
  const loaded = await builtin.load();
  const prepared = builtin.prepareOptions
    ? builtin.prepareOptions(entry.options, entry.baseDir)
    : entry.options;
  for (const key of builtin.directoryOptions ?? [])
    if (typeof prepared[key] === 'string') await expectPath(entry, key, prepared[key], 'directory');
  const options = loaded.optionsSchema
    ? validatePluginOptions({ ...entry, options: prepared }, loaded.optionsSchema)
    : prepared;
  return { ...base, plugin: loaded.plugin, module: builtin.module.href, options };
}

export function createHost(options: CreateHostOptions = {}): ForesightHost {
  const logger =
    options.logger ?? createLogger({ level: options.config?.server.logLevel, redact: redactSecrets });
  const validator = createArgumentValidator(
    (tool, reason) =>
      logger.warn({ tool, reason }, 'input schema cannot be compiled; arguments are passed unchecked'),
    redactSecrets,
  );
  const rules = createConfigRules({
    rules: options.config?.enrich ?? [],
    tables: options.config?.plugins ?? [],
    file: options.config?.file ?? EMBEDDED_DEFAULT,
    onWarning: (message) => logger.warn({}, message),
    checkParam: (schema, name, value) => validator.checkParam(schema, name, value),
    scopeGlobs: options.config?.auth?.toolScopes ?? [],
  });
  const plugins = new PluginHost({
    logger,
    secrets: { add: registerSecret, addBasicCredential: registerBasicCredential },
    publishTool: rules.publish,
    ...(options.shared?.pluginState ? { sharedState: options.shared.pluginState } : {}),
    ...(options.shared?.budgets?.rateLimits ? { rateLimits: options.shared.budgets.rateLimits } : {}),
  });
  const tools = new ToolPipeline({
    host: plugins,
    enrichers: [
      ...(options.enrichers ?? []),
      createFormatEnricher(options.config?.format),
      ...rules.enrichers,
    ],
    validator,
    logger,
  });
  const checkRules = () =>
    rules.report(plugins.mountedPlugins(), new Set(tools.listTools().map((tool) => tool.name)));
  const ruleLog = createRuleLog(checkRules, logger);
  const settings = options.config ?? defaultConfig(process.cwd());
  const plannerSettings = { ...settings.planner, ...options.planner };
  const auditSettings = { ...settings.audit, ...options.audit };
  const audit = auditSettings.enabled
    ? new AuditLog({ file: auditSettings.file, redact: redactSecrets, logger })
    : undefined;
  // Its sources are read at scrape time; what they read is built below.
  const ops = createHostOps({
    settings: { ...(options.config?.server.ops ?? DEFAULT_OPS), ...options.ops },
    plugins,
    planner: () => planner.snapshot(),
    callsInFlight: () => admission.inFlight,
    listenStreamsOpen: () => listenCap.count,
    checks: options.readiness ?? [],
    redact: redactSecrets,
  });
  const metrics = ops.metrics;
  // Hears of every tool call that ends: the agent's (through openTools) and those the planner ran ahead.
  const observer = callObserver(audit, metrics);
  const planner = new Planner({
    pipeline: tools,
    host: plugins,
    settings: plannerSettings,
    overrides: options.config?.tools,
    logger,
    ...(observer ? { onSpeculativeCall: (call) => observer.write(prefetchRecord(call)) } : {}),
    ...(options.shared?.speculation ? { shared: options.shared.speculation } : {}),
    ...(options.shared?.budgets?.slots ? { slots: options.shared.budgets.slots } : {}),
  });
  // A stream's next call may land on another process: a walk through a listing held here goes on from there.
  options.shared?.learning?.onRelayedCall?.((call) =>
    planner.continueListing(call.stream, call.tool, call.argsKey),
  );
  // Every agent stream's tools, whatever the transport or era: the one place each tools/call answer passes.
  const pluginOf = (tool: string) => tools.listed(tool)?.ref.plugin;
  const openTools = observer
    ? (stream: StreamOrigin) =>
        // A stdio server without an audit log observes nothing: its calls skip the wrapper altogether.
        observer.observing()
          ? auditedTools(planner.openSession(stream), stream, observer, pluginOf)
          : planner.openSession(stream)
    : (stream: StreamOrigin) => planner.openSession(stream);
  let learning: PlannerLearning | undefined;
  const statsResource: BuiltinResource = {
    resource: {
      uri: PLANNER_STATS_URI,
      name: 'planner-stats',
      title: 'Planner statistics',
      description:
        'What the planner ran ahead of the agent and what it saved: calls dispatched, hits, joins, wasted, latency saved.',
      mimeType: 'application/json',
    },
    // Each reader sees what the planner learned for them alone: who else uses the server is not theirs to know.
    read: (principal) => ({
      contents: [
        {
          uri: PLANNER_STATS_URI,
          mimeType: 'application/json',
          text: JSON.stringify(planner.snapshot(principal), null, 2),
        },
      ],
    }),
  };
  const builtinResources: readonly BuiltinResource[] = [statsResource];

  const closers = new Set<() => Promise<void>>();
  const config = options.config;
  const seal = new RequestStateSeal({
    key: options.requestStateKey ?? (config ? resolveRequestStateKey(config) : undefined),
    ttlS: config?.server.requestStateTtlS,
  });
  const rounds = new InputRounds({ seal });
  const taskSettings = { ...settings.server.tasks, ...options.tasks };
  const taskStore = new TaskStore(taskSettings);
  const tasks = {
    store: taskStore,
    afterMs: taskSettings.afterMs,
    supportOf: (name: string) => taskSupportOf(tools.listed(name)?.tool),
  };
  const hintsByPlugin = new Map<string, CacheHints>(
    (config?.plugins ?? []).map((entry) => [
      entry.name,
      { ttlMs: entry.cache.ttlMs, scope: entry.cache.scope },
    ]),
  );
  const cacheHints = (plugin: string) => hintsByPlugin.get(plugin) ?? PRIVATE_UNCACHED;
  const streams = new AgentStreams({ open: openTools });
  const bus =
    options.bus ?? new InMemoryServerEventBus((error) => logger.warn({ err: error.message }, 'event bus'));
  const listen = new ListenSubscriptions(plugins, logger);
  const unpublish = publishHostEvents(plugins, tools, bus);
  const legacyClients = config?.server.legacyClients ?? 'serve';
  const limits: ServerLimits = { ...(config?.server.limits ?? DEFAULT_LIMITS), ...options.limits };
  const admission = new RequestAdmission(limits);
  const callRate = new CallRateLimiter({ perMinute: limits.maxCallsPerMinutePerClient });
  const listenCap = new ListenStreamCap(limits.maxListenStreams);

  // The same for every server; built at the first one, once the plugins are mounted and the lists' hints known.
  let serverOptions: ServerFactoryOptions | undefined;
  const createServer = (binding: Partial<Binding> = {}): BoundServer => {
    serverOptions ??= {
      name: 'foresight',
      version: FORESIGHT_VERSION,
      redact: redactSecrets,
      redactResult: redactSecretsIn,
      redactListing: redactSecretsInListing,
      debug: options.debug ?? false,
      builtinResources,
      host: plugins,
      rounds,
      cacheHints,
      listHints: combinedHints(
        plugins.mountedPlugins().map((plugin) => plugin.name),
        cacheHints,
      ),
      openTools,
      streams,
      tasks,
      admission,
      callRate,
    };
    return createBoundServer(
      {
        era: binding.era ?? 'legacy',
        connection: binding.connection ?? {
          transport: 'memory',
          principal: LOCAL_PRINCIPAL,
          stream: `memory:${randomUUID()}`,
        },
      },
      serverOptions,
    );
  };

  let starting: Promise<void> | undefined;
  const start = () => {
    starting ??= (async () => {
      audit?.open();
      for (const entry of config?.plugins ?? []) {
        if (entry.enabled) plugins.mount(await mountSpecFromEntry(entry));
      }
      for (const extra of options.plugins ?? [])
        plugins.mount(isPluginObject(extra) ? { plugin: extra } : extra);
      await plugins.start();
      // Once plugins that connect in the background (upstream servers) have listed their tools, or the
      // blocks naming those tools would be reported as naming nothing.
      if (plannerSettings.enabled || options.logRuleProblems !== false)
        void plugins.settle().then(() => {
          if (plugins.status !== 'started') return;
          if (plannerSettings.enabled) {
            for (const problem of planner.modelProblems()) logger.warn({}, `planner: ${problem}`);
            for (const note of planner.modelNotes()) logger.info({}, `planner: ${note}`);
          }
          if (options.logRuleProblems !== false) ruleLog.start(tools);
        });
      if (plannerSettings.enabled && plannerSettings.learning)
        learning = await attachLearning(planner, {
          file: plannerSettings.stateFile,
          logger,
          ...(options.shared?.learning ? { shared: options.shared.learning } : {}),
        });
      // Off the start-up path, before the first call is likely to arrive.
      setImmediate(() => validator.warmUp()).unref();
    })();
    return starting;
  };

  return {
    plugins,
    tools,
    planner,
    logger,
    checkRules,
    start,
    createServer,
    async connect(transport) {
      await start();
      const bound = createServer();
      bound.server.onclose = () => bound.dispose();
      await bound.server.connect(transport);
      closers.add(() => bound.server.close());
      return bound;
    },
    async serveStdio(io = {}) {
      await start();
      const serving = serveStdio({
        input: io.input as Readable | undefined,
        output: io.output as Writable | undefined,
        createServer,
        listen,
        logger,
        legacyClients,
        limits,
        listenCap,
      });
      closers.add(() => serving.close());
      ops.addStdio(serving);
      return serving;
    },
    async serveHttp(http) {
      const address = { host: http.host ?? '127.0.0.1', port: http.port };
      if (http.authToken !== undefined && http.oauth !== undefined)
        throw errors.configInvalid(
          'serveHttp',
          'authToken and oauth are two ways to authenticate clients: set one',
        );
      const exposure = checkExposure(
        address,
        {
          authenticated: http.authToken !== undefined || http.oauth !== undefined,
          allowUnauthenticated: http.allowUnauthenticated ?? false,
        },
        { where: 'serveHttp', auth: 'authToken', allow: 'allowUnauthenticated: true' },
      );
      if (http.oauth?.introspection) {
        // The client secret, and the Basic credential it travels in, never reach a log or an answer.
        const { clientId, clientSecret } = http.oauth.introspection;
        const parts = basicCredentialParts(clientId, clientSecret);
        registerSecret(clientSecret);
        registerBasicCredential(parts.user, parts.secret);
      }
      await start();
      const toolScopes = http.oauth?.toolScopes;
      // Checked once the plugins have listed their tools: a glob may name an upstream's.
      if (toolScopes?.length) await plugins.settle();
      const scopeGuard = toolScopes?.length
        ? resolveToolScopes(toolScopes, {
            file: config?.file,
            tables: config?.plugins ?? [],
            mounted: plugins.mountedPlugins(),
            listed: new Set(tools.listTools().map((tool) => tool.name)),
            modelOf: (tool) => planner.modelOf(tool),
            logger,
          })
        : undefined;
      const serving = await serveHttp({
        host: address.host,
        port: address.port,
        path: http.path,
        allowedHosts: http.allowedHosts,
        allowedOrigins: http.allowedOrigins,
        authToken: http.authToken,
        ...(http.oauth === undefined ? {} : { oauth: resourceOptions(http.oauth) }),
        ...(scopeGuard && toolScopes
          ? {
              scopeGuard,
              catalogScopeGuard: createCatalogScopeGuard(toolScopes, {
                listed: () => tools.listTools(),
                pluginOf,
                ownerOfUri: (uri) => plugins.ownerOfUri(uri),
                ownerOfPrompt: (name) => plugins.ownerOfPrompt(name),
                isBuiltin: (uri) => builtinResources.some((entry) => entry.resource.uri === uri),
              }),
            }
          : {}),
        ...(scopeGuard && observer
          ? {
              // The audit log and the metrics count tool calls: a refused read or prompt is in the 403 alone.
              onScopeRefused: (refusal) => {
                if (refusal.kind !== 'tool') return;
                observer.write(
                  scopeRefusalRecord({
                    principal: refusal.principal,
                    tool: refusal.name,
                    plugin: pluginOf(refusal.name),
                    era: refusal.era,
                    requestId: refusal.id,
                  }),
                );
              },
            }
          : {}),
        limits,
        listenCap,
        legacyClients,
        logger,
        createServer,
        bus,
        listen,
        toolSchema: (name) => tools.listed(name)?.tool.inputSchema,
        ops: ops.endpoints,
      });
      closers.add(() => serving.close());
      ops.addHttp(serving);
      if (exposure === 'accepted')
        logger.warn(
          { url: serving.url, host: address.host },
          'serving HTTP beyond loopback without authentication (allow_unauthenticated): anyone who reaches the port can call every tool',
        );
      return serving;
    },
    metrics,
    drain: (drainTimeoutS) => ops.drain(drainTimeoutS),
    async close() {
      const closing = [...closers];
      closers.clear();
      await Promise.allSettled(closing.map((close) => close()));
      unpublish();
      ruleLog.stop();
      listen.closeAll();
      rounds.close();
      taskStore.close();
      streams.closeAll();
      planner.close();
      await learning?.close();
      await plugins.shutdown();
      audit?.close();
    },
  };
}
