// A process's membership of a cluster: its Redis connections and what they share (change events, learning).
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { SharedServices } from '../create-host.js';
import { DEFAULT_CLAIM_TIMEOUT_S } from '../config/index.js';
import type { Logger } from '../contract/index.js';
import { RedisServerEventBus } from './event-bus.js';
import { OutageLog } from './outage-log.js';
import { RedisConnection } from './redis-connection.js';
import { RedisPluginStates } from './shared-metadata.js';
import { RedisSharedLearning } from './shared-learning.js';
import { SharedRedis } from './shared-redis.js';
import { RedisSpeculation } from './shared-speculation.js';
import { RedisRateLimits } from './shared-rate-limits.js';
import { RedisSharedSlots } from './shared-slots.js';

/** How long Redis may take to confirm a SUBSCRIBE. */
const SUBSCRIBE_TIMEOUT_MS = 5_000;

export interface ClusterOptions {
  /** The Redis URL (a secret: it never reaches a log; only host and port do, as `endpoint`). */
  redisUrl: string;
  /** Where Redis is, as logs may say it, e.g. "127.0.0.1:6379". */
  endpoint: string;
  /** What every key and channel starts with. */
  keyPrefix: string;
  logger: Logger;
  /** How long a call run ahead holds its claim (`[cluster] claim_timeout_s`); default 10 s. */
  claimTimeoutMs?: number;
  /** Per-command bound; default 250 ms. */
  commandTimeoutMs?: number;
  /** Told of each command sent to Redis (the `foresight_redis_roundtrips_total` metric). Default none. */
  onRoundTrip?: () => void;
  /** How often the planner's learned counts are pushed and read back; default 5000 (`[cluster] learning_sync_ms`). */
  learningSyncMs?: number;
  /** How long a shared slot of the per-host cap outlives its holder; default 10 s (renewed every third of it). */
  slotLeaseMs?: number;
}

export interface Cluster {
  /** Change events for the listen streams of every process: give it to `createHost({ bus })`. */
  bus: ServerEventBus;
  /** What this process shares beyond change events: give it to `createHost({ shared })`. */
  shared: SharedServices;
  /** Whether Redis is reachable now (both connections up). */
  reachable(): boolean;
  /** Where Redis is (host and port, never the URL's credentials), for what is said about it. */
  readonly endpoint: string;
  /** Closes the connections; idempotent. */
  close(): Promise<void>;
}

/**
 * Joins the cluster: connects to Redis in the background and returns at once. Redis unreachable is logged once and
 * retried; every shared part falls back to this process's own state meanwhile.
 */
export function joinCluster(options: ClusterOptions): Cluster {
  const logger = options.logger.child({ component: 'cluster' });
  const outages = new OutageLog(logger, options.endpoint);
  const common = {
    url: options.redisUrl,
    outages,
    ...(options.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.commandTimeoutMs }),
  };
  const commands = new RedisConnection({ ...common, name: 'commands' });
  // The subscriber sends only SUBSCRIBE, off any call's path: it may wait longer for Redis to confirm it.
  const events = new RedisConnection({ ...common, name: 'events', commandTimeoutMs: SUBSCRIBE_TIMEOUT_MS });
  const redis = new SharedRedis({
    commands,
    subscriber: events,
    keyPrefix: options.keyPrefix,
    logger,
    ...(options.onRoundTrip === undefined ? {} : { onRoundTrip: options.onRoundTrip }),
  });
  const bus = new RedisServerEventBus(redis);
  commands.start();
  events.start();
  bus.start();
  let closed = false;
  const slots = new RedisSharedSlots(
    redis,
    options.slotLeaseMs === undefined
      ? {}
      : { leaseMs: options.slotLeaseMs, renewMs: Math.max(1, Math.floor(options.slotLeaseMs / 3)) },
  );
  const shared: SharedServices = {
    speculation: new RedisSpeculation(redis, {
      claimTimeoutMs: options.claimTimeoutMs ?? DEFAULT_CLAIM_TIMEOUT_S * 1000,
    }),
    pluginState: new RedisPluginStates(redis),
    learning: new RedisSharedLearning(redis, {
      ...(options.learningSyncMs === undefined ? {} : { syncEveryMs: options.learningSyncMs }),
    }),
    budgets: { slots, rateLimits: new RedisRateLimits(redis) },
  };
  return {
    bus,
    shared,
    reachable: () => commands.ready && events.ready,
    endpoint: options.endpoint,
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      slots.close();
      commands.close();
      events.close();
      return Promise.resolve();
    },
  };
}
