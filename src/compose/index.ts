// Public surface of the compose area: the steps createHost wires a host from, and the host's types.
export type {
  CreateHostOptions,
  ForesightHost,
  HttpOptions,
  OAuthOptions,
  SharedBudgets,
  SharedServices,
} from './host-types.js';
export { mountSpecFromEntry } from './mounts.js';
export { type ToolChain, createToolChain } from './tool-chain.js';
export { type ObservedCalls, agentTools, callObserver, createAuditLog } from './observed-calls.js';
export { type HostPlannerOptions, createHostPlanner, plannerStatsResource } from './planner-wiring.js';
export { type ServerState, type ServerStateOptions, createServerState } from './server-state.js';
export { type CreateServer, type ServerFactoryParts, createServerFactory } from './server-factory.js';
export { type HttpParts, serveHostHttp } from './serve-http.js';
export { type Lifecycle, type LifecycleParts, createLifecycle } from './lifecycle.js';
