// What every server of one host shares, whatever its transport or era: signed input rounds, tasks, caching hints,
// agent streams, change events and listen streams, and the limits that admit requests.
import { InMemoryServerEventBus, type ServerEventBus } from '@modelcontextprotocol/server';
import {
  type ForesightConfig,
  type LegacyPosture,
  type ServerLimits,
  DEFAULT_LIMITS,
  resolveRequestStateKey,
} from '../config/index.js';
import type { Logger } from '../contract/index.js';
import type { ToolPipeline } from '../enrich/index.js';
import type { PluginHost } from '../host/index.js';
import {
  AgentStreams,
  type CacheHints,
  CallRateLimiter,
  InputRounds,
  ListenStreamCap,
  ListenSubscriptions,
  PRIVATE_UNCACHED,
  RequestAdmission,
  RequestStateSeal,
  type StreamOrigin,
  type TaskPolicy,
  TaskStore,
  type ToolService,
  publishHostEvents,
  taskSupportOf,
} from '../protocol/index.js';
import type { CreateHostOptions } from './host-types.js';

export interface ServerState {
  readonly rounds: InputRounds;
  readonly taskStore: TaskStore;
  readonly tasks: TaskPolicy;
  /** Each plugin's configured caching hints, private and uncached when it has none. */
  cacheHints(plugin: string): CacheHints;
  readonly streams: AgentStreams;
  readonly bus: ServerEventBus;
  readonly listen: ListenSubscriptions;
  /** Stops publishing the host's change events on the bus. */
  readonly unpublish: () => void;
  readonly legacyClients: LegacyPosture;
  readonly limits: ServerLimits;
  readonly admission: RequestAdmission;
  readonly callRate: CallRateLimiter;
  readonly listenCap: ListenStreamCap;
}

export interface ServerStateOptions {
  options: CreateHostOptions;
  /** The config, or the default one when none was given. */
  settings: ForesightConfig;
  plugins: PluginHost;
  tools: ToolPipeline;
  openTools(stream: StreamOrigin): ToolService;
  logger: Logger;
}

export function createServerState({
  options,
  settings,
  plugins,
  tools,
  openTools,
  logger,
}: ServerStateOptions): ServerState {
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
  return {
    rounds,
    taskStore,
    tasks,
    cacheHints,
    streams,
    bus,
    listen,
    unpublish,
    legacyClients,
    limits,
    admission: new RequestAdmission(limits),
    callRate: new CallRateLimiter({ perMinute: limits.maxCallsPerMinutePerClient }),
    listenCap: new ListenStreamCap(limits.maxListenStreams),
  };
}
