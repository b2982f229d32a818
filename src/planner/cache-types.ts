// The result cache's boundary: the parts of a key, a stored result, the cache's options and counters, a call in flight.
import type { CallToolResult } from '@modelcontextprotocol/server';

export interface CacheKeyParts {
  /**
   * Who the result was fetched for: no entry is ever served to another principal, not even a
   * session-independent one.
   */
  principal: string;
  /** The agent stream; undefined for results the plugin declares session-independent (served to the principal's every stream). */
  session: string | undefined;
  /** Published tool name. */
  tool: string;
  args: Record<string, unknown>;
  /** `canonicalJson(args)`, when the caller has it already: each lookup then serialises nothing. */
  argsKey?: string;
}

export interface CachedResult {
  result: CallToolResult;
  storedAtMs: number;
  /** First instant (by the cache's clock) at which the entry is no longer served. */
  expiresAtMs: number;
  /** UTF-8 length of the result's JSON: what the byte bound counts. */
  bytes: number;
  /** How long the call that produced it took, when known: the wait a hit saves. */
  costMs?: number;
}

export interface ResultCacheOptions {
  /** Upper bound on the summed `bytes` of all entries; least recently used go first. Default 32 MiB. */
  maxBytes?: number;
  /** Clock in epoch ms for storing and expiry. Default `Date.now`. */
  now?: () => number;
}

export interface ResultCacheStats {
  /** Results stored (by `put` or a settled speculative call). */
  stored: number;
  /** Fresh entries returned by `get`. */
  hits: number;
  /** Entries dropped because their TTL had passed (found by `get`, `invalidate` or eviction). */
  expired: number;
  /** Fresh entries dropped by `invalidate`. */
  invalidated: number;
  /** Fresh entries pushed out by the byte bound. */
  evicted: number;
  /** Results refused because they were errors (`isError`). */
  refusedErrors: number;
  /**
   * Stored results that left without ever being served (expired, invalidated, evicted, replaced or
   * cleared), plus speculative calls that failed or went stale in flight (joined or not: a joiner then
   * makes the call itself).
   */
  unused: number;
}

/** A speculative call in flight; the dispatcher settles it exactly once (later calls are ignored). */
export interface InFlight {
  /** `result` undefined or `isError` = the call failed: nothing is stored and joiners get undefined. */
  settle(result: CallToolResult | undefined, ttlS: number, costMs?: number): void;
  /** True once a mutation invalidated the key: the result will be neither stored nor served. */
  readonly stale: boolean;
}

/** Told once what became of a speculative result: served (true), or gone or failed unused (false). */
export type OutcomeListener = (used: boolean) => void;
