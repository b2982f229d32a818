// The planner's paths through a cluster ([cluster]): results run ahead shared over Redis, claims, invalidations and one waste budget.
import { describeThrown, type Logger } from '../contract/index.js';
import type { PreparedCall } from '../enrich/index.js';
import type { CallEnvironment } from '../host/index.js';
import type { CacheKeyParts, ResultCache } from './cache.js';
import { stillFresh } from './enricher-hooks.js';
import type { PlannerStats } from './planner-stats.js';
import { type Prefetched, untilCancelled } from './served-result.js';
import type { SharedClaim, SharedSpeculation } from './shared-speculation.js';
import { WasteBudget } from './waste-budget.js';

/** What the cluster's paths reach of the planner's own parts. */
export interface ClusterPathsOptions {
  /** Default none: this process alone, and every path is a no-op. */
  shared: SharedSpeculation | undefined;
  cache: ResultCache;
  stats: PlannerStats;
  logger: Logger;
  now: () => number;
}

/** What the other processes' news changes here. */
export interface ClusterListeners {
  /** Drops this process's results of `tools` (of `match` alone) and its queued calls of them. */
  dropStale(tools: readonly string[], match: Record<string, unknown> | undefined): void;
  budget: WasteBudget;
}

/** This process's side of the cluster's shared speculation; on a process of its own, nothing is shared. */
export class ClusterPaths {
  private readonly shared: SharedSpeculation | undefined;

  constructor(private readonly options: ClusterPathsOptions) {
    this.shared = options.shared;
  }

  /** True when a cluster is configured: every result is then served through it. */
  get clustered(): boolean {
    return this.shared !== undefined;
  }

  /**
   * False while the cluster's sharing is down: nothing run ahead is served or run, since a write on another process
   * would not reach this one. Always true for a process on its own.
   */
  get serving(): boolean {
    return this.shared?.available() ?? true;
  }

  /** The waste budget: in a cluster, one account of what was run ahead (each process plans only a part of an agent's calls). */
  budget(maxWastePerHit: number): WasteBudget {
    const { shared } = this;
    return new WasteBudget(
      maxWastePerHit,
      shared && Number.isFinite(maxWastePerHit) ? (change) => shared.shareBudgetChange(change) : undefined,
    );
  }

  /** Hears the other processes' writes, servings and budget changes. */
  listen(listeners: ClusterListeners): void {
    const { shared } = this;
    if (!shared) return;
    const { cache } = this.options;
    shared.onInvalidate((tools, match) => listeners.dropStale(tools, match));
    shared.onServedElsewhere((key) => cache.servedElsewhere(key));
    shared.onBudgetChange((change) => listeners.budget.absorb(change));
    // Cut off, this process would not hear the others' writes: what it holds may go stale unseen.
    shared.onAvailabilityChange((available) => {
      if (!available) cache.clear();
    });
  }

  /** Tells the cluster of a write; undefined on a process of its own. */
  invalidate(
    tools: readonly string[],
    match: Record<string, unknown> | undefined,
  ): Promise<void> | undefined {
    return this.shared?.invalidate(tools, match);
  }

  /**
   * The cluster's claim on a call about to run ahead: `covered` when another process runs it or has its result,
   * undefined on a process of its own or when the claim could not be made (the call then runs unshared).
   */
  async claim(key: string, tool: string): Promise<SharedClaim | 'covered' | undefined> {
    const { shared } = this;
    if (shared === undefined) return undefined;
    try {
      return await shared.claim(key, tool);
    } catch (error) {
      this.options.logger.debug({ tool, err: describeThrown(error) }, 'planner: claim failed; runs unshared');
      return undefined;
    }
  }

  /** Another process's result for the agent's call: stored already, or from its call still running. */
  async prefetched(
    parts: CacheKeyParts,
    prepared: PreparedCall,
    env: CallEnvironment | undefined,
  ): Promise<Prefetched | undefined> {
    const { shared } = this;
    if (shared === undefined) return undefined;
    const { cache, stats, logger, now } = this.options;
    const name = parts.tool;
    const found = await shared.lookup(cache.keysFor(parts), name);
    if (found.kind === 'entry') {
      if (!stillFresh(prepared, found.entry, logger)) return undefined;
      stats.hit(parts.principal, found.entry.costMs ?? 0);
      this.servedShared(shared, found.key);
      return {
        result: found.entry.result,
        served: { source: 'cache', ageMs: now() - found.entry.storedAtMs },
      };
    }
    if (found.kind !== 'claimed') return undefined;
    const joinedAtMs = now();
    const entry = await stats.whileJoining(() => untilCancelled(found.wait(env?.signal), env?.signal, name));
    if (entry === undefined) return undefined;
    // The clocks of two processes: a claim begun "after" this call joined it is one that began with it.
    stats.joined(parts.principal, Math.max(0, joinedAtMs - found.startedAtMs));
    this.servedShared(shared, found.key);
    return { result: entry.result, served: { source: 'in_flight', ageMs: 0 } };
  }

  /** A shared result was served: not wasted, whichever process ran it (this one's copy is marked here). */
  private servedShared(shared: SharedSpeculation, key: string): void {
    this.options.cache.servedElsewhere(key);
    shared.served(key);
  }
}
