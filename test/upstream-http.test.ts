// The upstream plugin over Streamable HTTP, against server-everything serving HTTP on a loopback port.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type Connected, connect, textOf } from './support/in-memory.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let server: ChildProcess | undefined;
let url = '';
let connected: Connected | undefined;

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  const port = await freePort();
  server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  server.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
  await vi.waitFor(() => expect(said).toContain(`listening on port ${port}`), {
    timeout: 15_000,
    interval: 20,
  });
  url = `http://127.0.0.1:${port}/mcp`;
});

afterAll(() => {
  server?.kill();
});

afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

describe('upstream over Streamable HTTP: server-everything', () => {
  it('lists the tools and forwards a call', async () => {
    const config = parseConfig(
      ['[plugins.web]', 'use = "upstream"', `url = ${JSON.stringify(url)}`].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    connected = await connect({ config, planner: { enabled: false } });
    const c = connected;
    await vi.waitFor(
      async () => {
        const names = (await c.client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain('web__get-sum');
      },
      { timeout: 15_000, interval: 50 },
    );
    const added = await c.client.callTool({ name: 'web__get-sum', arguments: { a: 19, b: 23 } });
    expect(textOf(added)).toContain('42');
  });
});
