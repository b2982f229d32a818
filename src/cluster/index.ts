// Public surface of the cluster area: joining a cluster of Foresight processes over Redis, and probing Redis.
export { type Cluster, type ClusterOptions, joinCluster } from './cluster.js';
export { RedisServerEventBus } from './event-bus.js';
export { SharedRedis } from './shared-redis.js';
export { RedisPluginStates } from './shared-metadata.js';
export { type RedisProbe, DEFAULT_PROBE_TIMEOUT_MS, probeRedis } from './probe.js';
export {
  RedisSharedLearning,
  type RedisSharedLearningOptions,
  LEARNING_TTL_MS,
  MAX_SHARED_PRINCIPALS,
} from './shared-learning.js';
export { RedisSharedSlots, SLOT_LEASE_MS, SLOT_RENEW_MS } from './shared-slots.js';
export { RedisRateLimits, MAX_BLOCK_MS } from './shared-rate-limits.js';
