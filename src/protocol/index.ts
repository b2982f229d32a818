// Public surface of the protocol area: both MCP eras on SDK v2 over stdio and Streamable HTTP, multi round-trip
// requests, tasks, listen streams, and the one place errors become wire answers.
export {
  createBoundServer,
  type Binding,
  type BoundServer,
  type BuiltinResource,
  type ServerFactoryOptions,
} from './server-factory.js';
export type { StreamOrigin, ToolService } from './tool-service.js';
export { type Connection, type ProtocolEra, LOCAL_PRINCIPAL, modernStreamKey, traceIdOf } from './caller.js';
export { AgentStreams, type AgentStreamsOptions } from './agent-streams.js';
export {
  type CacheHints,
  type CacheHintsOf,
  PRIVATE_UNCACHED,
  combinedHints,
  stricterHints,
} from './cache-hints.js';
export { RequestStateSeal, MAX_REQUEST_STATE_BYTES, type RequestStateSealOptions } from './request-state.js';
export { InputRounds, type InputRoundsOptions } from './input-rounds.js';
export {
  TASKS_EXTENSION,
  TaskStore,
  type TaskStoreOptions,
  type TaskPolicy,
  type TaskSupport,
  taskSupportOf,
} from './tasks/index.js';
export { ListenStreamCap, ListenSubscriptions, publishHostEvents } from './listen.js';
export { RequestAdmission, AdmissionRefused, type AdmissionLimits } from './admission.js';
export { CallRateLimiter, CallRateExceeded, type CallRateOptions } from './call-rate.js';
export { serveStdio, type StdioServeOptions, type StdioServing } from './stdio.js';
export { serveHttp, type HttpServeOptions, type HttpServing } from './http.js';
export type { OpsEndpoints } from './ops-endpoints.js';
export { type OAuthResourceOptions, bearerChallenge } from './resource-server.js';
export type { CatalogScopeGuard, ScopeGuard } from './request-auth.js';
export type { ScopeRefusal } from './scope-challenge.js';
export { principalOfSubject } from './jwt-verifier.js';
export { type IntrospectionOptions, basicCredentialParts } from './token-introspection.js';
export { toolCallFailure, requestFailure, type WireErrorOptions } from './wire-errors.js';
export { checkExposure, type ExposurePolicy, type ExposureSettings } from './exposure.js';
