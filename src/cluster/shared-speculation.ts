// The planner's results run ahead, shared by every process of a cluster: stored results, in-flight claims and
// invalidations in Redis, so a call on B is answered from A's prefetch, or waits for A's prefetch still running.
//
// Keys (under the key prefix): `spec:e:<id>` a stored result, `spec:c:<id>` a claim, `spec:g:<tool>` the tool's
// write generation, `spec:epoch` bumped each time a process (re)connects. A stored result is served only while its
// tool's generation and the epoch are those it was claimed under: a write on any process bumps the generation (no
// key to find and delete), and a process that was cut off (whose writes bumped nothing) bumps the epoch when it
// returns, so nothing stored before can be served stale. Each multi-key step is one Lua script: a process dying
// mid-write leaves either the whole step or none of it.
import { createHash, randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import type {
  SharedClaim,
  SharedEntry,
  SharedLookup,
  SharedSpeculation,
  WasteBudgetChange,
} from '../planner/index.js';
import { type SharedRedis, parseChannelMessage } from './shared-redis.js';

/** How long an agent's call waits for a lookup before going on without it. */
export const DEFAULT_LOOKUP_TIMEOUT_MS = 50;
/** A result larger than this stays in its process's own cache: one agent call should not move megabytes twice. */
export const MAX_SHARED_RESULT_BYTES = 1024 * 1024;
/** Own stored keys remembered (by id) to hear that another process served them. */
const OWN_KEYS_REMEMBERED = 10_000;

const CHANNEL = 'spec';

/** What travels on the channel. `from` lets a process skip its own invalidations (applied already). */
type Message =
  | { from: string; k: 'settled' | 'failed' | 'served'; id: string }
  | { from: string; k: 'invalidate'; tools: string[]; match?: Record<string, unknown> }
  | { from: string; k: 'budget'; n: number; h: number; w: number };

/** The stored value after its `<gen>|<epoch>|` stamp. */
interface Payload {
  s: number;
  c?: number;
  r: CallToolResult;
}

// KEYS: entry, claim, gen, epoch. ARGV: claim value, claim ttl ms.
const CLAIM_SCRIPT = `
local gen = redis.call('GET', KEYS[3]) or '0'
local epoch = redis.call('GET', KEYS[4]) or '0'
local stamp = gen .. '|' .. epoch .. '|'
local stored = redis.call('GET', KEYS[1])
if stored and string.sub(stored, 1, #stamp) == stamp then return {'covered'} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'claimed', gen, epoch} end
return {'taken'}`;

// KEYS: entry, claim, gen, epoch. ARGV: claim value, stamp at claim, payload, ttl ms, channel, settled msg, failed msg.
// An empty payload releases the claim without storing. "failed" is told only for a claim still ours: another
// process's claim on the key (ours lapsed) has waiters of its own.
const SETTLE_SCRIPT = `
local stored = 0
local stamp = (redis.call('GET', KEYS[3]) or '0') .. '|' .. (redis.call('GET', KEYS[4]) or '0') .. '|'
if ARGV[3] ~= '' and stamp == ARGV[2] then
  redis.call('SET', KEYS[1], stamp .. ARGV[3], 'PX', ARGV[4])
  stored = 1
end
local mine = redis.call('GET', KEYS[2]) == ARGV[1]
if mine then redis.call('DEL', KEYS[2]) end
if stored == 1 then redis.call('PUBLISH', ARGV[5], ARGV[6]) elseif mine then redis.call('PUBLISH', ARGV[5], ARGV[7]) end
return stored`;

export interface RedisSpeculationOptions {
  /** How long a claim holds: the longest a process waits for another's call; the holder's call may outlast it. */
  claimTimeoutMs: number;
  /** Default DEFAULT_LOOKUP_TIMEOUT_MS. */
  lookupTimeoutMs?: number;
}

type Waiter = (settled: boolean) => void;

export class RedisSpeculation implements SharedSpeculation {
  readonly #origin = randomUUID();
  readonly #waiters = new Map<string, Set<Waiter>>();
  /** Keys this process stored, by id: who to tell when another process served one. */
  readonly #ownKeys = new LRUCache<string, string>({ max: OWN_KEYS_REMEMBERED });
  readonly #invalidateListeners: ((tools: readonly string[], match?: Record<string, unknown>) => void)[] = [];
  readonly #servedListeners: ((key: string) => void)[] = [];
  readonly #budgetListeners: ((change: WasteBudgetChange) => void)[] = [];
  /** This process's waste budget changes not told yet (told at the end of the turn that made them). */
  #budgetChange: WasteBudgetChange | undefined;
  readonly #lookupTimeoutMs: number;

  constructor(
    private readonly redis: SharedRedis,
    private readonly options: RedisSpeculationOptions,
  ) {
    this.#lookupTimeoutMs = options.lookupTimeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS;
    redis.subscribe(CHANNEL, (message) => this.#received(message));
    // Cut off, no holder's message can arrive: the waiters make their calls themselves now, not at the deadline.
    redis.onReadyChange((ready) => {
      if (ready) return;
      for (const waiters of [...this.#waiters.values()]) for (const waiter of [...waiters]) waiter(false);
    });
    // Whatever this process wrote while cut off bumped no generation: nothing stored before may be served now.
    // Sent at once, not a turn later: a lookup made after the reconnect must reach Redis behind it.
    redis.onCommandsReady(() => {
      redis.roundTrip();
      redis.client
        .incr(redis.key('spec:epoch'))
        .catch((error: unknown) =>
          redis.logger.debug({ err: String(error) }, 'shared speculation: epoch not bumped'),
        );
    });
  }

  available(): boolean {
    return this.redis.ready;
  }

  onAvailabilityChange(listener: (available: boolean) => void): void {
    this.redis.onReadyChange(listener);
  }

  async lookup(keys: readonly string[], tool: string): Promise<SharedLookup> {
    const ids = keys.map(idOf);
    const found = await this.#read(ids, tool);
    if (found === undefined) return { kind: 'none' };
    for (const [index, key] of keys.entries()) {
      const entry = found.entries[index];
      if (entry) return { kind: 'entry', key, entry };
    }
    for (const [index, key] of keys.entries()) {
      const claim = found.claims[index];
      if (claim === undefined) continue;
      const id = ids[index] as string;
      return {
        kind: 'claimed',
        key,
        startedAtMs: claim.startedAtMs,
        wait: (signal) => this.#waitFor(id, tool, claim.startedAtMs + this.options.claimTimeoutMs, signal),
      };
    }
    return { kind: 'none' };
  }

  /** The valid stored results and the claims of `ids`, in one MGET; undefined when Redis is down or slow. */
  async #read(
    ids: readonly string[],
    tool: string,
  ): Promise<
    { entries: (SharedEntry | undefined)[]; claims: ({ startedAtMs: number } | undefined)[] } | undefined
  > {
    if (!this.redis.ready || ids.length === 0) return undefined;
    const names = [
      ...ids.map((id) => this.redis.key(`spec:e:${id}`)),
      ...ids.map((id) => this.redis.key(`spec:c:${id}`)),
      this.#genKey(tool),
      this.redis.key('spec:epoch'),
    ];
    const values = await this.#bounded(() => this.redis.client.mGet(names));
    if (values === undefined) return undefined;
    const stamp = `${values[names.length - 2] ?? '0'}|${values[names.length - 1] ?? '0'}|`;
    return {
      entries: ids.map((_, index) => entryOf(values[index], stamp)),
      claims: ids.map((_, index) => claimOf(values[ids.length + index])),
    };
  }

  async claim(key: string, tool: string): Promise<SharedClaim | 'covered' | undefined> {
    if (!this.redis.ready) return undefined;
    const id = idOf(key);
    const keys = this.#keysOf(id, tool);
    const value = `${this.#origin}|${Date.now()}`;
    const reply = await this.#bounded(() =>
      this.redis.client.eval(CLAIM_SCRIPT, {
        keys,
        arguments: [value, String(this.options.claimTimeoutMs)],
      }),
    );
    if (!Array.isArray(reply)) {
      // Given up on, the script may still have run and set the claim: left alone, it would hold every other
      // process's call for this key until it lapsed. Ended only if it is ours (the value names this attempt).
      this.#send(
        (client) =>
          client.eval(SETTLE_SCRIPT, {
            keys,
            arguments: [value, '', '', '1', this.redis.key(CHANNEL), '', this.#message('failed', id)],
          }),
        'release an unconfirmed claim',
      );
      return undefined;
    }
    if (reply[0] === 'covered' || reply[0] === 'taken') return 'covered';
    const stamp = `${String(reply[1])}|${String(reply[2])}|`;
    let done = false;
    const settle = (payload: string, ttlMs: number) => {
      if (done) return;
      done = true;
      if (payload !== '') this.#ownKeys.set(id, key);
      const message = (k: 'settled' | 'failed') => this.#message(k, id);
      this.#send(
        (client) =>
          client.eval(SETTLE_SCRIPT, {
            keys,
            arguments: [
              value,
              stamp,
              payload,
              String(Math.max(1, Math.round(ttlMs))),
              this.redis.key(CHANNEL),
              message('settled'),
              message('failed'),
            ],
          }),
        'settle',
      );
    };
    return {
      store: (result, ttlS, costMs) => {
        const payload = JSON.stringify({ s: Date.now(), c: costMs, r: result } satisfies Payload);
        // Too big to share: the waiters are told it failed and make the call themselves.
        settle(Buffer.byteLength(payload) > MAX_SHARED_RESULT_BYTES ? '' : payload, ttlS * 1000);
      },
      release: () => settle('', 1),
    };
  }

  async invalidate(tools: readonly string[], match: Record<string, unknown> | undefined): Promise<void> {
    if (tools.length === 0 || !this.redis.ready) return;
    const message = JSON.stringify({
      from: this.#origin,
      k: 'invalidate',
      tools: [...tools],
      ...(match === undefined ? {} : { match }),
    } satisfies Message);
    await this.#bounded(() => {
      const multi = this.redis.client.multi();
      for (const tool of tools) multi.incr(this.#genKey(tool));
      multi.publish(this.redis.key(CHANNEL), message);
      return multi.exec();
    });
  }

  onInvalidate(
    listener: (tools: readonly string[], match: Record<string, unknown> | undefined) => void,
  ): void {
    this.#invalidateListeners.push(listener);
  }

  served(key: string): void {
    this.redis.publish(
      CHANNEL,
      JSON.stringify({ from: this.#origin, k: 'served', id: idOf(key) } satisfies Message),
    );
  }

  onServedElsewhere(listener: (key: string) => void): void {
    this.#servedListeners.push(listener);
  }

  shareBudgetChange(change: WasteBudgetChange): void {
    if (!this.redis.ready) return;
    const pending = this.#budgetChange;
    if (pending !== undefined) {
      pending.decisions += change.decisions;
      pending.hits += change.hits;
      pending.waste += change.waste;
      return;
    }
    this.#budgetChange = { ...change };
    // Told at the end of this turn: a plan admits its calls in one turn, and the message then leaves in the same
    // write to Redis as the claims of the calls it admitted.
    queueMicrotask(() => {
      const told = this.#budgetChange;
      this.#budgetChange = undefined;
      if (told === undefined) return;
      const message: Message = {
        from: this.#origin,
        k: 'budget',
        n: told.decisions,
        h: told.hits,
        w: told.waste,
      };
      this.redis.publish(CHANNEL, JSON.stringify(message));
    });
  }

  onBudgetChange(listener: (change: WasteBudgetChange) => void): void {
    this.#budgetListeners.push(listener);
  }

  #message(k: 'settled' | 'failed', id: string): string {
    return JSON.stringify({ from: this.#origin, k, id } satisfies Message);
  }

  #keysOf(id: string, tool: string): string[] {
    return [
      this.redis.key(`spec:e:${id}`),
      this.redis.key(`spec:c:${id}`),
      this.#genKey(tool),
      this.redis.key('spec:epoch'),
    ];
  }

  #genKey(tool: string): string {
    return this.redis.key(`spec:g:${tool}`);
  }

  /** One command, given up after the lookup bound (undefined then, or when it fails): never an agent's delay. */
  async #bounded<T>(command: () => Promise<T>): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    try {
      this.redis.roundTrip();
      return await Promise.race([
        command(),
        new Promise<undefined>((resolve) => {
          // Given up only after one more look at the sockets: when this process's own event loop was the slow part
          // (a long synchronous task), the answer is there already and is read before this check runs.
          timer = setTimeout(() => setImmediate(() => resolve(undefined)), this.#lookupTimeoutMs);
        }),
      ]);
    } catch (error) {
      this.redis.logger.debug({ err: String(error) }, 'shared speculation: command failed or too slow');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A command nobody waits for; its failure costs sharing one result, never a call. */
  #send(command: (client: SharedRedis['client']) => Promise<unknown>, what: string): void {
    if (!this.redis.ready) return;
    this.redis.roundTrip();
    Promise.resolve()
      .then(() => command(this.redis.client))
      .catch((error: unknown) =>
        this.redis.logger.debug({ err: String(error), what }, 'shared speculation: command failed'),
      );
  }

  /** The claimed call's stored result, once its holder settles it or the claim lapses. */
  async #waitFor(
    id: string,
    tool: string,
    deadlineMs: number,
    signal: AbortSignal | undefined,
  ): Promise<SharedEntry | undefined> {
    signal?.throwIfAborted();
    const settled = await new Promise<boolean>((resolve, reject) => {
      const waiters = this.#waiters.get(id) ?? new Set<Waiter>();
      this.#waiters.set(id, waiters);
      const done = (value: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(waiter);
        if (waiters.size === 0 && this.#waiters.get(id) === waiters) this.#waiters.delete(id);
        resolve(value);
      };
      const waiter: Waiter = done;
      const onAbort = () => {
        done(false);
        reject(signal?.reason as Error);
      };
      // At the deadline one more look: the holder may have stored it with its message lost.
      const timer = setTimeout(() => done(true), Math.max(0, deadlineMs - Date.now()));
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.add(waiter);
    });
    if (!settled) return undefined;
    return (await this.#read([id], tool))?.entries[0];
  }

  #received(text: string): void {
    const message = parseMessage(text);
    if (message === undefined) return;
    if (message.k === 'invalidate') {
      if (message.from === this.#origin) return;
      for (const listener of this.#invalidateListeners) listener(message.tools, message.match);
      return;
    }
    if (message.k === 'budget') {
      if (message.from === this.#origin) return;
      const change = { decisions: message.n, hits: message.h, waste: message.w };
      for (const listener of this.#budgetListeners) listener(change);
      return;
    }
    if (message.k === 'served') {
      const key = this.#ownKeys.get(message.id);
      if (key === undefined || message.from === this.#origin) return;
      for (const listener of this.#servedListeners) listener(key);
      return;
    }
    const waiters = this.#waiters.get(message.id);
    if (waiters === undefined) return;
    for (const waiter of [...waiters]) waiter(message.k === 'settled');
  }
}

/** A cache key's id in Redis: fixed length, and the principal and arguments are not spelled out in key names. */
function idOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

function entryOf(value: string | null | undefined, stamp: string): SharedEntry | undefined {
  if (typeof value !== 'string' || !value.startsWith(stamp)) return undefined;
  try {
    const payload = JSON.parse(value.slice(stamp.length)) as Payload;
    return {
      result: payload.r,
      storedAtMs: payload.s,
      ...(payload.c === undefined ? {} : { costMs: payload.c }),
    };
  } catch {
    return undefined;
  }
}

function claimOf(value: string | null | undefined): { startedAtMs: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const startedAtMs = Number(value.slice(value.lastIndexOf('|') + 1));
  return Number.isFinite(startedAtMs) ? { startedAtMs } : undefined;
}

function parseMessage(text: string): Message | undefined {
  const value = parseChannelMessage(text);
  if (value === undefined) return undefined;
  if (value.k === 'invalidate')
    return Array.isArray(value.tools) && value.tools.every((tool) => typeof tool === 'string')
      ? (value as Message)
      : undefined;
  if ((value.k === 'settled' || value.k === 'failed' || value.k === 'served') && typeof value.id === 'string')
    return value as Message;
  if (value.k === 'budget')
    return Number.isSafeInteger(value.n) &&
      (value.n as number) >= 0 &&
      Number.isFinite(value.h) &&
      Number.isFinite(value.w)
      ? (value as Message)
      : undefined;
  return undefined;
}
