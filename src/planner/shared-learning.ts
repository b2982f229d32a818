// What the planner asks of a cluster to share what it learns: count deltas added to shared totals, totals read back.
// The planner knows no Redis: a cluster member gives it an implementation (src/cluster), a single process none.
import type { LearnedCounts } from './learned-state.js';

/** Counts one process adds to a principal's shared totals (only what it counted since its last push). */
export interface PrincipalDelta {
  principal: string;
  /** Deltas: calls, followed, offered and matched are added; an edge's prior replaces the shared one. */
  counts: LearnedCounts;
}

/** What one exchange with the shared store did. */
export type LearningExchange =
  /** The deltas were added and `totals` read after them, in one step: the totals include them. */
  | { kind: 'synced'; totals: Map<string, LearnedCounts> }
  /**
   * Nothing is known to have been added (the store unreachable, slow or failing): the caller keeps its deltas for
   * the next exchange. `reason` is for a debug log and never holds a secret.
   */
  | { kind: 'unavailable'; reason: string };

/** An agent call one process saw, for the others whose learning windows are open on the same stream. */
export interface RelayedCall {
  principal: string;
  /** The agent stream's id (a 2026-07-28 stream's is the same on every process). */
  stream: string;
  tool: string;
  /** Canonical JSON of the arguments ('' when the tool is no follow-up target, or the JSON is too long to send). */
  argsKey: string;
}

export interface SharedLearning {
  /** How often a process exchanges its counts (push its deltas, read the totals back), in ms. */
  readonly syncEveryMs: number;
  /**
   * Adds `deltas` to the shared totals and reads the totals of `read` (principals), atomically: the totals read
   * hold these deltas and no half of anyone's. Never rejects.
   */
  exchange(deltas: readonly PrincipalDelta[], read: readonly string[]): Promise<LearningExchange>;
  /** Tells the other processes of an agent call, at once and without waiting; lost while the store is down. */
  relayCall?(call: RelayedCall): void;
  /** Hears the calls the other processes relay (never this process's own). */
  onRelayedCall?(listener: (call: RelayedCall) => void): void;
}
