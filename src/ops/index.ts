// Public surface of the operations area: Prometheus metrics and readiness, which the HTTP server exposes.
export {
  createHostMetrics,
  type HostMetrics,
  type MetricsSources,
  type RoundTripCounter,
} from './metrics.js';
export {
  createHostOps,
  DRAIN_ANSWER_GRACE_MS,
  type Drainable,
  type HostOps,
  type HostOpsOptions,
} from './host-ops.js';
export {
  readiness,
  READINESS_CHECK_TIMEOUT_MS,
  type PluginState,
  type ReadinessCheck,
  type ReadinessReport,
  type ReadinessSources,
} from './readiness.js';
