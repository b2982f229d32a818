// Finds a result run ahead for the agent's own call: cached here, from the call still running here, or from the cluster.
import type { Logger } from '../contract/index.js';
import type { PreparedCall } from '../enrich/index.js';
import type { CallEnvironment } from '../host/index.js';
import type { AgentStreams } from './agent-streams.js';
import type { CacheKeyParts, ResultCache } from './cache.js';
import type { ClusterPaths } from './cluster-paths.js';
import { stillFresh } from './enricher-hooks.js';
import type { PlannerStats } from './planner-stats.js';
import type { RunAhead } from './run-ahead.js';
import { type Prefetched, untilCancelled } from './served-result.js';

/** The planner's parts a prefetch reads. */
export interface PrefetchSources {
  cache: ResultCache;
  runAhead: RunAhead;
  cluster: ClusterPaths;
  streams: AgentStreams;
  stats: PlannerStats;
  logger: Logger;
  now: () => number;
}

/** A fresh speculative result for the agent's call, from the cache or by joining the call still running. */
export async function prefetched(
  sources: PrefetchSources,
  session: string,
  prepared: PreparedCall,
  argsKey: string,
  env: CallEnvironment | undefined,
): Promise<Prefetched | undefined> {
  const { cache, runAhead, cluster, stats, now } = sources;
  const local = !(cache.isEmpty && !runAhead.anyQueued);
  if (!local && !cluster.clustered) return undefined;
  if (!cluster.serving) return undefined;
  // In a cluster every result is served through Redis, where a write on any process has already made it stale:
  // this process's own copy could miss the news of a write that raced its agent's call.
  const ownCopies = local && !cluster.clustered;
  const name = prepared.enriched.ref.published;
  const parts: CacheKeyParts = {
    principal: sources.streams.principalOf(session),
    session,
    tool: name,
    args: prepared.args,
    argsKey,
  };
  let found: Prefetched | undefined;
  if (local) runAhead.cancelQueued(parts);
  const cached = ownCopies
    ? cache.get(parts, (entry) => stillFresh(prepared, entry, sources.logger))
    : undefined;
  if (cached) {
    // Kept for whoever asks next: the result hooks of this call change a copy (one read from Redis is a copy).
    found = {
      result: structuredClone(cached.result),
      served: { source: 'cache', ageMs: now() - cached.storedAtMs },
    };
    stats.hit(parts.principal, cached.costMs ?? 0);
  } else {
    const flight = ownCopies ? cache.inFlight(parts) : undefined;
    if (flight) {
      const joinedAtMs = now();
      const result = await stats.whileJoining(() => untilCancelled(flight.result, env?.signal, name));
      if (result) {
        found = { result: structuredClone(result), served: { source: 'in_flight', ageMs: 0 } };
        stats.joined(parts.principal, joinedAtMs - flight.startedAtMs);
      }
    }
  }
  if (found === undefined && cluster.clustered) found = await cluster.prefetched(parts, prepared, env);
  if (found) sources.logger.debug({ tool: name, ...found.served }, 'planner: served a speculative result');
  return found;
}
