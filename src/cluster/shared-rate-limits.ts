// Provider rate limits known to every process: when one process is told a budget is used up, a key with PX expiry
// says so until the reset, and the others wait or fail as it would, without spending a request to find out.
import type { SharedRateLimits } from '../contract/index.js';
import type { SharedRedis } from './shared-redis.js';

/** The longest block kept: a provider's reset further off than this is not believed (GitHub's window is 1 h). */
export const MAX_BLOCK_MS = 60 * 60 * 1000;
/** Blocks this process holds in memory before it forgets the lapsed ones. */
const LOCAL_LIMIT = 1_000;

/** Sets the block unless a later one is already known, so a stale answer never shortens another's. */
const BLOCK = `
local known = tonumber(redis.call('GET', KEYS[1]) or '0')
if known >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/**
 * One token per interval, held as the time the next turn is free: a caller takes the earliest free turn and moves it
 * one interval on. Redis's clock dates the turns, so the processes' clocks need not agree.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
local turn = math.max(now, free)
local interval = tonumber(ARGV[1])
redis.call('SET', KEYS[1], turn + interval, 'PX', turn + interval - now)
return turn - now
`;

export interface RedisRateLimitsOptions {
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
}

export class RedisRateLimits implements SharedRateLimits {
  /** Blocks this process knows of (its own, and those it read), so a blocked budget costs no round trip. */
  readonly #known = new Map<string, number>();
  readonly #now: () => number;

  constructor(
    private readonly redis: SharedRedis,
    options: RedisRateLimitsOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
  }

  /** `ratelimit:<key>` under the prefix. */
  keyOf(key: string): string {
    return this.redis.key(`ratelimit:${key}`);
  }

  async blockedUntil(key: string): Promise<number | undefined> {
    const nowMs = this.#now();
    const known = this.#known.get(key);
    if (known !== undefined && known > nowMs) return known;
    // Refused at once while down; a command that hangs is given up at the connection's bound (250 ms).
    if (!this.redis.ready) return undefined;
    try {
      const read = this.redis.client.get(this.keyOf(key));
      this.redis.roundTrip();
      const until = Number(await read);
      if (!Number.isFinite(until) || until <= this.#now()) return undefined;
      this.#remember(key, until);
      return until;
    } catch (error) {
      this.redis.logger.debug({ err: String(error), key }, 'shared rate limit not read; this process alone');
      return undefined;
    }
  }

  block(key: string, untilMs: number): void {
    const nowMs = this.#now();
    const until = Math.min(Math.floor(untilMs), nowMs + MAX_BLOCK_MS);
    if (!(until > nowMs)) return;
    this.#remember(key, until);
    if (!this.redis.ready) return;
    Promise.resolve()
      .then(() => {
        const set = this.redis.client.eval(BLOCK, {
          keys: [this.keyOf(key)],
          arguments: [String(until), String(until - nowMs)],
        });
        this.redis.roundTrip();
        return set;
      })
      .catch((error: unknown) =>
        this.redis.logger.debug(
          { err: String(error), key },
          'shared rate limit not written; this process alone',
        ),
      );
  }

  async reserve(key: string, intervalMs: number): Promise<number | undefined> {
    if (!this.redis.ready) return undefined;
    try {
      const reserved = this.redis.client.eval(RESERVE, {
        keys: [this.redis.key(`spacing:${key}`)],
        arguments: [String(Math.max(1, Math.floor(intervalMs)))],
      });
      this.redis.roundTrip();
      const waitMs = Number(await reserved);
      return Number.isFinite(waitMs) ? Math.max(0, waitMs) : undefined;
    } catch (error) {
      this.redis.logger.debug({ err: String(error), key }, 'shared spacing not reserved; this process alone');
      return undefined;
    }
  }

  #remember(key: string, untilMs: number): void {
    if (this.#known.size >= LOCAL_LIMIT) {
      const nowMs = this.#now();
      for (const [known, until] of this.#known) if (until <= nowMs) this.#known.delete(known);
    }
    if (this.#known.size < LOCAL_LIMIT || this.#known.has(key))
      this.#known.set(key, Math.max(untilMs, this.#known.get(key) ?? 0));
  }
}
