// What crosses the worker boundary besides a call itself: subscriptions, health, the context's client roots,
// and whether the agent asked for progress.
// Worker isolation runs the compiled host (dist/), since a worker thread imports plain JavaScript.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type ClientOptions, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHost } from '../dist/create-host.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { PATIENCE_MS } from './support/patience.js';

// Reports every update of a subscribed URI until it is unsubscribed, as an upstream server would.
const relayPlugin = `
const subscribed = [];
const unsubscribed = [];
const timers = new Map();
let rootsChanges = 0;
let health = { state: 'starting', detail: 'warming up' };
const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] });

export default {
  id: 'relay',
  version: '1.0.0',
  build(context) {
    context.onRootsChanged?.(() => {
      rootsChanges += 1;
    });
    return {
      tools: () => ['state', 'warm', 'roots', 'steps'].map((name) => ({ name, inputSchema: { type: 'object' } })),
      async callTool(name, _args, rc) {
        if (name === 'steps') {
          await rc.reportProgress(1, 2);
          await rc.reportProgress(2, 2);
          return text({ progressRequested: rc.progressRequested, leftMs: rc.timeLeftMs() });
        }
        if (name === 'warm') {
          health = { state: 'ready' };
          return text('warm');
        }
        if (name === 'roots') return text((await context.clientRoots?.()) ?? null);
        return text({ subscribed, unsubscribed, rootsChanges });
      },
      resources: () => [{ uri: 'feed', name: 'feed' }],
      readResource: async (uri) => ({ contents: [{ uri, text: 'x' }] }),
      async subscribe(uri) {
        subscribed.push(uri);
        const timer = setInterval(() => context.notifyResourceUpdated(uri), 50);
        timer.unref();
        timers.set(uri, timer);
      },
      async unsubscribe(uri) {
        unsubscribed.push(uri);
        clearInterval(timers.get(uri));
        timers.delete(uri);
      },
      health: () => health,
    };
  },
};
`;

const plainPlugin = `
export default {
  id: 'plain',
  version: '1.0.0',
  build: () => ({
    tools: () => [{ name: 'ping', inputSchema: { type: 'object' } }],
    callTool: async () => ({ content: [{ type: 'text', text: 'pong' }] }),
  }),
};
`;

interface RelayState {
  subscribed: string[];
  unsubscribed: string[];
  rootsChanges: number;
}

let dir: string;
let relayModule: string;
let plainModule: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'foresight-worker-relay-'));
  relayModule = join(dir, 'relay.mjs');
  plainModule = join(dir, 'plain.mjs');
  await writeFile(relayModule, relayPlugin);
  await writeFile(plainModule, plainPlugin);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function connectWorkerHost(
  clientOptions: ClientOptions = { capabilities: {} },
  prepare?: (c: Client) => void,
) {
  const host = createHost({
    plugins: [
      { module: relayModule, isolation: 'worker' },
      { module: plainModule, isolation: 'worker' },
    ],
    logger: createMemoryLogger(),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'worker-relay-test', version: '1.0.0' }, clientOptions);
  prepare?.(client);
  await client.connect(clientSide);
  const state = async () =>
    JSON.parse(textOf(await client.callTool({ name: 'relay__state', arguments: {} }))) as RelayState;
  return { host, client, state };
}

const waitLong = { timeout: PATIENCE_MS, interval: 50 };

describe('worker relay', () => {
  it('relays subscribe and unsubscribe, and the plugin’s updates reach the subscribed client', async () => {
    const { host, client, state } = await connectWorkerHost();
    try {
      const { resources } = await client.listResources();
      const published = resources.find((resource) => resource.name === 'feed')?.uri;
      expect(published).toBeDefined();
      const uri = published as string;
      const updates: string[] = [];
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void updates.push(n.params.uri),
      );

      await client.subscribeResource({ uri });
      expect((await state()).subscribed).toEqual(['feed']);
      await vi.waitFor(() => expect(updates).toContain(uri), waitLong);

      await client.unsubscribeResource({ uri });
      expect((await state()).unsubscribed).toEqual(['feed']);
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('shows the health the worker plugin reports, and its change after a call', async () => {
    const { host, client } = await connectWorkerHost();
    try {
      const healthOf = (name: string) =>
        host.plugins.mountedPlugins().find((plugin) => plugin.name === name)?.health;
      expect(healthOf('relay')).toEqual({ state: 'starting', detail: 'warming up' });
      // A worker plugin without health() is taken as ready.
      expect(healthOf('plain')).toEqual({ state: 'ready' });
      await client.callTool({ name: 'relay__warm', arguments: {} });
      await vi.waitFor(() => expect(healthOf('relay')).toEqual({ state: 'ready' }), waitLong);
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('tells the worker plugin whether the agent asked for progress and how long its call has left, and relays its progress', async () => {
    const { host, client } = await connectWorkerHost();
    try {
      const progress: number[] = [];
      const before = Date.now();
      const asked = await client.callTool(
        { name: 'relay__steps', arguments: {} },
        { onprogress: (p) => progress.push(p.progress) },
      );
      const tookMs = Date.now() - before;
      const answer = JSON.parse(textOf(asked)) as { progressRequested: boolean; leftMs: number };
      expect(answer.progressRequested).toBe(true);
      expect(progress).toEqual([1, 2]);
      // The deadline crosses too: the default 30 s, in milliseconds, less at most the time the call took here
      // (its deadline began after `before`, and the plugin read it before the answer came back; 1 ms of rounding).
      expect(answer.leftMs).toBeGreaterThanOrEqual(30_000 - tookMs - 1);
      expect(answer.leftMs).toBeLessThanOrEqual(30_000);
      const unasked = await client.callTool({ name: 'relay__steps', arguments: {} });
      expect(JSON.parse(textOf(unasked))).toMatchObject({ progressRequested: false });
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('gives the worker plugin the client’s roots outside a call, and tells it when they change', async () => {
    const roots = [{ uri: 'file:///work/project', name: 'project' }];
    const { host, client, state } = await connectWorkerHost(
      { capabilities: { roots: { listChanged: true } } },
      (c) => c.setRequestHandler('roots/list', () => ({ roots })),
    );
    try {
      const fromWorker = await client.callTool({ name: 'relay__roots', arguments: {} });
      expect(JSON.parse(textOf(fromWorker))).toEqual(roots);

      const before = (await state()).rootsChanges;
      await client.sendRootsListChanged();
      await vi.waitFor(async () => expect((await state()).rootsChanges).toBeGreaterThan(before), waitLong);
    } finally {
      await client.close();
      await host.close();
    }
  });
});
