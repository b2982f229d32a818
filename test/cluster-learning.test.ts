// Learned follow-up counts shared over a real Redis between cluster members (here: several members in one test
// process, each with its own connections, learner pool and sync): the totals are the sum of what each member
// counted, never a count twice (not on repeated exchanges, not for counts made during one, not after a restart);
// with Redis gone the deltas wait and are pushed when it returns; principals are capped and keys expire.
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Cluster, RedisSharedLearning, joinCluster } from '../src/cluster/index.js';
import { OutageLog } from '../src/cluster/outage-log.js';
import { RedisConnection } from '../src/cluster/redis-connection.js';
import { SharedRedis } from '../src/cluster/shared-redis.js';
import {
  type LearnedState,
  LearnerPool,
  LearningSync,
  type SharedLearning,
  positionPrior,
} from '../src/planner/index.js';
import { freePort } from './support/everything-http.js';
import { createMemoryLogger } from './support/in-memory.js';
import {
  PrivateRedis,
  SHARED_REDIS_URL,
  deleteKeys,
  redisServerInstalled,
  sharedRedis,
  testPrefix,
  until,
} from './support/redis.js';

const redis = await sharedRedis();
const ownServer = redis.ok && redisServerInstalled();
const PREFIX = testPrefix();
const joined: Cluster[] = [];
const connections: RedisConnection[] = [];

const FROM = 'ws__glob';
const TO = 'ws__read_file';
const ARGS = '{"path":"a.ts"}';
const PRIOR = 0.1;
const K = 8; // the learner's default prior strength

/** A cluster member's planner learning, wired as attachLearning wires it: the sync tracks the pool's learners and relays their calls. */
function member(
  options: { url?: string; prefix?: string; state?: LearnedState; maxPrincipals?: number } = {},
) {
  const logger = createMemoryLogger();
  const url = options.url ?? SHARED_REDIS_URL;
  const cluster = joinCluster({ redisUrl: url, endpoint: url, keyPrefix: options.prefix ?? PREFIX, logger });
  joined.push(cluster);
  return { cluster, logger, ...learning(cluster.shared.learning!, options) };
}

function learning(shared: SharedLearning, options: { state?: LearnedState; maxPrincipals?: number } = {}) {
  // The sync needs the pool and the pool's hook the sync: the hook finds it here once it exists.
  const late: { sync?: LearningSync } = {};
  const pool = new LearnerPool(
    {
      onBuild: (principal, learner) => late.sync?.track(principal, learner),
      onCall: (principal, stream, tool, argsKey) => late.sync?.relay(principal, stream, tool, argsKey),
      ...(options.maxPrincipals === undefined ? {} : { maxPrincipals: options.maxPrincipals }),
    },
    options.state,
  );
  const logger = createMemoryLogger();
  const sync = new LearningSync({ pool, shared, logger });
  late.sync = sync;
  return { pool, sync, syncLog: logger.records };
}

let sessions = 0;
/** `times` agent streams in which the agent called FROM, then TO with the arguments planned after it. */
function teach(pool: LearnerPool, principal: string, times: number): void {
  for (let i = 0; i < times; i += 1) {
    const learner = pool.of(principal);
    const session = `s${++sessions}`;
    const call = learner.observeCall(session, FROM, '');
    learner.observePlanned(call, [{ to: TO, prior: PRIOR, sets: [{ argsKey: ARGS, status: 'skipped' }] }]);
    learner.observeCall(session, TO, ARGS);
    learner.endSession(session);
  }
}

/** The estimate after `n` matched offers in all: (m·k + n) / (k + n). */
const estimate = (n: number) => (positionPrior(PRIOR, 0) * K + n) / (K + n);
const probability = (pool: LearnerPool, principal: string) =>
  pool.of(principal).probability(FROM, TO, 0, PRIOR);

async function hash(key: string, url = SHARED_REDIS_URL): Promise<Record<string, string>> {
  const client = createClient({ url });
  await client.connect();
  try {
    return await client.hGetAll(key);
  } finally {
    client.destroy();
  }
}

const EDGE = `${FROM}\u0000${TO}`;

afterEach(async () => {
  await Promise.all(joined.splice(0).map((cluster) => cluster.close()));
  for (const connection of connections.splice(0)) connection.close();
});

afterAll(async () => {
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)(
  `learned counts shared over Redis${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('the totals are the sum of every member’s counts, each counted once however often they exchange', async () => {
      const a = member();
      const b = member();
      await until(() => a.cluster.reachable() && b.cluster.reachable(), 5_000, 'redis');
      teach(a.pool, 'alice', 4);
      teach(b.pool, 'alice', 2);
      await a.sync.sync();
      await b.sync.sync();
      await a.sync.sync();
      expect(await hash(`${PREFIX}learn:p:alice`)).toMatchObject({
        [`c|${FROM}`]: '6',
        [`c|${TO}`]: '6',
        [`f|${EDGE}`]: '6',
        [`o0|${EDGE}`]: '6',
        [`m0|${EDGE}`]: '6',
        [`p|${EDGE}`]: String(PRIOR),
      });
      // Each member estimates from all 6: its own 4 (or 2) and the other's.
      expect(probability(a.pool, 'alice')).toBeCloseTo(estimate(6), 10);
      expect(probability(b.pool, 'alice')).toBeCloseTo(estimate(6), 10);
      for (let i = 0; i < 3; i += 1) await Promise.all([a.sync.sync(), b.sync.sync()]);
      expect((await hash(`${PREFIX}learn:p:alice`))[`o0|${EDGE}`]).toBe('6');
      expect(probability(a.pool, 'alice')).toBeCloseTo(estimate(6), 10);
      // What is shown adds the others' counts too; what the state file gets is the member's own alone.
      expect(a.pool.countsOf('alice')?.edges[0]).toMatchObject({ offered: [6, 0, 0], matched: [6, 0, 0] });
      expect(a.pool.toState().principals.alice?.edges[0]).toMatchObject({ offered: [4, 0, 0] });
      // Another principal's counts are its own: bob's one on B moves bob's estimate on A, not alice's.
      a.pool.of('bob');
      teach(b.pool, 'bob', 1);
      await b.sync.sync();
      await a.sync.sync();
      expect(probability(a.pool, 'bob')).toBeCloseTo(estimate(1), 10);
      expect(probability(a.pool, 'alice')).toBeCloseTo(estimate(6), 10);
    });

    it('counts made while an exchange is under way are pushed by the next one, not lost nor doubled', async () => {
      const prefix = testPrefix();
      const a = member({ prefix });
      await until(() => a.cluster.reachable(), 5_000, 'redis');
      teach(a.pool, 'carol', 3);
      // The exchange took its snapshot when it began: the 2 taught now are after it.
      const exchanging = a.sync.sync();
      teach(a.pool, 'carol', 2);
      await exchanging;
      expect((await hash(`${prefix}learn:p:carol`))[`o0|${EDGE}`]).toBe('3');
      expect(probability(a.pool, 'carol')).toBeCloseTo(estimate(5), 10);
      await a.sync.sync();
      expect((await hash(`${prefix}learn:p:carol`))[`o0|${EDGE}`]).toBe('5');
      expect(probability(a.pool, 'carol')).toBeCloseTo(estimate(5), 10);
      await deleteKeys(prefix);
    });

    it('a restarted member’s saved counts are not pushed again; a forgotten learner’s last counts still are', async () => {
      const prefix = testPrefix();
      const a = member({ prefix });
      await until(() => a.cluster.reachable(), 5_000, 'redis');
      teach(a.pool, 'dave', 4);
      await a.sync.sync();
      // The restart: a pool built from what the state file would hold (dave's 4, pushed already).
      const restarted = member({ prefix, state: a.pool.toState() });
      await until(() => restarted.cluster.reachable(), 5_000, 'redis');
      teach(restarted.pool, 'dave', 1);
      await restarted.sync.sync();
      expect((await hash(`${prefix}learn:p:dave`))[`o0|${EDGE}`]).toBe('5');
      expect(probability(restarted.pool, 'dave')).toBeCloseTo(estimate(5), 10);

      // A pool of one principal forgets erin's learner when frank comes: erin's counts still go out.
      const small = member({ prefix, maxPrincipals: 1 });
      await until(() => small.cluster.reachable(), 5_000, 'redis');
      teach(small.pool, 'erin', 2);
      teach(small.pool, 'frank', 1);
      expect(small.pool.peek('erin')).toBeUndefined();
      await small.sync.sync();
      expect((await hash(`${prefix}learn:p:erin`))[`o0|${EDGE}`]).toBe('2');
      expect((await hash(`${prefix}learn:p:frank`))[`o0|${EDGE}`]).toBe('1');
      await deleteKeys(prefix);
    });

    it('many principals go out in batches, each principal’s totals right; close pushes what is left', async () => {
      const prefix = testPrefix();
      const a = member({ prefix });
      const b = member({ prefix });
      await until(() => a.cluster.reachable() && b.cluster.reachable(), 5_000, 'redis');
      const principals = Array.from({ length: 120 }, (_, i) => `many-${i}`);
      principals.forEach((principal, i) => teach(a.pool, principal, 1 + (i % 3)));
      for (const principal of principals) b.pool.of(principal);
      await a.sync.sync();
      await b.sync.sync();
      principals.forEach((principal, i) =>
        expect(probability(b.pool, principal)).toBeCloseTo(estimate(1 + (i % 3)), 10),
      );
      // The last exchange, as a process makes it when it stops: what was taught since goes out.
      teach(a.pool, 'many-0', 2);
      await a.sync.close();
      expect((await hash(`${prefix}learn:p:many-0`))[`o0|${EDGE}`]).toBe('3');
      await deleteKeys(prefix);
    });

    it('a call relayed from another member reaches the open windows of its stream; a 2025 session’s is not relayed', async () => {
      const prefix = testPrefix();
      const a = member({ prefix });
      const b = member({ prefix });
      const relaying = (m: typeof a) =>
        m.logger.records.some((record) => String(record.msg).startsWith('cluster: agent calls relayed'));
      await until(() => relaying(a) && relaying(b), 5_000, 'the relay subscriptions');
      // A 2026-07-28 stream (its id the same on every process) and a 2025 session (a UUID of one process).
      for (const stream of ['["address:10.0.0.7","agent@1"]', 'c0ffee00-0000-4000-8000-000000000000']) {
        const learner = a.pool.of('hank');
        const call = learner.observeCall(stream, FROM, '');
        learner.observePlanned(call, [
          { to: TO, prior: PRIOR, sets: [{ argsKey: ARGS, status: 'skipped' }] },
        ]);
        b.pool.of('hank').observeCall(stream, TO, ARGS);
      }
      await until(
        () =>
          a.pool
            .of('hank')
            .toState()
            .edges.some((edge) => edge.followed > 0),
        5_000,
        'the relayed read',
      );
      const learner = a.pool.of('hank');
      learner.endSession('["address:10.0.0.7","agent@1"]');
      learner.endSession('c0ffee00-0000-4000-8000-000000000000');
      // Two windows offered the read; only the modern stream's saw it, from B. A counted no read call itself.
      expect(learner.toState().edges).toEqual([
        expect.objectContaining({ from: FROM, to: TO, followed: 1, offered: [2, 0, 0], matched: [1, 0, 0] }),
      ]);
      expect(learner.toState().tools[TO]).toBeUndefined();
      await deleteKeys(prefix);
    });

    it('principals past the cap lose their counts, the least recently pushed first; every key has a TTL', async () => {
      const prefix = testPrefix();
      const logger = createMemoryLogger();
      const outages = new OutageLog(logger, 'redis');
      const commands = new RedisConnection({ url: SHARED_REDIS_URL, name: 'commands', outages });
      const subscriber = new RedisConnection({ url: SHARED_REDIS_URL, name: 'events', outages });
      connections.push(commands, subscriber);
      commands.start();
      subscriber.start();
      const shared = new RedisSharedLearning(
        new SharedRedis({ commands, subscriber, keyPrefix: prefix, logger }),
        { maxPrincipals: 2, ttlMs: 60_000 },
      );
      await until(() => commands.ready, 5_000, 'redis');
      const { pool, sync } = learning(shared);
      for (const principal of ['p1', 'p2', 'p3']) {
        teach(pool, principal, 1);
        await sync.sync();
      }
      const client = createClient({ url: SHARED_REDIS_URL });
      await client.connect();
      try {
        expect(await client.exists(`${prefix}learn:p:p1`)).toBe(0);
        expect(await client.zRange(`${prefix}learn:principals`, 0, -1)).toEqual(['p2', 'p3']);
        for (const key of [`${prefix}learn:p:p2`, `${prefix}learn:p:p3`, `${prefix}learn:principals`]) {
          const ttl = await client.pTTL(key);
          expect(ttl).toBeGreaterThan(0);
          expect(ttl).toBeLessThanOrEqual(60_000);
        }
      } finally {
        client.destroy();
      }
      await deleteKeys(prefix);
    });

    it.skipIf(!ownServer)(
      `Redis stopped: learning goes on locally, the deltas wait, and are pushed once it returns${ownServer ? '' : ' (skipped: no redis-server binary on the PATH)'}`,
      async () => {
        const server = new PrivateRedis(await freePort());
        await server.start();
        try {
          const a = member({ url: server.url });
          const b = member({ url: server.url });
          await until(() => a.cluster.reachable() && b.cluster.reachable(), 5_000, 'redis');
          teach(a.pool, 'gina', 2);
          await a.sync.sync();
          await server.stop();
          await until(() => !a.cluster.reachable(), 5_000, 'the outage');
          teach(a.pool, 'gina', 3);
          // Refused at once, nothing thrown: the learner goes on with its own counts.
          await a.sync.sync();
          expect(probability(a.pool, 'gina')).toBeCloseTo(estimate(5), 10);
          await server.start();
          await until(() => a.cluster.reachable() && b.cluster.reachable(), 10_000, 'redis again');
          await a.sync.sync();
          b.pool.of('gina');
          await b.sync.sync();
          // One exchange refused during the outage; the next loaded the script again (Redis forgot it) and worked.
          expect(a.syncLog.filter((record) => record.level === 'debug')).toEqual([
            expect.objectContaining({ reason: 'redis unreachable', pending: 1 }),
          ]);
          // This redis-server keeps nothing across a restart: the 2 pushed before are gone, the 3 that waited came.
          expect((await hash(`${PREFIX}learn:p:gina`, server.url))[`o0|${EDGE}`]).toBe('3');
          expect(probability(b.pool, 'gina')).toBeCloseTo(estimate(3), 10);
        } finally {
          await server.stop();
        }
      },
    );
  },
);
