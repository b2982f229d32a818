// The audit log of a worker-isolated plugin's calls, a deadline among them. Worker isolation runs the compiled
// host (dist/), since a worker thread imports plain JavaScript.
import { type CallToolResult, Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type ForesightHost, createHost } from '../dist/create-host.js';
import { createMemoryLogger } from './support/in-memory.js';

let host: ForesightHost | undefined;
let dir: string | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await host?.close();
  host = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function auditFile(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'foresight-audit-'));
  return join(dir, 'audit.jsonl');
}

async function linesOf(file: string): Promise<Record<string, unknown>[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function call(c: Client, name: string): Promise<CallToolResult> {
  return c.callTool({ name, arguments: {} });
}

describe('audit log and worker isolation', () => {
  it('audits a worker-isolated plugin’s calls, a deadline as "timeout"', async () => {
    const file = await auditFile();
    host = createHost({
      plugins: [
        {
          module: fileURLToPath(new URL('./fixtures/plugins/busy.mjs', import.meta.url)),
          isolation: 'worker',
          // Long enough for a fresh worker thread to answer its first call on a loaded machine.
          deadlines: { callTool: 2_000 },
        },
      ],
      logger: createMemoryLogger(),
      audit: { enabled: true, file },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await host.connect(serverSide);
    const c = new Client({ name: 'audit-test', version: '1.0.0' });
    await c.connect(clientSide);
    clients.push(c);
    expect((await call(c, 'busy__count')).isError).toBeFalsy();
    expect((await call(c, 'busy__spin')).isError).toBe(true);
    expect(
      (await linesOf(file)).map(({ tool, plugin, outcome, error }) => ({ tool, plugin, outcome, error })),
    ).toEqual([
      { tool: 'busy__count', plugin: 'busy', outcome: 'ok', error: undefined },
      {
        tool: 'busy__spin',
        plugin: 'busy',
        outcome: 'timeout',
        error: { code: 'E_DEADLINE', kind: 'timeout' },
      },
    ]);
  });
});
