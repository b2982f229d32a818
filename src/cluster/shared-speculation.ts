// The planner's results run ahead, shared by every process of a cluster: stored results, in-flight claims and
// invalidations in Redis, so a call on B is answered from A's prefetch, or waits for A's prefetch still running.
//
// Keys (under the key prefix): `spec:e:<id>` a stored result, `spec:c:<id>` a claim, `spec:g:<tool>` the tool's
// write generation, `spec:epoch` bumped each time a process (re)connects. A stored result is served only while its
// tool's generation and the epoch are those it was claimed under: a write on any process bumps the generation (no
// key to find and delete), and a process that was cut off (whose writes bumped nothing) bumps the epoch when it
// returns, so nothing stored before can be served stale. Each multi-key step is one Lua script: a process dying
// mid-write leaves either the whole step or none of it.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type {
  SharedClaim,
  SharedEntry,
  SharedLookup,
  SharedSpeculation,
  WasteBudgetChange,
} from '../planner/index.js';
import { BudgetRelay } from './budget-relay.js';
import { ClaimWaiters } from './claim-waiters.js';
import { boundedCommand, sendUnwaited } from './speculation-commands.js';
import type { SharedRedis } from './shared-redis.js';
import {
  CHANNEL,
  CLAIM_SCRIPT,
  type Message,
  type Payload,
  SETTLE_SCRIPT,
  claimOf,
  entryOf,
  idOf,
  parseMessage,
} from './speculation-wire.js';

/** How long an agent's call waits for a lookup before going on without it. */
export const DEFAULT_LOOKUP_TIMEOUT_MS = 50;
/** A result larger than this stays in its process's own cache: one agent call should not move megabytes twice. */
export const MAX_SHARED_RESULT_BYTES = 1024 * 1024;
/** Own stored keys remembered (by id) to hear that another process served them. */
const OWN_KEYS_REMEMBERED = 10_000;

export interface RedisSpeculationOptions {
  /** How long a claim holds: the longest a process waits for another's call; the holder's call may outlast it. */
  claimTimeoutMs: number;
  /** Default DEFAULT_LOOKUP_TIMEOUT_MS. */
  lookupTimeoutMs?: number;
}

export class RedisSpeculation implements SharedSpeculation {
  readonly #origin = randomUUID();
  readonly #waiters = new ClaimWaiters();
  /** Keys this process stored, by id: who to tell when another process served one. */
  readonly #ownKeys = new LRUCache<string, string>({ max: OWN_KEYS_REMEMBERED });
  readonly #invalidateListeners: ((tools: readonly string[], match?: Record<string, unknown>) => void)[] = [];
  readonly #servedListeners: ((key: string) => void)[] = [];
  readonly #budget = new BudgetRelay((told) => {
    const message: Message = {
      from: this.#origin,
      k: 'budget',
      n: told.decisions,
      h: told.hits,
      w: told.waste,
    };
    this.redis.publish(CHANNEL, JSON.stringify(message));
  });
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
      this.#waiters.releaseAll();
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
    this.#budget.share(change);
  }

  onBudgetChange(listener: (change: WasteBudgetChange) => void): void {
    this.#budget.listen(listener);
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
  #bounded<T>(command: () => Promise<T>): Promise<T | undefined> {
    return boundedCommand(this.redis, this.#lookupTimeoutMs, command);
  }

  /** A command nobody waits for; its failure costs sharing one result, never a call. */
  #send(command: (client: SharedRedis['client']) => Promise<unknown>, what: string): void {
    sendUnwaited(this.redis, command, what);
  }

  /** The claimed call's stored result, once its holder settles it or the claim lapses. */
  async #waitFor(
    id: string,
    tool: string,
    deadlineMs: number,
    signal: AbortSignal | undefined,
  ): Promise<SharedEntry | undefined> {
    signal?.throwIfAborted();
    // At the deadline one more look: the holder may have stored it with its message lost.
    const settled = await this.#waiters.wait(id, deadlineMs, signal);
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
      this.#budget.heard({ decisions: message.n, hits: message.h, waste: message.w });
      return;
    }
    if (message.k === 'served') {
      const key = this.#ownKeys.get(message.id);
      if (key === undefined || message.from === this.#origin) return;
      for (const listener of this.#servedListeners) listener(key);
      return;
    }
    this.#waiters.tell(message.id, message.k === 'settled');
  }
}
