// Worker isolation runs the compiled host (dist/), since a worker thread imports plain JavaScript.
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createHost } from '../dist/create-host.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';

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
    const { host, client } = await connectWorkerHost(300);
    try {
      expect(textOf(await client.callTool({ name: 'busy__count', arguments: {} }))).toBe('1');
      const spinning = client.callTool({ name: 'busy__spin', arguments: {} });
      // The main thread is free while the worker spins.
      expect(textOf(await client.callTool({ name: 'inline__ping', arguments: {} }))).toBe('pong');
      const timedOut = await spinning;
      expect(timedOut.isError).toBe(true);
      expect(textOf(timedOut)).toContain('tool "busy__spin" did not finish within its deadline of 300 ms');
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
