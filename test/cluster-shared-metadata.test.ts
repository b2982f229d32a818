// A tracker's refreshing metadata shared over Redis (here: three cluster members in one test process, each with its
// own connections and its own store): one load per TTL between them, Maps kept, every member's listeners told of a
// change; keys that differ (another token) never share; a loader that dies frees its lease; an unreadable copy is
// replaced; with Redis stalled or unreachable each member loads by itself, and they share again once it answers.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Cluster, joinCluster } from '../src/cluster/index.js';
import type { SharedPluginState } from '../src/contract/index.js';
import {
  type MetadataSharing,
  type RefreshingMetadata,
  createRefreshingMetadata,
  sharedMetadataKey,
} from '../src/plugins/kit/index.js';
import { freePort } from './support/everything-http.js';
import { createMemoryLogger } from './support/in-memory.js';
import { createClient } from 'redis';
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
const SCOPE = 'tracker/jira@0.0.0-test';
const joined: Cluster[] = [];
const stores: RefreshingMetadata<Labels>[] = [];

interface Labels {
  labels: Map<string, number>;
}

/** A tracker whose labels the test changes, counting the loads it answers. */
function tracker() {
  let labels: [string, number][] = [['bug', 1]];
  return {
    loads: 0,
    set(next: [string, number][]) {
      labels = next;
    },
    source(ttlMs: number) {
      return {
        what: 'the labels of the test project',
        ttlMs,
        load: () => {
          this.loads++;
          return Promise.resolve({ labels: new Map(labels) });
        },
        fingerprint: (data: Labels) => JSON.stringify([...data.labels]),
      };
    },
  };
}

function member(url = SHARED_REDIS_URL): { cluster: Cluster; state: SharedPluginState } {
  const cluster = joinCluster({
    redisUrl: url,
    endpoint: url,
    keyPrefix: PREFIX,
    logger: createMemoryLogger(),
  });
  joined.push(cluster);
  const state = cluster.shared.pluginState?.forPlugin(SCOPE);
  if (!state) throw new Error('joinCluster gave no plugin state');
  return { cluster, state };
}

const key = (token: string) =>
  sharedMetadataKey({ what: 'labels', baseUrl: 'https://jira.test', project: 'P' }, token);

function store(source: ReturnType<ReturnType<typeof tracker>['source']>, sharing: MetadataSharing) {
  const created = createRefreshingMetadata(source, createMemoryLogger(), sharing);
  stores.push(created);
  let changes = 0;
  created.onChange(() => changes++);
  return { store: created, changes: () => changes };
}

const labelsOf = (s: RefreshingMetadata<Labels>) => [...(s.current()?.labels ?? [])];

async function reachable(...clusters: Cluster[]): Promise<void> {
  await membersReady(clusters);
}

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.stop()));
  await Promise.all(joined.splice(0).map((cluster) => cluster.close()));
});

afterAll(async () => {
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)(
  `refreshing metadata shared over Redis${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('one load per TTL between three members; each takes it whole and tells its listeners of a change', async () => {
      const members = [member(), member(), member()];
      await reachable(...members.map((m) => m.cluster));
      const site = tracker();
      const sharing = { key: key('token-a') };
      const made = members.map((m) => store(site.source(3_000), { ...sharing, state: m.state }));
      for (const { store: s } of made) s.start();
      await vi.waitFor(() => expect(made.every(({ store: s }) => s.current() !== undefined)).toBe(true), {
        timeout: 5_000,
      });
      expect(site.loads).toBe(1);
      // Maps survive the trip through Redis: the enrichers read them as the loader built them.
      for (const { store: s } of made) {
        expect(s.current()?.labels).toBeInstanceOf(Map);
        expect(labelsOf(s)).toEqual([['bug', 1]]);
      }

      // The site changes: the next TTL's one load reaches every member, and each one's listeners.
      site.set([
        ['bug', 1],
        ['feature', 2],
      ]);
      await vi.waitFor(
        () =>
          expect(made.map(({ store: s }) => labelsOf(s))).toEqual(
            made.map(() => [
              ['bug', 1],
              ['feature', 2],
            ]),
          ),
        { timeout: 10_000, interval: 20 },
      );
      expect(site.loads).toBe(2);
      for (const { changes } of made) expect(changes()).toBe(2);
    });

    it('another token is another key: its members load for themselves', async () => {
      const [a, b] = [member(), member()];
      await reachable(a.cluster, b.cluster);
      const site = tracker();
      const first = store(site.source(60_000), { state: a.state, key: key('token-a2') });
      const second = store(site.source(60_000), { state: b.state, key: key('token-b2') });
      first.store.start();
      await vi.waitFor(() => expect(first.store.current()).toBeDefined());
      second.store.start();
      await vi.waitFor(() => expect(second.store.current()).toBeDefined());
      expect(site.loads).toBe(2);
    });

    it('a loader that dies mid-load frees its lease: another member loads once it lapses', async () => {
      const [dying, living] = [member(), member()];
      await reachable(dying.cluster, living.cluster);
      const sharedKey = key('token-c');
      const claim = await dying.state.claim(sharedKey, 300);
      expect(claim.kind).toBe('lease');
      // The process is gone: its connection drops, so the lease is no longer renewed.
      await dying.cluster.close();
      const site = tracker();
      const { store: s } = store(site.source(60_000), { state: living.state, key: sharedKey });
      s.start();
      await vi.waitFor(() => expect(s.current()).toBeDefined(), { timeout: 5_000 });
      expect(site.loads).toBe(1);
      if (claim.kind === 'lease') claim.release();
    });

    it('a shared copy it cannot read back is loaded again and replaced', async () => {
      const [writer, reader] = [member(), member()];
      await reachable(writer.cluster, reader.cluster);
      const sharedKey = key('token-d');
      expect(await writer.state.write(sharedKey, '{"fingerprint":"other","data":{}}', 60_000)).toBe(true);
      const site = tracker();
      const { store: s } = store(site.source(60_000), { state: reader.state, key: sharedKey });
      s.start();
      await vi.waitFor(() => expect(labelsOf(s)).toEqual([['bug', 1]]));
      expect(site.loads).toBe(1);
      const stored = await writer.state.read(sharedKey);
      expect(stored.kind === 'found' && JSON.parse(stored.value)).toMatchObject({
        fingerprint: '[["bug",1]]',
      });
    });
  },
);

describe.skipIf(!redisServerInstalled())('refreshing metadata with Redis slow', () => {
  it('each member loads by itself while Redis stalls, and they share again once it answers', async () => {
    // A redis-server of the test's own: CLIENT PAUSE stalls every client of the server it is sent to.
    const server = new PrivateRedis(await freePort());
    await server.start();
    try {
      const members = [member(server.url), member(server.url), member(server.url)];
      await reachable(...members.map((m) => m.cluster));
      const admin = createClient({ url: server.url });
      admin.on('error', () => undefined);
      await admin.connect();
      await admin.sendCommand(['CLIENT', 'PAUSE', '4000', 'ALL']);
      admin.destroy();
      const site = tracker();
      const made = members.map((m) => store(site.source(6_000), { state: m.state, key: key('token-f') }));
      for (const { store: s } of made) s.start();
      // Within the bound on waiting for Redis (SHARED_WAIT_MS), well before the pause ends.
      await vi.waitFor(() => expect(made.every(({ store: s }) => s.current() !== undefined)).toBe(true), {
        timeout: 3_500,
      });
      expect(site.loads).toBe(3);
      // Redis answers again before the TTL ends: the next reload is one, shared.
      site.set([['urgent', 3]]);
      await vi.waitFor(
        () => expect(made.map(({ store: s }) => labelsOf(s))).toEqual(made.map(() => [['urgent', 3]])),
        { timeout: 15_000, interval: 20 },
      );
      expect(site.loads).toBe(4);
    } finally {
      await Promise.all(stores.splice(0).map((s) => s.stop()));
      await Promise.all(joined.splice(0).map((cluster) => cluster.close()));
      await server.stop();
    }
  });
});

describe('refreshing metadata with Redis unreachable', () => {
  it('each member loads by itself, at once', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const site = tracker();
    const made = [member(url), member(url), member(url)].map((m) =>
      store(site.source(60_000), { state: m.state, key: key('token-e') }),
    );
    for (const { store: s } of made) s.start();
    await vi.waitFor(() => expect(made.every(({ store: s }) => s.current() !== undefined)).toBe(true));
    expect(site.loads).toBe(3);
  });
});
