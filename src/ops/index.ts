// Public surface of the operations area: Prometheus metrics and readiness, which the HTTP server exposes.
export {
  createHostMetrics,
  type HostMetrics,
  type MetricsSources,
  type RoundTripCounter,
} from './metrics.js';
export {
  readiness,
  READINESS_CHECK_TIMEOUT_MS,
  type PluginState,
  type ReadinessCheck,
  type ReadinessReport,
  type ReadinessSources,
} from './readiness.js';
