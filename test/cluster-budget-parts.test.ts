// The shared budgets' parts over a real Redis, each cluster member here with its own connections as a process has:
// slots of the per-host cap (limit held across members, given back, lapsing with a dead holder's lease, renewed for
// a live one), the dispatcher on them (a job waits for a slot another member holds; a job cancelled while it waits
// never runs and holds nothing), provider rate limits (a later reset wins, bounded TTL), and Redis unreachable.
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Cluster, MAX_BLOCK_MS, joinCluster } from '../src/cluster/index.js';
import { Dispatcher, type SharedSlots, type SlotToken } from '../src/planner/index.js';
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
} from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const HOST = 'api.example.test';
const joined: Cluster[] = [];

function member(options: { url?: string; slotLeaseMs?: number } = {}): Cluster {
  const url = options.url ?? SHARED_REDIS_URL;
  const cluster = joinCluster({
    redisUrl: url,
    endpoint: url,
    keyPrefix: PREFIX,
    logger: createMemoryLogger(),
    ...(options.slotLeaseMs === undefined ? {} : { slotLeaseMs: options.slotLeaseMs }),
  });
  joined.push(cluster);
  return cluster;
}

async function connected(...clusters: Cluster[]): Promise<void> {
  await membersReady(clusters);
}

function slotsOf(cluster: Cluster): SharedSlots {
  const slots = cluster.shared.budgets?.slots;
  if (!slots) throw new Error('a cluster member shares slots');
  return slots;
}

function isToken(answer: SlotToken | 'full' | 'unavailable'): answer is SlotToken {
  return typeof answer === 'object';
}

const newClient = () => createClient({ url: SHARED_REDIS_URL });

async function withRedis<T>(use: (client: ReturnType<typeof newClient>) => Promise<T>): Promise<T> {
  const client = newClient();
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.destroy();
  }
}

afterEach(async () => {
  await Promise.all(joined.splice(0).map((cluster) => cluster.close()));
  if (redis.ok) await deleteKeys(PREFIX);
});

afterAll(async () => {
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)('shared slots of the per-host cap', () => {
  it('hold the limit across members; a slot given back is free to any', async () => {
    const [a, b] = [member(), member()];
    await connected(a, b);
    const first = await slotsOf(a).acquire(HOST, 2);
    const second = await slotsOf(b).acquire(HOST, 2);
    expect(isToken(first) && isToken(second)).toBe(true);
    expect(await slotsOf(a).acquire(HOST, 2)).toBe('full');
    expect(await slotsOf(b).acquire(HOST, 2)).toBe('full');
    // Another host has slots of its own.
    expect(isToken(await slotsOf(a).acquire('other.example.test', 2))).toBe(true);
    if (isToken(second)) slotsOf(b).release(second);
    await vi.waitFor(async () => expect(isToken(await slotsOf(a).acquire(HOST, 2))).toBe(true));
    // The set carries the lease as its TTL: it never outlives its slots.
    const ttlMs = await withRedis((client) => client.pTTL(`${PREFIX}slots:${HOST}`));
    expect(ttlMs).toBeGreaterThan(0);
    expect(ttlMs).toBeLessThanOrEqual(10_000);
  });

  it("lapse with a dead holder's lease, while a live holder's are renewed", async () => {
    const leaseMs = 300;
    const [dead, live, other] = [
      member({ slotLeaseMs: leaseMs }),
      member({ slotLeaseMs: leaseMs }),
      member(),
    ];
    await connected(dead, live, other);
    expect(isToken(await slotsOf(dead).acquire(HOST, 1))).toBe(true);
    expect(isToken(await slotsOf(live).acquire('renewed.example.test', 1))).toBe(true);
    // The process dies: no release, no renewal.
    await dead.close();
    expect(await slotsOf(other).acquire(HOST, 1)).toBe('full');
    await vi.waitFor(async () => expect(isToken(await slotsOf(other).acquire(HOST, 1))).toBe(true), {
      timeout: 3_000,
      interval: 50,
    });
    // Three more leases pass: the live holder's slot is still held, renewed each third of one.
    await new Promise((resolve) => setTimeout(resolve, 3 * leaseMs));
    expect(await slotsOf(other).acquire('renewed.example.test', 1)).toBe('full');
  });
});

describe.skipIf(!redis.ok)('the dispatcher on shared slots', () => {
  it('starts a job only when the host has a slot across members; a job cancelled while waiting never runs', async () => {
    const [a, b] = [member(), member()];
    await connected(a, b);
    const options = { maxInFlight: 4, perHostInFlight: 1, thinkWindowMs: 30_000 };
    const first = new Dispatcher({ ...options, slots: slotsOf(a) });
    const second = new Dispatcher({ ...options, slots: slotsOf(b) });
    const started: string[] = [];
    const dropped: string[] = [];
    let finishA: () => void = () => undefined;
    const job = (name: string, done?: Promise<void>) => ({
      host: HOST,
      run: async () => {
        started.push(name);
        await done;
      },
      drop: () => dropped.push(name),
    });
    first.submit(job('a', new Promise<void>((resolve) => (finishA = resolve))));
    await vi.waitFor(() => expect(started).toEqual(['a']));
    second.submit(job('b'));
    const c = second.submit(job('c'));
    // b and c wait in b's queue: a holds the host's one slot on another member.
    await vi.waitFor(() => expect(second.queued).toBe(2));
    expect(c.cancel()).toBe(true);
    finishA();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b']));
    await vi.waitFor(() => expect(second.inFlight + second.queued + first.inFlight).toBe(0));
    expect(started).not.toContain('c');
    expect(dropped).toEqual([]);
    // Every slot was given back.
    await vi.waitFor(async () =>
      expect(await withRedis((client) => client.zCard(`${PREFIX}slots:${HOST}`))).toBe(0),
    );
    first.close();
    second.close();
  });
});

describe.skipIf(!redis.ok)('shared provider rate limits', () => {
  it('tell every member until the reset; a sooner reset never shortens a known one', async () => {
    const [a, b, c] = [member(), member(), member()];
    await connected(a, b, c);
    const limits = (cluster: Cluster) => cluster.shared.budgets?.rateLimits;
    const key = 'github:api.github.com:0123456789abcdef';
    expect(await limits(b)?.blockedUntil(key)).toBeUndefined();
    const untilMs = Date.now() + 60_000;
    limits(a)?.block(key, untilMs);
    await vi.waitFor(async () => expect(await limits(b)?.blockedUntil(key)).toBe(untilMs));
    limits(b)?.block(key, untilMs - 30_000);
    // c knows nothing of its own: what it reads is Redis's, still the later reset.
    await vi.waitFor(async () =>
      expect(await withRedis((client) => client.get(`${PREFIX}ratelimit:${key}`))).toBe(String(untilMs)),
    );
    expect(await limits(c)?.blockedUntil(key)).toBe(untilMs);
    // A reset far off is held at most MAX_BLOCK_MS; one already past is not written at all.
    limits(a)?.block('far', Date.now() + 10 * MAX_BLOCK_MS);
    limits(a)?.block('past', Date.now() - 1_000);
    await vi.waitFor(async () =>
      expect(await withRedis((client) => client.pTTL(`${PREFIX}ratelimit:far`))).toBeGreaterThan(0),
    );
    expect(await withRedis((client) => client.pTTL(`${PREFIX}ratelimit:far`))).toBeLessThanOrEqual(
      MAX_BLOCK_MS,
    );
    expect(await withRedis((client) => client.exists(`${PREFIX}ratelimit:past`))).toBe(0);
  });
});

describe('shared budgets with Redis unreachable', () => {
  it('answer at once that they cannot help, and never throw', async () => {
    const down = member({ url: `redis://127.0.0.1:${await freePort()}` });
    expect(await slotsOf(down).acquire(HOST, 2)).toBe('unavailable');
    const limits = down.shared.budgets?.rateLimits;
    expect(await limits?.blockedUntil('github:api.github.com:x')).toBeUndefined();
    limits?.block('github:api.github.com:x', Date.now() + 60_000);
    // What this process was told itself it still knows.
    expect(await limits?.blockedUntil('github:api.github.com:x')).toBeGreaterThan(Date.now());
    // The dispatcher keeps its own cap: one job per host at once, the next when it ends.
    const dispatcher = new Dispatcher({
      maxInFlight: 4,
      perHostInFlight: 1,
      thinkWindowMs: 30_000,
      slots: slotsOf(down),
    });
    const started: string[] = [];
    let finish: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (finish = resolve));
    for (const name of ['x', 'y'])
      dispatcher.submit({
        host: HOST,
        run: async () => {
          started.push(name);
          await held;
        },
        drop: () => undefined,
      });
    await vi.waitFor(() => expect(started).toEqual(['x']));
    expect(dispatcher.queued).toBe(1);
    finish();
    await vi.waitFor(() => expect(started).toEqual(['x', 'y']));
    dispatcher.close();
  });
});

describe.skipIf(!redisServerInstalled())('shared budgets when Redis goes and comes back', () => {
  it('fall back while it is gone and share again once it returns', async () => {
    const server = new PrivateRedis(await freePort());
    await server.start();
    try {
      const [a, b] = [member({ url: server.url }), member({ url: server.url })];
      await connected(a, b);
      expect(isToken(await slotsOf(a).acquire(HOST, 1))).toBe(true);
      expect(await slotsOf(b).acquire(HOST, 1)).toBe('full');
      await server.stop();
      await vi.waitFor(() => expect(a.reachable() || b.reachable()).toBe(false), { timeout: 5_000 });
      expect(await slotsOf(b).acquire(HOST, 1)).toBe('unavailable');
      expect(await b.shared.budgets?.rateLimits?.blockedUntil('k')).toBeUndefined();
      // A new Redis knows nothing of the old slots: sharing starts again from there.
      await server.start();
      await connected(a, b);
      expect(isToken(await slotsOf(b).acquire(HOST, 1))).toBe(true);
      expect(await slotsOf(a).acquire(HOST, 1)).toBe('full');
      a.shared.budgets?.rateLimits?.block('k', Date.now() + 60_000);
      await vi.waitFor(async () =>
        expect(await b.shared.budgets?.rateLimits?.blockedUntil('k')).toBeGreaterThan(Date.now()),
      );
    } finally {
      await server.stop();
    }
  });
});
