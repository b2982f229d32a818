// The Redis side of the planner's shared results, with two cluster members in one test process (each with its own
// connections) on the machine's Redis: claims, stored results, waiting on another member's claim, writes that make
// stored results unservable, the epoch a (re)connecting member bumps, the size bound, "served elsewhere", the waste
// budget changes told to the others, and a Redis that is gone (every operation answers at once, nothing throws).
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Cluster, joinCluster } from '../src/cluster/index.js';
import type { SharedClaim, SharedSpeculation, WasteBudgetChange } from '../src/planner/index.js';
import { freePort } from './support/everything-http.js';
import { createMemoryLogger } from './support/in-memory.js';
import {
  PrivateRedis,
  SHARED_REDIS_URL,
  deleteKeys,
  redisServerInstalled,
  sharedRedis,
  testPrefix,
  membersReady,
  until,
} from './support/redis.js';
import { PATIENCE_MS, TEST_TIMEOUT_MS } from './support/patience.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const joined: Cluster[] = [];
/** Members not yet closed, by Redis: what must be subscribed to the channel. */
const live: string[] = [];
/** Members joined, by Redis: each bumps the epoch once its commands connection is up. */
const bumps = new Map<string, number>();
/** A claim lifetime no test here waits out: a claim that is gone within PATIENCE_MS was released, not lapsed. */
const LONG_CLAIM_MS = 2 * TEST_TIMEOUT_MS;

function member(
  url = SHARED_REDIS_URL,
  claimTimeoutMs = 3_000,
): { cluster: Cluster; spec: SharedSpeculation; url: string } {
  const cluster = joinCluster({
    redisUrl: url,
    endpoint: url,
    keyPrefix: PREFIX,
    logger: createMemoryLogger(),
    claimTimeoutMs,
  });
  joined.push(cluster);
  live.push(url);
  bumps.set(url, (bumps.get(url) ?? 0) + 1);
  const spec = cluster.shared.speculation;
  if (spec === undefined) throw new Error('joinCluster gave no shared speculation');
  return { cluster, spec, url };
}

/** Members connected, their subscriptions confirmed and their start-up epoch bumps done, as Redis shows them. */
async function ready(...members: { cluster: Cluster; url: string }[]): Promise<void> {
  for (const url of new Set(members.map((m) => m.url)))
    await membersReady(
      members.filter((m) => m.url === url).map((m) => m.cluster),
      {
        url,
        subscribers: { [`${PREFIX}spec`]: live.filter((at) => at === url).length },
        atLeast: { [`${PREFIX}spec:epoch`]: bumps.get(url) ?? 0 },
      },
    );
}

/** Waits until `b` finds `key` stored: a store is sent in the background. */
async function stored(spec: SharedSpeculation, key: string, tool: string): Promise<void> {
  await vi.waitFor(async () => expect((await spec.lookup([key], tool)).kind).toBe('entry'), PATIENCE_MS);
}

/** A claim the test needs to hold: anything else fails the test at once. */
async function claimed(spec: SharedSpeculation, key: string, tool: string): Promise<SharedClaim> {
  const claim = await spec.claim(key, tool);
  if (typeof claim !== 'object') throw new Error(`no claim on ${key}: ${String(claim)}`);
  return claim;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
let keys = 0;
/** A cache key of the test's own (the planner's are JSON arrays; any string does). */
const newKey = () => `["local","stream",${JSON.stringify(`tool-${keys++}`)},{}]`;

afterEach(async () => {
  await Promise.all(joined.splice(0).map((cluster) => cluster.close()));
  const shared = live.splice(0).filter((url) => url === SHARED_REDIS_URL);
  // Gone from Redis too, so that the next test's counts are its own members'.
  if (redis.ok && shared.length > 0) await membersReady([], { subscribers: { [`${PREFIX}spec`]: 0 } });
  // A private Redis is started afresh by each test: its epoch begins again.
  for (const url of [...bumps.keys()]) if (url !== SHARED_REDIS_URL) bumps.delete(url);
});

afterAll(async () => {
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)(
  `shared speculation on Redis${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('a claim keeps the other member from running the call, which waits for and gets its result', async () => {
      const a = member();
      const b = member();
      await ready(a, b);
      const key = newKey();
      const claim = await a.spec.claim(key, 'get_item');
      expect(claim).toMatchObject({ store: expect.any(Function) });
      expect(await b.spec.claim(key, 'get_item')).toBe('covered');
      const found = await b.spec.lookup([key], 'get_item');
      expect(found.kind).toBe('claimed');
      const waited = found.kind === 'claimed' ? found.wait() : undefined;
      if (typeof claim !== 'object') throw new Error('no claim');
      claim.store(text('one'), 60, 40);
      expect(await waited).toMatchObject({ result: text('one'), costMs: 40 });
      // Stored now: a lookup finds the entry, and a claim is not needed.
      expect(await b.spec.lookup(['other', key], 'get_item')).toMatchObject({ kind: 'entry', key });
      expect(await b.spec.claim(key, 'get_item')).toBe('covered');
    });

    it('a write between claim and store keeps the result from being stored; its waiter makes the call itself', async () => {
      const a = member();
      const b = member();
      await ready(a, b);
      const key = newKey();
      const claim = await claimed(a.spec, key, 'get_item');
      const found = await b.spec.lookup([key], 'get_item');
      const waited = found.kind === 'claimed' ? found.wait() : undefined;
      await b.spec.invalidate(['get_item'], { id: 'x' });
      claim.store(text('read before the write'), 60, 10);
      expect(await waited).toBeUndefined();
      expect(await b.spec.lookup([key], 'get_item')).toEqual({ kind: 'none' });
    });

    it('a write after the store makes the stored result unservable on every member; other tools keep theirs', async () => {
      const a = member();
      const b = member();
      await ready(a, b);
      const [item, list] = [newKey(), newKey()];
      for (const [key, tool] of [
        [item, 'get_item'],
        [list, 'list_items'],
      ] as const) {
        const claim = await claimed(a.spec, key, tool);
        claim.store(text(tool), 60, 5);
      }
      await stored(b.spec, item, 'get_item');
      await stored(b.spec, list, 'list_items');
      const heard: unknown[] = [];
      a.spec.onInvalidate((tools, match) => heard.push({ tools, match }));
      await b.spec.invalidate(['get_item'], { id: 'x' });
      expect(await a.spec.lookup([item], 'get_item')).toEqual({ kind: 'none' });
      expect((await a.spec.lookup([list], 'list_items')).kind).toBe('entry');
      await until(() => heard.length === 1, PATIENCE_MS, 'the invalidation message');
      expect(heard).toEqual([{ tools: ['get_item'], match: { id: 'x' } }]);
    });

    it('a member that (re)connects bumps the epoch: nothing stored before it is served', async () => {
      const a = member();
      await ready(a);
      const key = newKey();
      const claim = await claimed(a.spec, key, 'get_item');
      claim.store(text('before'), 60, 5);
      await stored(a.spec, key, 'get_item');
      const b = member();
      await ready(b);
      expect(await a.spec.lookup([key], 'get_item')).toEqual({ kind: 'none' });
    });

    it('a result over 1 MiB stays unshared, and its waiter is told at once', async () => {
      const a = member();
      const b = member();
      await ready(a, b);
      const key = newKey();
      const claim = await claimed(a.spec, key, 'get_item');
      const found = await b.spec.lookup([key], 'get_item');
      const waited = found.kind === 'claimed' ? found.wait() : undefined;
      claim.store(text('x'.repeat(1024 * 1024 + 1)), 60, 5);
      expect(await waited).toBeUndefined();
      expect(await b.spec.lookup([key], 'get_item')).toEqual({ kind: 'none' });
    });

    it('the member that stored a result hears when another served it', async () => {
      const a = member();
      const b = member();
      await ready(a, b);
      const key = newKey();
      const served: string[] = [];
      a.spec.onServedElsewhere((heard) => served.push(heard));
      const claim = await claimed(a.spec, key, 'get_item');
      claim.store(text('used'), 60, 5);
      await stored(b.spec, key, 'get_item');
      b.spec.served(key);
      await until(() => served.length === 1, PATIENCE_MS, 'the served message');
      expect(served).toEqual([key]);
    });

    it('waste budget changes told together reach the other members, never the teller; a malformed one is dropped', async () => {
      const a = member();
      const b = member();
      const c = member();
      await ready(a, b, c);
      const heard: Record<'a' | 'b' | 'c', WasteBudgetChange[]> = { a: [], b: [], c: [] };
      a.spec.onBudgetChange((change) => heard.a.push(change));
      b.spec.onBudgetChange((change) => heard.b.push(change));
      c.spec.onBudgetChange((change) => heard.c.push(change));
      // A plan's admissions in one turn, then the outcome of one of them: one message.
      a.spec.shareBudgetChange({ decisions: 1, hits: 0.8, waste: 0.2 });
      a.spec.shareBudgetChange({ decisions: 1, hits: 0, waste: 0 });
      a.spec.shareBudgetChange({ decisions: 0, hits: 0.2, waste: -0.2 });
      await until(() => heard.b.length === 1 && heard.c.length === 1, PATIENCE_MS, 'the budget message');
      for (const changes of [heard.b, heard.c])
        expect(changes).toEqual([{ decisions: 2, hits: expect.closeTo(1, 9), waste: expect.closeTo(0, 9) }]);
      const raw = createClient({ url: SHARED_REDIS_URL });
      await raw.connect();
      try {
        for (const bad of [
          { n: -1, h: 1, w: 0 },
          { n: 1, h: 'x', w: 0 },
          { n: 1.5, h: 1, w: 0 },
        ])
          await raw.publish(`${PREFIX}spec`, JSON.stringify({ from: 'someone', k: 'budget', ...bad }));
        await raw.publish(
          `${PREFIX}spec`,
          JSON.stringify({ from: 'someone', k: 'budget', n: 3, h: 0, w: 1 }),
        );
      } finally {
        await raw.quit();
      }
      await until(() => heard.b.length === 2, PATIENCE_MS, 'the well-formed message');
      expect(heard.b[1]).toEqual({ decisions: 3, hits: 0, waste: 1 });
      expect(heard.a).toEqual([{ decisions: 3, hits: 0, waste: 1 }]);
    });

    it('a claim answered while this process was busy is taken, or released once given up: never left holding others', async () => {
      const a = member(SHARED_REDIS_URL, LONG_CLAIM_MS);
      const b = member(SHARED_REDIS_URL, LONG_CLAIM_MS);
      await ready(a, b);
      const key = newKey();
      const claiming = a.spec.claim(key, 'get_item');
      // The script runs in Redis at once; this process reads its answer only after 120 ms of its own work.
      const until = Date.now() + 120;
      while (Date.now() < until);
      // Taken when its answer was read before the bound gave up (usual); given up and released when Redis itself
      // was slow too (a loaded machine): either way no claim is left for b to wait on.
      const claim = await claiming;
      expect(claim === undefined || typeof claim === 'object').toBe(true);
      if (typeof claim === 'object') claim.release();
      // The release is sent in the background; the claim would outlive the test's patience, had it been left.
      await vi.waitFor(
        async () => expect(await b.spec.lookup([key], 'get_item')).toEqual({ kind: 'none' }),
        PATIENCE_MS,
      );
    });

    it('a waiter stops waiting when the claim lapses (its holder died)', async () => {
      const a = member();
      const b = member();
      await ready(a, b);
      const key = newKey();
      const beforeClaim = Date.now();
      expect(typeof (await a.spec.claim(key, 'get_item'))).toBe('object');
      await a.cluster.close();
      const found = await b.spec.lookup([key], 'get_item');
      expect(found.kind).toBe('claimed');
      expect(found.kind === 'claimed' ? await found.wait() : 'not claimed').toBeUndefined();
      // Not before the claim's 3 s lifetime, counted from before it was made (a few ms for timer rounding).
      expect(Date.now() - beforeClaim).toBeGreaterThanOrEqual(3_000 - 5);
    });
  },
);

describe.skipIf(!redisServerInstalled())('shared speculation with Redis gone', () => {
  it('a claim Redis answers too late is given up and then released, not left to hold the others', async () => {
    const server = new PrivateRedis(await freePort());
    await server.start();
    const admin = createClient({ url: server.url });
    admin.on('error', () => undefined);
    try {
      await admin.connect();
      const a = member(server.url, LONG_CLAIM_MS);
      const b = member(server.url, LONG_CLAIM_MS);
      await ready(a, b);
      const key = newKey();
      // Writes (the claim script) wait 300 ms in Redis; the claim is given up after its 50 ms bound.
      await admin.sendCommand(['CLIENT', 'PAUSE', '300', 'WRITE']);
      expect(await a.spec.claim(key, 'get_item')).toBeUndefined();
      // Released once the pause ends; had it been left, the claim would outlive the test's patience.
      await vi.waitFor(
        async () => expect(await b.spec.lookup([key], 'get_item')).toEqual({ kind: 'none' }),
        PATIENCE_MS,
      );
    } finally {
      admin.destroy();
      await server.stop();
    }
  });

  it('answers every operation at once without throwing, releases waiters, and is available again after', async () => {
    const server = new PrivateRedis(await freePort());
    await server.start();
    try {
      const a = member(server.url);
      const b = member(server.url);
      await ready(a, b);
      const key = newKey();
      expect(typeof (await a.spec.claim(key, 'get_item'))).toBe('object');
      const found = await b.spec.lookup([key], 'get_item');
      const waited = found.kind === 'claimed' ? found.wait() : undefined;
      const changes: boolean[] = [];
      b.spec.onAvailabilityChange((available) => changes.push(available));
      await server.stop();
      expect(await waited).toBeUndefined();
      await until(() => !b.spec.available(), PATIENCE_MS, 'b to notice');
      expect(await b.spec.lookup([key], 'get_item')).toEqual({ kind: 'none' });
      expect(await b.spec.claim(newKey(), 'get_item')).toBeUndefined();
      await b.spec.invalidate(['get_item'], undefined);
      await server.start();
      await until(() => b.spec.available(), PATIENCE_MS, 'b to reconnect');
      expect(changes[0]).toBe(false);
      expect(changes.at(-1)).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
