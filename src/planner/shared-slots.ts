// What the dispatcher asks of a cluster to hold its per-host cap across processes. The planner knows no Redis: a
// cluster member gives it an implementation (src/cluster), a single process none and counts its own calls alone.

/** A slot this process holds on a host's shared cap, until it gives it back with `release`. */
export interface SlotToken {
  readonly host: string;
  readonly id: string;
}

/**
 * Slots shared per API host by every process: at most `per_host_in_flight` speculative calls to one host run at
 * once across the cluster. A holder that dies loses its slots after a short lease, so they never leak.
 */
export interface SharedSlots {
  /**
   * A slot on `host`, of `limit` there are in all (this process's `per_host_in_flight`), or `'full'` when every
   * slot is held (try again later), or `'unavailable'` when the shared
   * count cannot be reached or did not answer within its small bound (the process keeps its own cap alone).
   */
  acquire(host: string, limit: number): Promise<SlotToken | 'full' | 'unavailable'>;
  /** Gives the slot back; never throws (a slot not given back lapses with its lease). */
  release(token: SlotToken): void;
}
