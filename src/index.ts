// Package entry: the contracts third-party plugins build on, and createHost for programs that embed Foresight.
export * from './host/contract.js';
export { ForesightError, PluginError, ERROR_KINDS, type ErrorKind } from './host/errors.js';
export type {
  ToolCategory,
  ToolRef,
  ToolSchema,
  ToolEnricher,
  FollowUpLink,
  ToolValueModel,
  IssueShape,
  IssueLinkShape,
  CommentShape,
  MergeRequestShape,
  DiffFileShape,
  JobShape,
  PipelineShape,
  StatusShape,
  FieldShape,
  UserShape,
  SprintShape,
  PageInfo,
  ShapedResult,
  ShapedResultKind,
} from './enrich/index.js';
export {
  TOOL_CATEGORIES,
  ENRICHED_ENUM_MARKER,
  SHAPED_RESULT_KINDS,
  fieldName,
  fieldNames,
} from './enrich/index.js';
export { OUTPUT_FORMATS, type OutputFormat } from './format/index.js';
export type { MountSpec, Deadlines, CallEnvironment } from './host/index.js';
export { MAX_DELAY_MS, clampDelay, durationMs, durationS, logRetry, type RetryNote } from './host/index.js';
export {
  createHost,
  type CreateHostOptions,
  type ForesightHost,
  type HttpOptions,
  type OAuthOptions,
  type SharedBudgets,
  type SharedServices,
} from './create-host.js';
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
