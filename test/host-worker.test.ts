// Worker isolation runs the compiled host (dist/), since a worker thread imports plain JavaScript.
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../dist/config/index.js';
import { createHost } from '../dist/create-host.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { MODERN_VERSION } from './support/modern-wire.js';

const busyModule = fileURLToPath(new URL('./fixtures/plugins/busy.mjs', import.meta.url));

async function connectWorkerHost(deadlineMs: number) {
  const host = createHost({
    plugins: [
      { module: busyModule, isolation: 'worker', deadlines: { callTool: deadlineMs } },
      {
        plugin: {
          id: 'inline',
          version: '1.0.0',
          build: () => ({
            tools: () => [{ name: 'ping', inputSchema: { type: 'object' } }],
            callTool: async () => ({ content: [{ type: 'text', text: 'pong' }] }),
          }),
        },
      },
    ],
    logger: createMemoryLogger(),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'worker-test', version: '1.0.0' });
  await client.connect(clientSide);
  return { host, client };
}

describe('worker isolation', () => {
  it('runs the plugin off the main thread', async () => {
    const { host, client } = await connectWorkerHost(5_000);
    try {
      expect(Number(textOf(await client.callTool({ name: 'busy__thread', arguments: {} })))).toBeGreaterThan(
        0,
      );
    } finally {
      await host.close();
    }
  });

  it('ends a synchronous infinite loop at the deadline, keeps serving, and the plugin works again after', async () => {
    // Long enough for a fresh worker thread to start and answer within it on a loaded machine (300 ms was not).
    const { host, client } = await connectWorkerHost(2_000);
    try {
      expect(textOf(await client.callTool({ name: 'busy__count', arguments: {} }))).toBe('1');
      const spinning = client.callTool({ name: 'busy__spin', arguments: {} });
      // The main thread is free while the worker spins.
      expect(textOf(await client.callTool({ name: 'inline__ping', arguments: {} }))).toBe('pong');
      const timedOut = await spinning;
      expect(timedOut.isError).toBe(true);
      expect(textOf(timedOut)).toContain('tool "busy__spin" did not finish within its deadline of 2000 ms');
      // A fresh thread serves the next call: its module state starts over.
      const after = await client.callTool({ name: 'busy__count', arguments: {} });
      expect(after.isError).toBeFalsy();
      expect(textOf(after)).toBe('1');
    } finally {
      await host.close();
    }
  });
});

describe('worker isolation and enrichers', () => {
  it('keeps the categories a worker plugin enrichers serve visible, without their schema edits', async () => {
    const records: Record<string, unknown>[] = [];
    const host = createHost({
      plugins: [
        {
          module: fileURLToPath(new URL('./fixtures/plugins/categorised.mjs', import.meta.url)),
          isolation: 'worker',
        },
      ],
      logger: createMemoryLogger(records),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await host.connect(serverSide);
    const client = new Client({ name: 'worker-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['tracker__list_issues']);
      // The enum edit ran nowhere: enricher code cannot cross to the host's thread.
      expect(tools[0]?.inputSchema.properties?.state).toEqual({ type: 'string' });
      expect(records.map((record) => record.msg)).toContain(
        'isolation = "worker": enrichers keep their tools visible, but their schema edits and argument mapping are not applied',
      );
    } finally {
      await host.close();
    }
  });
});

describe('worker isolation and caching hints', () => {
  it("passes a worker plugin's own hints across the thread: they bound its lists and reads", async () => {
    const module = fileURLToPath(new URL('./fixtures/plugins/hinted.mjs', import.meta.url));
    const toml = [
      '[plugins.hinted]',
      `module = ${JSON.stringify(module)}`,
      'isolation = "worker"',
      'cache_ttl_ms = 60000',
      'cache_scope = "public"',
    ].join('\n');
    const host = createHost({
      config: parseConfig(toml, '/proj/foresight.toml', '/proj'),
      planner: { enabled: false },
      logger: createMemoryLogger(),
    });
    const http = await host.serveHttp({ port: 0 });
    const client = new Client(
      { name: 'modern-client', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN_VERSION } } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const bypass = { cacheMode: 'bypass' } as const;
      // The plugin says 5 s, private for its tools, nothing of its prompts, and 1 s (public) on its read.
      expect(await client.listTools(undefined, bypass)).toMatchObject({ ttlMs: 5000, cacheScope: 'private' });
      expect(await client.listPrompts(undefined, bypass)).toMatchObject({
        ttlMs: 60_000,
        cacheScope: 'public',
      });
      expect(await client.readResource({ uri: 'hinted://doc' }, bypass)).toMatchObject({
        ttlMs: 1000,
        cacheScope: 'public',
      });
    } finally {
      await client.close();
      await host.close();
    }
  });
});
