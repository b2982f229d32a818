// Public surface of the host area: the plugin host: mounting, names, routes, guarded calls, isolation and lifecycle.
export {
  PluginHost,
  type PluginHostOptions,
  type HostEvents,
  type HostState,
  type MountedPlugin,
  type SharedPluginStates,
} from './plugin-host.js';
export type { CallEnvironment, ToolCallOptions } from './request-context.js';
export type { MountSpec, Deadlines, Isolation, PluginMethod } from './mount.js';
export { DEFAULT_DEADLINES } from './mount.js';
export type { PublishedToolEntry } from './routes.js';
export { createLogger, type LogLevel, type LoggerOptions } from './logger.js';
export { MAX_COMPLETION_VALUES } from './completion.js';
export { publishName, type ToolPublisher } from './names.js';
export { enricherName } from './plugin-enrichers.js';
