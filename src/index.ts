// Package entry: the contracts third-party plugins build on, and createHost for programs that embed Foresight.
export * from './contract/index.js';
export type { MountSpec, Deadlines, CallEnvironment } from './host/index.js';
// createHost and the types of what it takes and returns.
export * from './create-host.js';
export type { IntrospectionOptions, OAuthResourceOptions } from './protocol/index.js';
export {
  loadConfig,
  resolveAuth,
  type ForesightConfig,
  type AuditConfig,
  type ResolvedAuth,
  type ToolScopeRule,
} from './config/index.js';
export type { AuditRecord, AuditOutcome, Speculative } from './audit/index.js';
export { joinCluster, RedisServerEventBus, type Cluster, type ClusterOptions } from './cluster/index.js';
export { resolveCluster, redisEndpoint, type ResolvedCluster, type ClusterConfig } from './config/index.js';
export type { HostMetrics, ReadinessCheck, RoundTripCounter } from './ops/index.js';
