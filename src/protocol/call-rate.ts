// The rate of calls per client: a token bucket each, holding a minute's worth, refilled evenly over the minute.

/** Why a call was refused: its client has used up the calls it may make for now. */
export class CallRateExceeded extends Error {
  constructor(
    /** `max_calls_per_minute_per_client`. */
    readonly perMinute: number,
    /** Seconds until the client may make one more call (at least 1). */
    readonly retryAfterS: number,
  ) {
    super(`more than ${perMinute} calls a minute; retry in ${retryAfterS} s`);
  }
}

interface Bucket {
  tokens: number;
  atMs: number;
}

const MINUTE_MS = 60_000;
/** Buckets kept before the full ones (clients idle for a minute) are swept out. */
const SWEEP_ABOVE = 10_000;

export interface CallRateOptions {
  /** Calls a client may make per minute, in a burst or spread out; 0 means no limit. */
  perMinute: number;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
}

export class CallRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMinute: number;
  private readonly now: () => number;

  constructor(options: CallRateOptions) {
    this.perMinute = options.perMinute;
    this.now = options.now ?? Date.now;
  }

  /** False when there is no limit: callers skip the check (and its clock read) altogether. */
  get limited(): boolean {
    return this.perMinute > 0;
  }

  /** Counts one call of `client`, or throws CallRateExceeded (counting nothing) when it has none left. */
  take(client: string): void {
    if (this.perMinute <= 0) return;
    const nowMs = this.now();
    let bucket = this.buckets.get(client);
    if (bucket === undefined) {
      if (this.buckets.size >= SWEEP_ABOVE) this.sweep(nowMs);
      bucket = { tokens: this.perMinute, atMs: nowMs };
      this.buckets.set(client, bucket);
    } else {
      const refilled = ((nowMs - bucket.atMs) * this.perMinute) / MINUTE_MS;
      bucket.tokens = Math.min(this.perMinute, bucket.tokens + Math.max(0, refilled));
      bucket.atMs = nowMs;
    }
    if (bucket.tokens < 1) {
      const waitMs = ((1 - bucket.tokens) * MINUTE_MS) / this.perMinute;
      throw new CallRateExceeded(this.perMinute, Math.max(1, Math.ceil(waitMs / 1000)));
    }
    bucket.tokens -= 1;
  }

  /** Drops the buckets that would be full by now: forgetting them changes nothing, and bounds the memory. */
  private sweep(nowMs: number): void {
    for (const [client, bucket] of this.buckets) {
      const refilled = ((nowMs - bucket.atMs) * this.perMinute) / MINUTE_MS;
      if (bucket.tokens + refilled >= this.perMinute) this.buckets.delete(client);
    }
  }
}
