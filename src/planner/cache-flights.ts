// The result cache's speculative calls in flight: the one each key's joiners join, and every unsettled one to mark stale.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CacheKeyParts, OutcomeListener } from './cache-types.js';

/** One speculative call in flight. */
export interface Flight {
  key: string;
  parts: CacheKeyParts;
  promise: Promise<CallToolResult | undefined>;
  resolve(result: CallToolResult | undefined): void;
  stale: boolean;
  settled: boolean;
  joined: boolean;
  startedAtMs: number;
  outcome: OutcomeListener | undefined;
}

export class CacheFlights {
  /** The call each key's joiners join: the latest begun, until it settles or goes stale. */
  private readonly latest = new Map<string, Flight>();
  /** Every unsettled call, even one a later `start` replaced in `latest`: each must go stale on invalidation. */
  private readonly unsettled = new Set<Flight>();

  /** Registers a call for `key` (`parts` the cache's own copy): it takes over the key's new joiners. */
  start(
    key: string,
    parts: CacheKeyParts,
    startedAtMs: number,
    outcome: OutcomeListener | undefined,
  ): Flight {
    let resolve!: (result: CallToolResult | undefined) => void;
    const promise = new Promise<CallToolResult | undefined>((done) => (resolve = done));
    const flight: Flight = {
      key,
      parts,
      promise,
      resolve,
      stale: false,
      settled: false,
      joined: false,
      startedAtMs,
      outcome,
    };
    this.latest.set(key, flight);
    this.unsettled.add(flight);
    return flight;
  }

  /** The call has settled: true the first time, false after (a later settle is ignored). */
  finish(flight: Flight): boolean {
    if (flight.settled) return false;
    flight.settled = true;
    this.unsettled.delete(flight);
    // Only if it is still this call's slot: a later `start` for the key may have taken it.
    if (this.latest.get(flight.key) === flight) this.latest.delete(flight.key);
    return true;
  }

  /** The live call an agent's call for `key` would join. */
  joinable(key: string): Flight | undefined {
    return this.latest.get(key);
  }

  /** True when no call is unsettled. */
  get isEmpty(): boolean {
    return this.unsettled.size === 0;
  }

  /** Marks stale each unsettled call, not stale yet, whose parts `hit` picks: its result will be neither stored nor served. */
  markStaleWhere(hit: (parts: CacheKeyParts) => boolean): void {
    for (const flight of this.unsettled) {
      if (flight.stale || !hit(flight.parts)) continue;
      flight.stale = true;
      // Out of the map so nobody new joins or counts it as covered, and its joiners are told now
      // rather than when the discarded result arrives, so their real call starts sooner.
      if (this.latest.get(flight.key) === flight) this.latest.delete(flight.key);
      flight.resolve(undefined);
    }
  }
}
