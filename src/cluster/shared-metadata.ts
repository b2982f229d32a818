// Plugins' shared state over Redis: a value per key with its TTL, a lease so one process produces it, and a
// message when it is written, so what one process loaded (a tracker's metadata) the others read.
import { createHash, randomUUID } from 'node:crypto';
import { ConnectionTimeoutError } from 'redis';
import type { SharedClaim, SharedPluginState, SharedRead } from '../contract/index.js';
import type { SharedPluginStates } from '../host/index.js';
import { type SharedRedis, parseChannelMessage } from './shared-redis.js';

/** The channel under the key prefix on which a write is announced. */
export const PLUGIN_STATE_CHANNEL = 'pstate';

/**
 * How long a command waits for the first connection of a process that is starting: plugins start (and load their
 * metadata) while Redis is still being connected to, and loading then would cost the tracker a load per process.
 * The wait ends as soon as the first attempt connects or is refused; a connect timeout does not end it, since on a
 * process busy starting up the timer can fire before the connection's own event is seen, and the retry that follows
 * at once usually connects. So this bound holds when Redis is unreachable without a refusal or the process is too
 * busy to tell; it is under the kit's own bound on waiting for the store (3 s).
 * Once Redis has been reached, an outage waits for nothing.
 */
export const FIRST_CONNECTION_WAIT_MS = 2_500;

/** A value larger than this is not shared (each process keeps loading its own): Redis stays bounded. */
export const MAX_SHARED_VALUE_BYTES = 8 * 1024 * 1024;

/** The value under KEYS[1] with its PTTL; else the lease KEYS[2] taken with token ARGV[1] for ARGV[2] ms; else held. */
const CLAIM = `
local value = redis.call('GET', KEYS[1])
if value then return {1, value, redis.call('PTTL', KEYS[1])} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {2} end
return {3}`;

/** Extends the lease KEYS[1] by ARGV[2] ms if token ARGV[1] still holds it. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** Frees the lease KEYS[1] if token ARGV[1] still holds it (never another process's, taken after ours expired). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface Announcement {
  from: string;
  key: string;
}

/**
 * Every plugin instance's store of this process. Keys are hashed (scope and key together): the plugin's key holds
 * a base URL, a project and a credential hash, none of which need to be readable in Redis.
 */
export class RedisPluginStates implements SharedPluginStates {
  readonly #origin = randomUUID();
  readonly #listeners = new Map<string, Set<() => void>>();
  #subscribed = false;
  /** Whether the command connection has been up once: until then a command waits a little for it. */
  #reached = false;

  constructor(private readonly redis: SharedRedis) {}

  /** Whether a command can be sent now, waiting up to FIRST_CONNECTION_WAIT_MS for a first connection under way. */
  async #connected(): Promise<boolean> {
    const { client } = this.redis;
    if (client.isReady) return (this.#reached = true);
    if (this.#reached) return false;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        client.off('error', failed);
        resolve();
      };
      // A refused first attempt ends the wait too: Redis unreachable must not hold a start-up load.
      const failed = (error: unknown) => {
        if (!(error instanceof ConnectionTimeoutError)) done();
      };
      const timer = setTimeout(done, FIRST_CONNECTION_WAIT_MS).unref();
      client.on('ready', done);
      client.on('error', failed);
    });
    // Redis still unreached: the next command answers at once, as in an outage.
    this.#reached = true;
    return client.isReady;
  }

  forPlugin(scope: string): SharedPluginState {
    const name = (key: string) =>
      `pstate:${createHash('sha256').update(`${scope}\0${key}`).digest('hex').slice(0, 40)}`;
    return {
      claim: (key, leaseMs) => this.#claim(name(key), leaseMs),
      read: (key) => this.#read(name(key)),
      write: (key, value, ttlMs) => this.#write(name(key), value, ttlMs),
      onWritten: (key, listener) => this.#onWritten(name(key), listener),
    };
  }

  /** Runs one command, counted; undefined when Redis refuses, fails or is too slow (the 250 ms command bound). */
  async #send<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (!(await this.#connected())) return undefined;
    try {
      const sent = command();
      this.redis.roundTrip();
      return await sent;
    } catch (error) {
      this.redis.logger.debug({ err: String(error) }, 'plugin state: redis command failed');
      return undefined;
    }
  }

  async #claim(name: string, leaseMs: number): Promise<SharedClaim> {
    const token = randomUUID();
    const lease = `${name}:lease`;
    const ms = String(Math.max(1, Math.round(leaseMs)));
    const reply = await this.#send(() =>
      this.redis.client.eval(CLAIM, {
        keys: [this.redis.key(name), this.redis.key(lease)],
        arguments: [token, ms],
      }),
    );
    if (!Array.isArray(reply)) return { kind: 'unavailable' };
    const [kind, value, ttlLeftMs] = reply as unknown[];
    if (kind === 1 && typeof value === 'string' && typeof ttlLeftMs === 'number')
      return { kind: 'found', value, ttlLeftMs: Math.max(0, ttlLeftMs) };
    if (kind === 2) return { kind: 'lease', release: this.#hold(lease, token, leaseMs) };
    return { kind: 'held' };
  }

  /** Renews the lease at a third of its length until released; returns the release. */
  #hold(lease: string, token: string, leaseMs: number): () => void {
    const key = this.redis.key(lease);
    const ms = String(Math.max(1, Math.round(leaseMs)));
    const renewing = setInterval(
      () => void this.#send(() => this.redis.client.eval(RENEW, { keys: [key], arguments: [token, ms] })),
      Math.max(1, Math.round(leaseMs / 3)),
    ).unref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(renewing);
      // Not awaited: a release Redis misses ends by itself when the lease expires.
      void this.#send(() => this.redis.client.eval(RELEASE, { keys: [key], arguments: [token] }));
    };
  }

  async #read(name: string): Promise<SharedRead> {
    const key = this.redis.key(name);
    const reply = await this.#send(() => this.redis.client.multi().get(key).pTTL(key).exec());
    if (!Array.isArray(reply)) return { kind: 'unavailable' };
    const [value, ttlLeftMs] = reply as unknown[];
    if (typeof value !== 'string' || typeof ttlLeftMs !== 'number' || ttlLeftMs <= 0)
      return { kind: 'missing' };
    return { kind: 'found', value, ttlLeftMs };
  }

  async #write(name: string, value: string, ttlMs: number): Promise<boolean> {
    if (Buffer.byteLength(value) > MAX_SHARED_VALUE_BYTES) {
      this.redis.logger.warn(
        { bytes: Buffer.byteLength(value), max: MAX_SHARED_VALUE_BYTES },
        'plugin state too large to share: each process keeps its own',
      );
      return false;
    }
    const px = Math.max(1, Math.round(ttlMs));
    const stored = await this.#send(() =>
      this.redis.client.set(this.redis.key(name), value, { expiration: { type: 'PX', value: px } }),
    );
    if (stored !== 'OK') return false;
    this.redis.publish(
      PLUGIN_STATE_CHANNEL,
      JSON.stringify({ from: this.#origin, key: name } satisfies Announcement),
    );
    return true;
  }

  #onWritten(name: string, listener: () => void): () => void {
    this.#subscribe();
    let listeners = this.#listeners.get(name);
    if (listeners === undefined) this.#listeners.set(name, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(name);
    };
  }

  /** One subscription for every plugin's keys, at the first listener. */
  #subscribe(): void {
    if (this.#subscribed) return;
    this.#subscribed = true;
    this.redis.subscribe(PLUGIN_STATE_CHANNEL, (message) => this.#announced(message));
  }

  #announced(message: string): void {
    // A message that is no object (`null`, say) is ignored, not read as one.
    const announcement = parseChannelMessage(message);
    if (
      announcement === undefined ||
      announcement.from === this.#origin ||
      typeof announcement.key !== 'string'
    )
      return;
    for (const listener of this.#listeners.get(announcement.key) ?? []) {
      try {
        listener();
      } catch (error) {
        this.redis.logger.warn({ err: String(error) }, 'plugin state listener failed');
      }
    }
  }
}
