// Holds speculative results until the agent's own call asks for them: bounded by bytes, expired by an injected clock.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import { CacheFlights } from './cache-flights.js';
import { cacheKey, cacheKeysFor, matches, ownCopy } from './cache-keys.js';
import type {
  CacheKeyParts,
  CachedResult,
  InFlight,
  OutcomeListener,
  ResultCacheOptions,
  ResultCacheStats,
} from './cache-types.js';

export type * from './cache-types.js';

export const DEFAULT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

interface Entry {
  parts: CacheKeyParts;
  cached: CachedResult;
  served: boolean;
  outcome: OutcomeListener | undefined;
}

export class ResultCache {
  private readonly now: () => number;
  private readonly maxBytes: number;
  private readonly entries: LRUCache<string, Entry>;
  private readonly flights = new CacheFlights();
  private readonly counts: ResultCacheStats = {
    stored: 0,
    hits: 0,
    expired: 0,
    invalidated: 0,
    evicted: 0,
    refusedErrors: 0,
    unused: 0,
  };

  constructor(options: ResultCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.entries = new LRUCache<string, Entry>({
      maxSize: this.maxBytes,
      sizeCalculation: (entry) => entry.cached.bytes,
      // Only evictions are counted here: our own deletes are counted where they happen, and an
      // overwrite ('set') replaces a result rather than losing one.
      dispose: (entry, _key, reason) => {
        if (!entry.served) {
          this.counts.unused += 1;
          entry.outcome?.(false);
        }
        if (reason !== 'evict') return;
        if (this.isExpired(entry)) this.counts.expired += 1;
        else this.counts.evicted += 1;
      },
    });
  }

  /** Counters for the planner's stats (a snapshot). */
  get stats(): Readonly<ResultCacheStats> {
    return { ...this.counts };
  }

  /** Principal, session, tool and canonical args as one string: a JSON array, so no separator can collide. */
  static key(parts: CacheKeyParts): string {
    return cacheKey(parts);
  }

  /**
   * Stores a successful result for `ttlS` seconds. Returns false, storing nothing, for an `isError`
   * result (counted), a TTL that is not positive, or a result larger than the whole bound.
   */
  put(parts: CacheKeyParts, result: CallToolResult, ttlS: number, costMs?: number): boolean {
    return this.store(parts, result, ttlS, costMs, undefined);
  }

  private store(
    parts: CacheKeyParts,
    result: CallToolResult,
    ttlS: number,
    costMs: number | undefined,
    outcome: OutcomeListener | undefined,
  ): boolean {
    if (result.isError === true) {
      this.counts.refusedErrors += 1;
      return false;
    }
    if (!(ttlS > 0)) return false;
    const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
    // Checked here rather than left to lru-cache, which would also delete the older entry for the key.
    if (bytes > this.maxBytes) return false;
    const storedAtMs = this.now();
    this.entries.set(ResultCache.key(parts), {
      parts: ownCopy(parts),
      cached: {
        result,
        storedAtMs,
        expiresAtMs: storedAtMs + ttlS * 1000,
        bytes,
        ...(costMs === undefined ? {} : { costMs }),
      },
      served: false,
      outcome,
    });
    this.counts.stored += 1;
    return true;
  }

  /**
   * A fresh entry for the caller's session, else a fresh session-independent one, else undefined.
   * Expired entries met on the way are dropped and counted, and so are those `stillFresh` refuses
   * (counted as invalidated). Treat the result as read-only: it is shared.
   */
  get(parts: CacheKeyParts, stillFresh?: (cached: CachedResult) => boolean): CachedResult | undefined {
    for (const key of this.keysFor(parts)) {
      const entry = this.entries.get(key);
      if (entry === undefined) continue;
      if (this.isExpired(entry)) {
        this.entries.delete(key);
        this.counts.expired += 1;
        continue;
      }
      // What it read has changed since (the plugin says so): as good as invalidated.
      if (stillFresh && !stillFresh(entry.cached)) {
        this.entries.delete(key);
        this.counts.invalidated += 1;
        continue;
      }
      this.counts.hits += 1;
      this.markServed(entry);
      return entry.cached;
    }
    return undefined;
  }

  /**
   * True when `get` would answer or a live speculative call would be joined: for the planner's
   * `isCovered`. Counts nothing and does not touch recency or drop anything.
   */
  covers(parts: CacheKeyParts): boolean {
    return this.keysFor(parts).some((key) => {
      const entry = this.entries.peek(key);
      return (entry !== undefined && !this.isExpired(entry)) || this.flights.joinable(key) !== undefined;
    });
  }

  /**
   * Registers a speculative call in flight for the key. A second `begin` for the same key takes over
   * for new joiners; the first still settles (and stores) for its own. `outcome` hears once whether
   * the call's result was served (joined, or got from the cache) or went unused.
   */
  begin(parts: CacheKeyParts, outcome?: OutcomeListener): InFlight {
    const key = ResultCache.key(parts);
    const flight = this.flights.start(key, ownCopy(parts), this.now(), outcome);
    return {
      settle: (result, ttlS, costMs) => {
        if (!this.flights.finish(flight)) return;
        if (flight.stale || result === undefined || result.isError === true) {
          this.counts.unused += 1;
          flight.outcome?.(false);
          if (result?.isError === true && !flight.stale) this.counts.refusedErrors += 1;
          flight.resolve(undefined);
          return;
        }
        // A joined call's result has been served: stored, it may serve again, but it was not wasted.
        const stored = this.store(flight.parts, result, ttlS, costMs, flight.outcome);
        const entry = stored ? this.entries.peek(flight.key) : undefined;
        if (entry && flight.joined) this.markServed(entry);
        else if (!stored) {
          if (!flight.joined) this.counts.unused += 1;
          flight.outcome?.(flight.joined);
        }
        // Joiners get a successful result even when it was not stored (too big, TTL 0): it is fresh now.
        flight.resolve(result);
      },
      get stale() {
        return flight.stale;
      },
    };
  }

  /**
   * The live speculative call the agent's call can join (own session's first, then a session-independent
   * one), with the cache's time when it began; joining marks its result as served.
   */
  inFlight(
    parts: CacheKeyParts,
  ): { result: Promise<CallToolResult | undefined>; startedAtMs: number } | undefined {
    for (const key of this.keysFor(parts)) {
      const flight = this.flights.joinable(key);
      if (flight === undefined) continue;
      flight.joined = true;
      return { result: flight.promise, startedAtMs: flight.startedAtMs };
    }
    return undefined;
  }

  /**
   * The session has ended: drops its own entries (not the session-independent ones), and marks its
   * calls in flight stale, since nobody is left to be served their results.
   */
  dropSession(session: string): void {
    for (const [key, entry] of [...this.entries.entries()]) {
      if (entry.parts.session === session) this.entries.delete(key);
    }
    this.flights.markStaleWhere((parts) => parts.session === session);
  }

  /** Drops every entry (those never served count as unused) and marks every call in flight stale. */
  clear(): void {
    this.entries.clear();
    this.flights.markStaleWhere(() => true);
  }

  /** True when no entry is held and no speculative call is in flight: nothing for `invalidate` to drop. */
  get isEmpty(): boolean {
    return this.entries.size === 0 && this.flights.isEmpty;
  }

  /** Entries held now and their summed bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /**
   * Drops the entries of `tools` in every session (a mutation changes the world, not one session's view
   * of it) and marks their calls in flight stale. With `match` (e.g. `{ key: '#12' }`) an entry survives
   * only when its args give one of those parameters a different value; an entry whose args do not name
   * the parameter (a list, say) may include the changed object, so it goes. Returns how many fresh
   * entries were dropped; expired ones met on the way are dropped too and counted as expired.
   *
   * Call it before the mutation goes upstream and again once it has answered: a speculative call
   * begun in between may have read the old state.
   */
  invalidate(tools: readonly string[], match?: Record<string, unknown>): number {
    const hit = (parts: CacheKeyParts): boolean => tools.includes(parts.tool) && matches(parts.args, match);
    const doomed: string[] = [];
    for (const [key, entry] of this.entries.entries()) if (hit(entry.parts)) doomed.push(key);
    let dropped = 0;
    for (const key of doomed) {
      const entry = this.entries.peek(key);
      if (entry === undefined) continue;
      if (this.isExpired(entry)) this.counts.expired += 1;
      else dropped += 1;
      this.entries.delete(key);
    }
    this.flights.markStaleWhere(hit);
    this.counts.invalidated += dropped;
    return dropped;
  }

  /**
   * Another process of the cluster served the result stored under `key`: it was not wasted. Marks the entry served,
   * or the call still running for it joined (it then counts as used when it settles).
   */
  servedElsewhere(key: string): void {
    const entry = this.entries.peek(key);
    if (entry !== undefined) {
      this.markServed(entry);
      return;
    }
    const flight = this.flights.joinable(key);
    if (flight !== undefined) flight.joined = true;
  }

  private markServed(entry: Entry): void {
    if (entry.served) return;
    entry.served = true;
    entry.outcome?.(true);
  }

  private isExpired(entry: Entry): boolean {
    return this.now() >= entry.cached.expiresAtMs;
  }

  /** The keys that may answer these parts, in order of preference: own session, then session-independent. */
  keysFor(parts: CacheKeyParts): string[] {
    return cacheKeysFor(parts);
  }
}
