// PluginContext.sharedState through createHost({ shared }) and a real Redis: a plugin instance reads what the same
// instance wrote in another process (here: another host with its own cluster connections), an instance of another
// name does not, a worker-isolated plugin gets no store, and a host outside a cluster offers none.
import { type CallToolResult, Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import * as distCluster from '../dist/cluster/index.js';
import * as distHost from '../dist/create-host.js';
import { joinCluster } from '../src/cluster/index.js';
import type { MountSpec } from '../src/host/index.js';
import { type Connected, connect, createMemoryLogger } from './support/in-memory.js';
import { SHARED_REDIS_URL, deleteKeys, sharedRedis, testPrefix } from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const MODULE = fileURLToPath(new URL('./fixtures/plugins/shared-state.mjs', import.meta.url));
/** What each test opened, closed after it: the host (its client first), then its cluster connections. */
const opened: { cluster?: { close(): Promise<void> }; close(): Promise<void> }[] = [];

/** A host with the fixture mounted under each name given, in a cluster when `clustered`. */
async function host(mounts: MountSpec[], clustered = true): Promise<Connected> {
  const cluster = clustered
    ? joinCluster({
        redisUrl: SHARED_REDIS_URL,
        endpoint: SHARED_REDIS_URL,
        keyPrefix: PREFIX,
        logger: createMemoryLogger(),
      })
    : undefined;
  if (cluster) await vi.waitFor(() => expect(cluster.reachable()).toBe(true), { timeout: 5_000 });
  const connected = await connect({
    planner: { enabled: false },
    plugins: mounts,
    ...(cluster ? { shared: cluster.shared } : {}),
  });
  opened.push({ ...(cluster ? { cluster } : {}), close: () => connected.close() });
  return connected;
}

const mount = (name: string, isolation: MountSpec['isolation'] = 'inline'): MountSpec => ({
  name,
  module: MODULE,
  isolation,
});

async function call(connected: Connected, tool: string, args: Record<string, string>): Promise<string> {
  const result = (await connected.client.callTool({ name: tool, arguments: args })) as CallToolResult;
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

afterEach(async () => {
  for (const { cluster, close } of opened.splice(0)) {
    await close();
    await cluster?.close();
  }
});

afterAll(async () => {
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)(
  `PluginContext.sharedState in a cluster${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('the same instance shares across processes; another instance name does not', async () => {
      const a = await host([mount('tracker'), mount('other')]);
      const b = await host([mount('tracker'), mount('other')]);
      expect(await call(a, 'tracker__put', { key: 'k', value: 'from A' })).toBe('true');
      expect(await call(b, 'tracker__get', { key: 'k' })).toBe('from A');
      expect(await call(b, 'other__get', { key: 'k' })).toBe('missing');
    });

    it('a plugin run with isolation = "worker" gets none', async () => {
      // A worker thread imports plain JavaScript: the compiled host (dist/), as in host-worker.test.ts.
      const cluster = distCluster.joinCluster({
        redisUrl: SHARED_REDIS_URL,
        endpoint: SHARED_REDIS_URL,
        keyPrefix: PREFIX,
        logger: createMemoryLogger(),
      });
      const worker = distHost.createHost({
        logger: createMemoryLogger(),
        planner: { enabled: false },
        plugins: [mount('isolated', 'worker')],
        shared: cluster.shared,
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await worker.connect(serverSide);
      const client = new Client({ name: 'shared-state-test', version: '1.0.0' });
      await client.connect(clientSide);
      opened.push({
        cluster,
        close: async () => {
          await client.close();
          await worker.close();
        },
      });
      const result = (await client.callTool({
        name: 'isolated__get',
        arguments: { key: 'k' },
      })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'absent' }]);
    });
  },
);

describe('PluginContext.sharedState outside a cluster', () => {
  it('is absent', async () => {
    const connected = await host([mount('tracker')], false);
    expect(await call(connected, 'tracker__get', { key: 'k' })).toBe('absent');
  });
});
