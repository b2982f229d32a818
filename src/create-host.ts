// Composition root: turns a config (or plugin objects) into a running host that serves any SDK transport.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type ForesightConfig,
  type PlannerConfig,
  type PluginEntry,
  defaultConfig,
  redactSecrets,
  redactSecretsIn,
  validatePluginOptions,
} from './config/index.js';
import {
  type ToolEnricher,
  ToolPipeline,
  createArgumentValidator,
  createDeclarativeEnrichers,
} from './enrich/index.js';
import { createFormatEnricher } from './format/index.js';
import { type Logger, type MountSpec, type Plugin, PluginHost, createLogger, errors } from './host/index.js';
import { PLANNER_STATS_URI, Planner, type PlannerLearning, attachLearning } from './planner/index.js';
import { BUILTIN_KINDS, BUILTIN_PLUGINS } from './plugins/index.js';
import {
  type BuiltinResource,
  type HttpServing,
  type Session,
  type StdioServing,
  createSession,
  serveHttp,
  serveStdio,
} from './protocol/index.js';
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
}

export interface HttpOptions {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  authToken?: string;
  maxBodyBytes?: number;
}

export interface ForesightHost {
  readonly plugins: PluginHost;
  /** Tools as clients see them: enriched list, calls mapped and validated. `refresh()` after new metadata. */
  readonly tools: ToolPipeline;
  /** Runs likely follow-up calls ahead and answers from their results; its counters are `foresight://planner/stats`. */
  readonly planner: Planner;
  readonly logger: Logger;
  /** Builds and starts every plugin; idempotent. */
  start(): Promise<void>;
  /** A new client session (SDK Server) bound to this host. */
  createSession(): Session;
  /** Starts the host if needed and serves one session over the given transport. */
  connect(transport: Transport): Promise<Session>;
  serveStdio(): Promise<StdioServing>;
  serveHttp(options: HttpOptions): Promise<HttpServing>;
  /** Closes every transport, then shuts plugins down in reverse mount order. */
  close(): Promise<void>;
}

function isPluginObject(value: Plugin | MountSpec): value is Plugin {
  return typeof (value as Plugin).build === 'function';
}

/** Resolves one config entry into what the host mounts: the plugin, its validated options, its limits. */
export async function mountSpecFromEntry(entry: PluginEntry): Promise<MountSpec> {
  const base = {
    name: entry.name,
    prefix: entry.prefix,
    deadlines: entry.deadlinesMs,
    isolation: entry.isolation,
  };
  if (entry.origin.type === 'module') return { ...base, module: entry.origin.path, options: entry.options };
  const builtin = BUILTIN_PLUGINS[entry.origin.kind];
  if (!builtin) throw errors.pluginUnknownKind(entry.origin.kind, BUILTIN_KINDS);
  const loaded = await builtin.load();
  const prepared = builtin.prepareOptions
    ? builtin.prepareOptions(entry.options, entry.baseDir)
    : entry.options;
  const options = loaded.optionsSchema
    ? validatePluginOptions({ ...entry, options: prepared }, loaded.optionsSchema)
    : prepared;
  return { ...base, plugin: loaded.plugin, module: builtin.module.href, options };
}

export function createHost(options: CreateHostOptions = {}): ForesightHost {
  const logger =
    options.logger ?? createLogger({ level: options.config?.server.logLevel, redact: redactSecrets });
  const validator = createArgumentValidator((tool, reason) =>
    logger.warn({ tool, reason }, 'input schema cannot be compiled; arguments are passed unchecked'),
  );
  const plugins = new PluginHost({ logger });
  const tools = new ToolPipeline({
    host: plugins,
    enrichers: [
      ...(options.enrichers ?? []),
      createFormatEnricher(options.config?.format),
      ...createDeclarativeEnrichers(options.config?.enrich ?? [], {
        onWarning: (message) => logger.warn({}, message),
        checkParam: (schema, name, value) => validator.checkParam(schema, name, value),
      }),
    ],
    validator,
    logger,
  });
  const plannerSettings = { ...(options.config ?? defaultConfig(process.cwd())).planner, ...options.planner };
  const planner = new Planner({
    pipeline: tools,
    host: plugins,
    settings: plannerSettings,
    overrides: options.config?.tools,
    logger,
  });
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
    read: () => ({
      contents: [
        {
          uri: PLANNER_STATS_URI,
          mimeType: 'application/json',
          text: JSON.stringify(planner.snapshot(), null, 2),
        },
      ],
    }),
  };
  const closers = new Set<() => Promise<void>>();
  const sessionOptions = {
    name: 'foresight',
    version: FORESIGHT_VERSION,
    redact: redactSecrets,
    redactResult: redactSecretsIn,
    debug: options.debug ?? false,
    builtinResources: [statsResource],
  };

  let starting: Promise<void> | undefined;
  const start = () => {
    starting ??= (async () => {
      for (const entry of options.config?.plugins ?? []) {
        if (entry.enabled) plugins.mount(await mountSpecFromEntry(entry));
      }
      for (const extra of options.plugins ?? [])
        plugins.mount(isPluginObject(extra) ? { plugin: extra } : extra);
      await plugins.start();
      // Once plugins that connect in the background (upstream servers) have listed their tools, or the
      // blocks naming those tools would be reported as naming nothing.
      if (plannerSettings.enabled)
        void plugins.settle().then(() => {
          if (plugins.status === 'started')
            for (const problem of planner.modelProblems()) logger.warn({}, `planner: ${problem}`);
        });
      if (plannerSettings.enabled && plannerSettings.learning)
        learning = await attachLearning(planner, { file: plannerSettings.stateFile, logger });
      // Off the start-up path, before the first call is likely to arrive.
      setImmediate(() => validator.warmUp()).unref();
    })();
    return starting;
  };

  const createHostSession = () => createSession(plugins, planner.openSession(), sessionOptions);

  return {
    plugins,
    tools,
    planner,
    logger,
    start,
    createSession: createHostSession,
    async connect(transport) {
      await start();
      const session = createHostSession();
      session.server.onclose = () => session.dispose();
      await session.server.connect(transport);
      closers.add(() => session.server.close());
      return session;
    },
    async serveStdio() {
      await start();
      const serving = await serveStdio(createHostSession());
      closers.add(() => serving.close());
      return serving;
    },
    async serveHttp(http) {
      await start();
      const serving = await serveHttp({
        host: http.host ?? '127.0.0.1',
        port: http.port,
        allowedHosts: http.allowedHosts,
        allowedOrigins: http.allowedOrigins,
        authToken: http.authToken,
        maxBodyBytes: http.maxBodyBytes,
        logger,
        createSession: createHostSession,
      });
      closers.add(() => serving.close());
      return serving;
    },
    async close() {
      const closing = [...closers];
      closers.clear();
      await Promise.allSettled(closing.map((close) => close()));
      planner.close();
      await learning?.close();
      await plugins.shutdown();
    },
  };
}
