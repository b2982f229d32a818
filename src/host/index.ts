// Public surface of the host area: the plugin contract, the error catalog, and the plugin host.
export * from './contract.js';
export * from './errors.js';
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
export { createLogger, logRetry, type LogLevel, type LoggerOptions, type RetryNote } from './logger.js';
export { MAX_COMPLETION_VALUES } from './completion.js';
export { isValidPluginId, publishName, type ToolPublisher } from './names.js';
export { enricherName } from './plugin-enrichers.js';
export {
  MAX_DELAY_MS,
  MAX_DELAY_S,
  clampDelay,
  durationMs,
  durationS,
  type DurationBounds,
} from './durations.js';
