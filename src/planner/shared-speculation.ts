// What the planner asks of a cluster to share what it runs ahead: results, in-flight claims, invalidations. The
// planner knows no Redis: a cluster member gives it an implementation (src/cluster), a single process none.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { WasteBudgetChange } from './waste-budget.js';

/** A result another process (or this one) ran ahead and stored for all. */
export interface SharedEntry {
  /** A copy of its own for each lookup or wait: the caller may change it. */
  result: CallToolResult;
  /** When it was stored, epoch ms. */
  storedAtMs: number;
  /** How long the call took: the wait a hit saves. */
  costMs?: number;
}

/** What a lookup found: a stored result, a call some process is running now, or neither. */
export type SharedLookup =
  | { kind: 'entry'; key: string; entry: SharedEntry }
  | {
      kind: 'claimed';
      key: string;
      /** When the claim's call began, epoch ms. */
      startedAtMs: number;
      /**
       * Its result once it is stored, or undefined when it failed, went stale, or the claim lapsed (its holder
       * died); never longer than the claim's bound. Rejects with `signal`'s reason when it aborts.
       */
      wait(signal?: AbortSignal): Promise<SharedEntry | undefined>;
    }
  | { kind: 'none' };

/** A claim this process holds on a key: it runs the call, then stores or releases it exactly once. */
export interface SharedClaim {
  /** Stores the result for every process (unless a write since the claim made it stale) and ends the claim. */
  store(result: CallToolResult, ttlS: number, costMs: number): void;
  /** Ends the claim with nothing stored: the waiters make the call themselves. */
  release(): void;
}

export interface SharedSpeculation {
  /**
   * Whether sharing works now. While it does not (Redis unreachable), the planner runs nothing ahead and serves
   * nothing it holds: a write on another process could not reach it, so a result it holds might be stale.
   */
  available(): boolean;
  /** Hears each change of `available()`. */
  onAvailabilityChange(listener: (available: boolean) => void): void;
  /**
   * The first of `keys` (cache keys, in order of preference) with a stored result still valid, else one with a
   * claim; `none` as well when the lookup fails or takes longer than its small bound.
   */
  lookup(keys: readonly string[], tool: string): Promise<SharedLookup>;
  /**
   * Claims `key` for a call about to run ahead: undefined when another process holds it or a valid result is stored
   * (the call is not needed), or when the claim could not be made (Redis slow or gone: the call runs unshared).
   */
  claim(key: string, tool: string): Promise<SharedClaim | 'covered' | undefined>;
  /**
   * A write is about to change, or has changed, what `tools` read: every process drops its results of them (those
   * of `match` alone where the args name its parameters), and stored results of them stop being served. Resolves
   * once Redis has it, or after the lookup bound, or at once while sharing is down; never rejects.
   */
  invalidate(tools: readonly string[], match: Record<string, unknown> | undefined): Promise<void>;
  /** Hears the invalidations of the other processes. */
  onInvalidate(
    listener: (tools: readonly string[], match: Record<string, unknown> | undefined) => void,
  ): void;
  /** Tells the process that stored `key`'s result that it was served (so it does not count as wasted there). */
  served(key: string): void;
  /** Hears that a result this process stored was served elsewhere. */
  onServedElsewhere(listener: (key: string) => void): void;
  /**
   * Tells the other processes of a change to this process's waste budget account (they may be told a few at once,
   * a moment later); lost while sharing is down.
   */
  shareBudgetChange(change: WasteBudgetChange): void;
  /** Hears the other processes' waste budget changes. */
  onBudgetChange(listener: (change: WasteBudgetChange) => void): void;
}
