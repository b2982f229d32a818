// What the CLI does with [cluster]: `serve` joins it, `check` probes its Redis and says so in one line.
// The Redis client is loaded only under [cluster]: a process without one never pays for its modules (about 200 ms
// of start-up CPU and the heap they keep).
import type { Cluster } from '../cluster/index.js';
import { type ForesightConfig, redisEndpoint, resolveCluster } from '../config/index.js';
import type { Logger } from '../contract/index.js';
import type { ReadinessCheck } from '../ops/index.js';

/**
 * Joins the cluster the config names (connecting in the background), or undefined without [cluster].
 * `onRoundTrip` hears of each command sent to Redis.
 */
export async function joinConfiguredCluster(
  config: ForesightConfig,
  logger: Logger,
  onRoundTrip?: () => void,
): Promise<Cluster | undefined> {
  const resolved = resolveCluster(config);
  if (resolved === undefined) return undefined;
  const { joinCluster } = await import('../cluster/index.js');
  return joinCluster({
    redisUrl: resolved.redisUrl,
    endpoint: redisEndpoint(resolved.redisUrl),
    keyPrefix: resolved.keyPrefix,
    claimTimeoutMs: resolved.claimTimeoutS * 1000,
    ...(config.cluster === undefined ? {} : { learningSyncMs: config.cluster.learningSyncMs }),
    logger,
    ...(onRoundTrip === undefined ? {} : { onRoundTrip }),
  });
}

/** /readyz's condition for a cluster member: its Redis reachable (it serves from its own state meanwhile). */
export function clusterReadiness(cluster: Cluster): ReadinessCheck {
  return () =>
    Promise.resolve(
      cluster.reachable()
        ? { ok: true, detail: `redis reachable at ${cluster.endpoint}` }
        : {
            ok: false,
            detail: `redis unreachable at ${cluster.endpoint}; serving from this process's own state`,
          },
    );
}

export interface ClusterCheck {
  ok: boolean;
  /** The line `check` prints, its mark included; it names host and port at most, never the URL's credentials. */
  line: string;
}

/** The cluster line of `check`, or undefined without [cluster]. */
export async function checkCluster(config: ForesightConfig): Promise<ClusterCheck | undefined> {
  const resolved = resolveCluster(config);
  if (resolved === undefined) return undefined;
  const prefix = JSON.stringify(resolved.keyPrefix);
  const { probeRedis } = await import('../cluster/index.js');
  const probe = await probeRedis(resolved.redisUrl);
  return probe.ok
    ? { ok: true, line: `ok  cluster: redis reachable (prefix ${prefix}, ${probe.ms} ms)` }
    : {
        ok: false,
        line: `fail  cluster: redis unreachable at ${redisEndpoint(resolved.redisUrl)} (${probe.reason}); each process would serve from its own state, sharing nothing`,
      };
}
