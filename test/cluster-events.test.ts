// Change events over Redis pub/sub between processes (here: two cluster members in one test process, each with its
// own connections): what one publishes reaches the other's listeners once, its own listeners once, and nothing of
// another prefix; with Redis gone events stay local, one warning is logged, and sharing resumes when it returns.
import type { ServerEvent } from '@modelcontextprotocol/server';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Cluster, joinCluster } from '../src/cluster/index.js';
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
import { PATIENCE_MS } from './support/patience.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const joined: Cluster[] = [];
/** The members not yet closed, by where their events channel is: what Redis must count as subscribed. */
const live: { url: string; channel: string }[] = [];

function member(
  options: { url?: string; prefix?: string; logger?: ReturnType<typeof createMemoryLogger> } = {},
) {
  const logger = options.logger ?? createMemoryLogger();
  const url = options.url ?? SHARED_REDIS_URL;
  const prefix = options.prefix ?? PREFIX;
  const cluster = joinCluster({
    redisUrl: url,
    endpoint: url,
    keyPrefix: prefix,
    logger,
  });
  joined.push(cluster);
  live.push({ url, channel: `${prefix}events` });
  const seen: ServerEvent[] = [];
  cluster.bus.subscribe((event) => seen.push(event));
  return { cluster, seen, logger, url };
}

/**
 * Both connections up and the subscriptions confirmed (Redis counts every live member on its channel): a PUBLISH
 * now reaches every member.
 */
async function settled(...members: { cluster: Cluster; url: string }[]): Promise<void> {
  for (const url of new Set(members.map((m) => m.url))) {
    const subscribers: Record<string, number> = {};
    for (const { channel } of live.filter((m) => m.url === url))
      subscribers[channel] = (subscribers[channel] ?? 0) + 1;
    await membersReady(
      members.filter((m) => m.url === url).map((m) => m.cluster),
      { url, subscribers },
    );
  }
}

/** Publishes a well-formed event on a channel, as another member would. */
async function publishRaw(channel: string, event: ServerEvent, url = SHARED_REDIS_URL): Promise<void> {
  const raw = createClient({ url });
  await raw.connect();
  try {
    await raw.publish(channel, JSON.stringify({ from: 'marker', event }));
  } finally {
    raw.destroy();
  }
}

afterEach(async () => {
  await Promise.all(joined.splice(0).map((cluster) => cluster.close()));
  // Gone from Redis too, so that the next test's counts are its own members'.
  const shared = live.splice(0).filter((m) => m.url === SHARED_REDIS_URL);
  if (redis.ok)
    await membersReady([], {
      subscribers: Object.fromEntries(shared.map((m) => [m.channel, 0])),
    });
});

afterAll(async () => {
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)(
  `change events shared over Redis${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('an event published on A reaches the listeners of A once and of B once', async () => {
      const a = member();
      const b = member();
      await settled(a, b);
      a.cluster.bus.publish({ kind: 'tools_list_changed' });
      a.cluster.bus.publish({ kind: 'resource_updated', uri: 'file:///notes.md' });
      // A's own listeners have it at once, without Redis.
      expect(a.seen).toEqual([
        { kind: 'tools_list_changed' },
        { kind: 'resource_updated', uri: 'file:///notes.md' },
      ]);
      await until(() => b.seen.length === 2, PATIENCE_MS, "B's events");
      expect(b.seen).toEqual(a.seen);
      // Its own echo from Redis is not delivered again on A: B's event, published once Redis had A's, reaches A
      // through Redis after any echo of A's own would have.
      b.cluster.bus.publish({ kind: 'prompts_list_changed' });
      await until(() => a.seen.length >= 3, PATIENCE_MS, "B's event on A");
      expect(a.seen).toEqual([
        { kind: 'tools_list_changed' },
        { kind: 'resource_updated', uri: 'file:///notes.md' },
        { kind: 'prompts_list_changed' },
      ]);
      expect(b.seen).toEqual(a.seen);
    });

    it('members of another prefix (another deployment on the same Redis) hear nothing', async () => {
      const a = member();
      const otherPrefix = testPrefix();
      const other = member({ prefix: otherPrefix });
      await settled(a, other);
      a.cluster.bus.publish({ kind: 'prompts_list_changed' });
      const b = member();
      await settled(b);
      a.cluster.bus.publish({ kind: 'resources_list_changed' });
      await until(() => b.seen.length === 1, PATIENCE_MS, "B's event");
      // A's events were in Redis before this one on the other prefix's channel: had the other member heard them,
      // they would have reached it first.
      await publishRaw(`${otherPrefix}events`, { kind: 'tools_list_changed' });
      await until(() => other.seen.length > 0, PATIENCE_MS, 'the event on its own prefix');
      expect(other.seen).toEqual([{ kind: 'tools_list_changed' }]);
      expect(b.seen).toEqual([{ kind: 'resources_list_changed' }]);
    });

    it('an event that cannot be sent (params JSON cannot hold) still reaches local listeners, and nothing throws', async () => {
      const a = member();
      await settled(a);
      const event = { kind: 'tools_list_changed', params: { size: 1n } } as unknown as ServerEvent;
      expect(() => a.cluster.bus.publish(event)).not.toThrow();
      expect(a.seen).toEqual([event]);
      await until(
        () => a.logger.records.some((record) => record.msg === 'event not shared'),
        PATIENCE_MS,
        "'event not shared' logged",
      );
    });

    it('what is not an event on the channel (another program, another version) is dropped, never thrown', async () => {
      const b = member();
      await settled(b);
      const raw = createClient({ url: SHARED_REDIS_URL });
      await raw.connect();
      try {
        const channel = `${PREFIX}events`;
        for (const junk of [
          'not json',
          '42',
          JSON.stringify({ from: 'x' }),
          JSON.stringify({ from: 'x', event: { kind: 'tools_list_changed', params: 'flat' } }),
          JSON.stringify({ from: 'x', event: { kind: 'resource_updated' } }),
          JSON.stringify({ from: 'x', event: { kind: 'shutdown_everything' } }),
        ])
          await raw.publish(channel, junk);
        await raw.publish(
          channel,
          JSON.stringify({ from: 'x', event: { kind: 'resource_updated', uri: 'a://b' } }),
        );
      } finally {
        raw.destroy();
      }
      await until(() => b.seen.length > 0, PATIENCE_MS, 'the valid event');
      expect(b.seen).toEqual([{ kind: 'resource_updated', uri: 'a://b' }]);
    });
  },
);

describe('Redis unreachable or gone mid-run', () => {
  it('unreachable from the start: events reach local listeners, nothing throws, one warning for the outage', async () => {
    const logger = createMemoryLogger();
    const url = `redis://127.0.0.1:${await freePort()}`;
    const a = member({ url, logger });
    const attempts = () => logger.records.filter((record) => record.msg === 'redis still unreachable').length;
    // Each publish between failed attempts to connect (the outage log notes each after the first).
    for (let i = 0; i < 5; i++) {
      expect(() => a.cluster.bus.publish({ kind: 'tools_list_changed' })).not.toThrow();
      const before = attempts();
      await until(() => attempts() > before, PATIENCE_MS, 'another failed attempt');
    }
    expect(a.seen).toHaveLength(5);
    expect(a.cluster.reachable()).toBe(false);
    const warnings = logger.records.filter((record) => record.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/^redis unreachable: serving from local state/);
  });

  const ownServer = redisServerInstalled();
  it.skipIf(!ownServer)(
    `Redis stopped mid-run and started again: local delivery throughout, one warning, "resumed", sharing again${ownServer ? '' : ' (skipped: no redis-server binary on the PATH to stop and start)'}`,
    async () => {
      const server = new PrivateRedis(await freePort());
      await server.start();
      try {
        const logger = createMemoryLogger();
        const a = member({ url: server.url, logger });
        const b = member({ url: server.url });
        await settled(a, b);
        a.cluster.bus.publish({ kind: 'tools_list_changed' });
        await until(() => b.seen.length === 1, PATIENCE_MS, 'the first shared event');

        await server.stop();
        await until(() => !a.cluster.reachable(), PATIENCE_MS, 'A to notice');
        a.cluster.bus.publish({ kind: 'prompts_list_changed' });
        expect(a.seen.map((event) => event.kind)).toEqual(['tools_list_changed', 'prompts_list_changed']);

        await server.start();
        await settled(a, b);
        a.cluster.bus.publish({ kind: 'resources_list_changed' });
        await until(() => b.seen.length === 2, PATIENCE_MS, 'the event after Redis returned');
        // The one published while Redis was down never reached B; the one after did.
        expect(b.seen.map((event) => event.kind)).toEqual(['tools_list_changed', 'resources_list_changed']);
        const said = logger.records.filter((record) => record.level === 'warn' || record.level === 'info');
        expect(said.map((record) => record.msg)).toEqual([
          // Said once, at the first subscription; not again when it is renewed after the outage.
          'cluster: change events shared over redis',
          expect.stringMatching(/^redis unreachable/),
          'redis reachable again: sharing resumed',
        ]);
      } finally {
        await server.stop();
      }
    },
  );
});
