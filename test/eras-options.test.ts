// Serving options of the two eras end to end: refusing 2025 clients, a worker-isolated plugin asking a
// 2026-07-28 client for input, and a tool list whose order does not depend on when each plugin's catalog arrives.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
// Worker threads load the compiled host (they cannot run TypeScript sources).
import { createHost as createCompiledHost } from '../dist/create-host.js';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { definePlugin } from '../src/index.js';
import { connect, createMemoryLogger, textOf } from './support/in-memory.js';
import { MODERN_VERSION, modernMeta, modernPost } from './support/modern-wire.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ASKS = fileURLToPath(new URL('./fixtures/plugins/asks.mjs', import.meta.url));
const INITIALIZE = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'old-client', version: '1.0.0' },
};

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostFor(
  toml: string,
  create: typeof createHost | typeof createCompiledHost = createHost,
): Promise<Pick<ForesightHost, 'serveHttp' | 'close'>> {
  const host = create({
    config: parseConfig(toml, '/proj/foresight.toml', '/proj', {}),
    logger: createMemoryLogger(),
  });
  cleanups.push(() => host.close());
  return host;
}

describe('legacy_clients = "reject"', () => {
  const TOML = `[server]\nlegacy_clients = "reject"\n\n[plugins.asks]\nmodule = ${JSON.stringify(ASKS)}\n`;

  it('over HTTP: initialize is refused with the supported revisions, and 2026-07-28 requests are served', async () => {
    const host = await hostFor(TOML);
    const http = await host.serveHttp({ port: 0 });
    const refused = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      id: 1,
      error: { code: -32022, data: { supported: [MODERN_VERSION], requested: '2025-11-25' } },
    });
    const legacy = new Client({ name: 'old', version: '1' });
    await expect(legacy.connect(new StreamableHTTPClientTransport(new URL(http.url)))).rejects.toThrow();
    expect(http.sessionCount()).toBe(0);
    const served = await modernPost(http.url, 'tools/list');
    expect(served.response?.result).toMatchObject({ resultType: 'complete' });
  });

  it('over stdio: the 2025 opening is refused, and the connection stays open for a 2026-07-28 one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'foresight-reject-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const config = join(dir, 'foresight.toml');
    await writeFile(config, TOML);
    const child = spawn(process.execPath, [CLI, 'serve', '--config', config], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    cleanups.push(async () => child.kill('SIGTERM'));
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const line of parts) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    const send = (message: object) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: INITIALIZE });
    await expect
      .poll(() => lines.find((line) => line.id === 1), { timeout: 10_000 })
      .toMatchObject({
        error: { code: -32022, data: { supported: [MODERN_VERSION] } },
      });
    send({ id: 2, method: 'tools/list', params: { _meta: modernMeta() } });
    await expect
      .poll(() => lines.find((line) => line.id === 2), { timeout: 10_000 })
      .toMatchObject({
        result: { resultType: 'complete', tools: [{ name: 'asks__ask' }, { name: 'asks__began' }] },
      });
  });
});

describe('a worker-isolated plugin asking a 2026-07-28 client', () => {
  it('answers input_required under its own key, and the retry resumes the call in the worker', async () => {
    const host = await hostFor(
      `[plugins.asks]\nmodule = ${JSON.stringify(ASKS)}\nisolation = "worker"\n`,
      createCompiledHost,
    );
    const http = await host.serveHttp({ port: 0 });
    const capabilities = { elicitation: {} };
    const first = await modernPost(
      http.url,
      'tools/call',
      { name: 'asks__ask', arguments: {} },
      { capabilities },
    );
    const result = first.response?.result as { inputRequests: Record<string, unknown>; requestState: string };
    expect(result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create', params: { message: 'Your name?' } } },
    });
    const retry = await modernPost(
      http.url,
      'tools/call',
      {
        name: 'asks__ask',
        arguments: {},
        inputResponses: { who: { action: 'accept', content: { name: 'Lin' } } },
        requestState: result.requestState,
      },
      { capabilities },
    );
    expect(retry.response?.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'hello Lin' }],
    });
    const began = await modernPost(http.url, 'tools/call', { name: 'asks__began', arguments: {} });
    expect(began.response?.result).toMatchObject({ content: [{ text: '1' }] });
  });
});

describe('the order of tools/list', () => {
  it('is the plugins’ mount order, each plugin’s own order, whichever catalog arrives first', async () => {
    let late: (() => void) | undefined;
    const slow = definePlugin({
      id: 'slow',
      version: '1.0.0',
      build: (ctx) => {
        let ready = false;
        late = () => {
          ready = true;
          ctx.notifyListChanged('tools');
        };
        return {
          tools: () =>
            ready
              ? ['zeta', 'alpha'].map((name) => ({ name, inputSchema: { type: 'object' as const } }))
              : [],
          callTool: async () => ({ content: [] }),
        };
      },
    });
    const quick = definePlugin({
      id: 'quick',
      version: '1.0.0',
      build: () => ({
        tools: () => [{ name: 'only', inputSchema: { type: 'object' as const } }],
        callTool: async () => ({ content: [] }),
      }),
    });
    const c = await connect({ plugins: [slow, quick], planner: { enabled: false } });
    cleanups.push(() => c.close());
    expect((await c.client.listTools()).tools.map((tool) => tool.name)).toEqual(['quick__only']);
    late?.();
    const names = async () => (await c.client.listTools()).tools.map((tool) => tool.name);
    await expect.poll(names).toEqual(['slow__zeta', 'slow__alpha', 'quick__only']);
    expect(await names()).toEqual(await names());
    expect(textOf(await c.client.callTool({ name: 'quick__only', arguments: {} }))).toBe('');
  });
});
