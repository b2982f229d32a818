// The upstream plugin over Streamable HTTP, against server-everything serving HTTP on a loopback port.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type EverythingHttp, startEverythingHttp } from './support/everything-http.js';
import { type Connected, connect, textOf } from './support/in-memory.js';

let server: EverythingHttp | undefined;
let url = '';
let connected: Connected | undefined;

beforeAll(async () => {
  server = await startEverythingHttp();
  url = server.url;
});

afterAll(async () => {
  await server?.kill();
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
