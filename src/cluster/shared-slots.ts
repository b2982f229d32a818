// The per-host cap on calls run ahead, held across processes: a sorted set of slot ids per host in Redis, scored by
// when each slot's lease ends, taken and renewed by one Lua script each, so a dead process's slots lapse.
import { randomUUID } from 'node:crypto';
import type { SharedSlots, SlotToken } from '../planner/index.js';
import type { SharedRedis } from './shared-redis.js';

/** How long a slot is held without renewal: a process that dies frees its slots within this. */
export const SLOT_LEASE_MS = 10_000;
/** How often a held slot's lease is renewed (a speculative call may run up to its deadline, 30 s by default). */
export const SLOT_RENEW_MS = 3_000;

/** Drops lapsed slots, then takes one if fewer than ARGV[1] are held. Redis's clock dates every lease. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;

/** Extends a slot still held (one that lapsed stays gone: another process may have taken its place). */
const RENEW = `
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1
`;

export interface RedisSharedSlotsOptions {
  /** Default SLOT_LEASE_MS. */
  leaseMs?: number;
  /** Default SLOT_RENEW_MS. */
  renewMs?: number;
}

export class RedisSharedSlots implements SharedSlots {
  readonly #renewals = new Map<string, ReturnType<typeof setInterval>>();
  readonly #leaseMs: number;
  readonly #renewMs: number;

  constructor(
    private readonly redis: SharedRedis,
    options: RedisSharedSlotsOptions = {},
  ) {
    this.#leaseMs = options.leaseMs ?? SLOT_LEASE_MS;
    this.#renewMs = options.renewMs ?? SLOT_RENEW_MS;
  }

  /** `slots:<host>` under the prefix. */
  keyOf(host: string): string {
    return this.redis.key(`slots:${host}`);
  }

  async acquire(host: string, limit: number): Promise<SlotToken | 'full' | 'unavailable'> {
    // Refused at once while down; a command that hangs is given up at the connection's bound (250 ms).
    if (!this.redis.ready) return 'unavailable';
    const token: SlotToken = { host, id: randomUUID() };
    try {
      const taken = this.redis.client.eval(ACQUIRE, {
        keys: [this.keyOf(host)],
        arguments: [String(limit), String(this.#leaseMs), token.id],
      });
      this.redis.roundTrip();
      if ((await taken) !== 1) return 'full';
    } catch (error) {
      this.redis.logger.debug({ err: String(error), host }, 'shared slot not taken; local cap only');
      return 'unavailable';
    }
    const renewal = setInterval(() => this.#renew(token), this.#renewMs);
    renewal.unref();
    this.#renewals.set(token.id, renewal);
    return token;
  }

  release(token: SlotToken): void {
    this.#stopRenewing(token);
    if (!this.redis.ready) return; // it lapses with its lease
    Promise.resolve()
      .then(() => {
        const removed = this.redis.client.zRem(this.keyOf(token.host), token.id);
        this.redis.roundTrip();
        return removed;
      })
      .catch((error: unknown) =>
        this.redis.logger.debug(
          { err: String(error), host: token.host },
          'shared slot not released; it lapses',
        ),
      );
  }

  /** Stops every renewal: the slots this process holds lapse with their leases. */
  close(): void {
    for (const renewal of this.#renewals.values()) clearInterval(renewal);
    this.#renewals.clear();
  }

  #renew(token: SlotToken): void {
    if (!this.redis.ready) return;
    Promise.resolve()
      .then(() => {
        const renewed = this.redis.client.eval(RENEW, {
          keys: [this.keyOf(token.host)],
          arguments: [String(this.#leaseMs), token.id],
        });
        this.redis.roundTrip();
        return renewed;
      })
      .then((renewed) => {
        if (renewed !== 1) this.#stopRenewing(token);
      })
      .catch(() => {
        // Tried again at the next interval; the lease is three renewals long.
      });
  }

  #stopRenewing(token: SlotToken): void {
    const renewal = this.#renewals.get(token.id);
    if (renewal === undefined) return;
    clearInterval(renewal);
    this.#renewals.delete(token.id);
  }
}
