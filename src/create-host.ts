// Composition root: turns a config (or plugin objects) into a running host that serves any SDK transport, in steps:
// the tool chain, operations, the call observers and the planner, what the servers share, then the lifecycle.
import type { Readable, Writable } from 'node:stream';
import { defaultConfig, DEFAULT_OPS, redactSecrets } from './config/index.js';
import {
  type CreateHostOptions,
  type ForesightHost,
  agentTools,
  callObserver,
  createAuditLog,
  createHostPlanner,
  createLifecycle,
  createServerFactory,
  createServerState,
  createToolChain,
  plannerStatsResource,
  serveHostHttp,
} from './compose/index.js';
import { createLogger } from './host/index.js';
import { createHostOps } from './ops/index.js';
import { serveStdio } from './protocol/index.js';

export {
  type CreateHostOptions,
  type ForesightHost,
  type HttpOptions,
  type OAuthOptions,
  type SharedBudgets,
  type SharedServices,
} from './compose/index.js';

export function createHost(options: CreateHostOptions = {}): ForesightHost {
  const logger =
    options.logger ?? createLogger({ level: options.config?.server.logLevel, redact: redactSecrets });
  const chain = createToolChain(options, logger);
  const { plugins, tools, checkRules } = chain;
  const settings = options.config ?? defaultConfig(process.cwd());
  const plannerSettings = { ...settings.planner, ...options.planner };
  const audit = createAuditLog({ ...settings.audit, ...options.audit }, logger);
  // Its sources are read at scrape time; what they read is built below.
  const ops = createHostOps({
    settings: { ...(options.config?.server.ops ?? DEFAULT_OPS), ...options.ops },
    plugins,
    planner: () => planner.snapshot(),
    callsInFlight: () => state.admission.inFlight,
    listenStreamsOpen: () => state.listenCap.count,
    checks: options.readiness ?? [],
    redact: redactSecrets,
  });
  const metrics = ops.metrics;
  // Hears of every tool call that ends: the agent's (through openTools) and those the planner ran ahead.
  const observer = callObserver(audit, metrics);
  const planner = createHostPlanner({
    chain,
    settings: plannerSettings,
    overrides: options.config?.tools,
    logger,
    observer,
    shared: options.shared,
  });
  const pluginOf = (tool: string) => tools.listed(tool)?.ref.plugin;
  const openTools = agentTools(planner, observer, pluginOf);
  const builtinResources = [plannerStatsResource(planner)];

  const closers = new Set<() => Promise<void>>();
  const config = options.config;
  const state = createServerState({ options, settings, plugins, tools, openTools, logger });
  const createServer = createServerFactory({
    plugins,
    state,
    openTools,
    builtinResources,
    debug: options.debug ?? false,
  });
  const { start, close } = createLifecycle({
    chain,
    planner,
    plannerSettings,
    state,
    audit,
    logger,
    entries: config?.plugins ?? [],
    extras: options.plugins ?? [],
    logRuleProblems: options.logRuleProblems !== false,
    sharedLearning: options.shared?.learning,
    closers,
  });

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
        listen: state.listen,
        logger,
        legacyClients: state.legacyClients,
        limits: state.limits,
        listenCap: state.listenCap,
      });
      closers.add(() => serving.close());
      ops.addStdio(serving);
      return serving;
    },
    serveHttp: (http) =>
      serveHostHttp(http, {
        config,
        logger,
        plugins,
        tools,
        planner,
        state,
        createServer,
        observer,
        pluginOf,
        builtinResources,
        ops,
        start,
        closers,
      }),
    metrics,
    drain: (drainTimeoutS) => ops.drain(drainTimeoutS),
    close,
  };
}
