// Public surface of the config area: load and validate foresight.toml, plugin option validation, secrets and redaction.
export type { ForesightConfig, PluginEntry, PluginOrigin } from './types.js';
export type {
  ServerConfig,
  HttpAddress,
  Transport,
  LegacyPosture,
  TaskSettings,
  OpsSettings,
} from './schema-server.js';
export type { AuthConfig, AuthIntrospection, JwtAlgorithm, ToolScopeRule } from './schema-auth.js';
export { DEFAULT_CLOCK_SKEW_S, DEFAULT_JWT_ALGORITHMS } from './schema-auth.js';
export { DEFAULT_LIMITS, type ServerLimits } from './schema-limits.js';
export type {
  PluginCacheHints,
  PluginDeadlines,
  PluginIsolation,
  CacheScope,
  ToolFilter,
} from './schema-plugin.js';
export type { DeclarativeEnrichRule, ToolAnnotationsOverride } from './schema-enrich.js';
export type { ToolOverride } from './schema-tools.js';
export type { FormatConfig } from './schema-format.js';
export type { PlannerConfig } from './schema-file.js';
export {
  type DiscoveryConfig,
  type DiscoveryModeSetting,
  DEFAULT_AUTO_TOKENS,
  DISCOVERY_MODES,
} from './schema-discovery.js';
export type { AuditConfig } from './schema-audit.js';
export {
  type ClusterConfig,
  DEFAULT_CLAIM_TIMEOUT_S,
  DEFAULT_CLUSTER_KEY_PREFIX,
  DEFAULT_LEARNING_SYNC_MS,
} from './schema-cluster.js';
export { type ResolvedCluster, redisEndpoint, resolveCluster } from './cluster-secrets.js';
export type { LoadConfigOptions } from './load.js';

export { loadConfig, defaultConfig, CONFIG_FILE_NAME } from './load.js';
export { parseConfig } from './parse.js';
export type { BeneathTables } from './beneath.js';
export {
  importDevboyConfig,
  type DevboyImport,
  type DevboyImportOptions,
  type ImportNote,
} from './devboy-import.js';
export { tomlSnippet } from './toml-snippet.js';
export { validatePluginOptions } from './plugin-options.js';
export { entryProblem, nearestPathHint, unknownKindProblem } from './entry-problems.js';
export {
  type ResolvedAuth,
  isAuthenticated,
  readSecret,
  resolveAuth,
  resolveAuthToken,
  resolveRequestStateKey,
} from './secrets.js';
export {
  registerBasicCredential,
  registerSecret,
  redactSecrets,
  redactSecretsIn,
  redactSecretsInListing,
} from './redact.js';
export { EMBEDDED_DEFAULT } from './problems.js';
export { formatKeyPath, lineOfKeyPath } from './key-path.js';
export {
  DEFAULT_CALL_DEADLINE_MS,
  DEFAULT_LIFECYCLE_DEADLINE_MS,
  DEFAULT_TASK_DEADLINE_MS,
} from './schema-plugin.js';
export {
  parseHttpAddress,
  DEFAULT_REQUEST_STATE_TTL_S,
  DEFAULT_TASK_TTL_MS,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_MAX_TASKS,
  LOG_LEVELS,
  DEFAULT_OPS,
} from './schema-server.js';
