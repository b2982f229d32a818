// The planner's counters: what it ran ahead, what the agent got from it, and what it cost.

/** Running totals; persisted with the learned counts and served as `foresight://planner/stats`. */
export interface PlannerCounters {
  /** Speculative calls started. */
  dispatched: number;
  /** Agent calls answered from a fresh cached speculative result. */
  hits: number;
  /** Agent calls answered by joining a speculative call still in flight. */
  joins: number;
  /** Speculative calls whose result was never served: expired, evicted, invalidated, failed or left at the end. */
  wasted: number;
  /** Cached speculative results dropped because their TTL passed. */
  expired: number;
  /** Cached results and calls in flight dropped because a mutating call made them stale. */
  invalidated: number;
  /** Speculative calls that failed (error result, deadline, refusal); never cached. */
  failed: number;
  /** Planned calls not started: the caps stayed full past the think window, or the planner closed. */
  dropped: number;
  /** Agent-visible wait avoided, in ms: the speculative call's duration for a hit, its head start for a join. */
  latencySavedMs: number;
}

export const COUNTER_NAMES = [
  'dispatched',
  'hits',
  'joins',
  'wasted',
  'expired',
  'invalidated',
  'failed',
  'dropped',
  'latencySavedMs',
] as const satisfies readonly (keyof PlannerCounters)[];

export function zeroCounters(): PlannerCounters {
  return {
    dispatched: 0,
    hits: 0,
    joins: 0,
    wasted: 0,
    expired: 0,
    invalidated: 0,
    failed: 0,
    dropped: 0,
    latencySavedMs: 0,
  };
}
