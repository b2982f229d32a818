// The planner's counters since start and its snapshot: what it ran ahead, served, joined and wasted, and what it learned.
import type { ResultCache } from './cache.js';
import { type PlannerCounters, zeroCounters } from './counters.js';
import { addCounters, type PrincipalCounters } from './learned-state.js';
import type { AgentStreams } from './agent-streams.js';
import type { PlannerSnapshot } from './planner-types.js';
import type { WasteBudget } from './waste-budget.js';

/** What the snapshot reads of the planner's other parts. */
export interface SnapshotSources {
  enabled: boolean;
  cache: ResultCache;
  budget: WasteBudget;
  inFlight: number;
  queued: number;
}

/** The process's counters (each principal's learner keeps its own share) and the agent calls joining now. */
export class PlannerStats {
  readonly counts: PlannerCounters = zeroCounters();
  /** Agent calls waiting now for a speculative call still running. */
  private joining = 0;
  /** Counters saved by earlier runs. */
  private earlier: PlannerCounters | undefined;

  constructor(private readonly streams: AgentStreams) {}

  useEarlier(earlier: PlannerCounters | undefined): void {
    this.earlier = earlier;
  }

  /** Counts for the process and for the principal's learner. */
  count(principal: string, name: keyof PrincipalCounters, amount = 1): void {
    this.counts[name] += amount;
    this.streams.count(principal, name, amount);
  }

  /** An agent call answered from a stored result run ahead, which saved the agent `savedMs`. */
  hit(principal: string, savedMs: number): void {
    this.count(principal, 'hits');
    this.count(principal, 'latencySavedMs', savedMs);
  }

  /** An agent call answered by joining a call run ahead, which saved the agent `savedMs`. */
  joined(principal: string, savedMs: number): void {
    this.count(principal, 'joins');
    this.count(principal, 'latencySavedMs', savedMs);
  }

  /** Waits for a joined call, counted in `joining` meanwhile. */
  whileJoining<T>(wait: () => Promise<T>): Promise<T> {
    this.joining += 1;
    return wait().finally(() => (this.joining -= 1));
  }

  /** The planner's state: process-wide, or with `principal` what it learned for that principal alone. */
  snapshot(sources: SnapshotSources, principal?: string): PlannerSnapshot {
    const cache = sources.cache.stats;
    const budget = sources.budget.state;
    const counters: PlannerCounters = {
      ...this.counts,
      wasted: cache.unused,
      expired: cache.expired,
      invalidated: this.counts.invalidated + cache.invalidated,
    };
    return {
      enabled: sources.enabled,
      counters,
      allTime: this.earlier ? addCounters(this.earlier, counters) : counters,
      inFlight: sources.inFlight,
      queued: sources.queued,
      joining: this.joining,
      cache: sources.cache.size,
      ...this.streams.learned(principal),
      wasteBudget: {
        maxWastePerHit: Number.isFinite(budget.maxWastePerHit) ? budget.maxWastePerHit : null,
        hits: Math.round(budget.hits * 1000) / 1000,
        waste: Math.round(budget.waste * 1000) / 1000,
      },
    };
  }
}
