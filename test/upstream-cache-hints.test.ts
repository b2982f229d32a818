// The caching hints a 2026-07-28 upstream gives its lists and reads bound Foresight's own: a 2026-07-28 client of
// Foresight is told the strictest of the plugin's configured hints and the upstream's (the shorter TTL; private
// when either says so), on tools/list and resources/read alike. A list the upstream does not serve keeps the
// configured hints, a 2025 upstream (which gives none) leaves them as configured, and a 2025 client gets none.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { createMemoryLogger } from './support/in-memory.js';
import { MODERN_VERSION } from './support/modern-wire.js';

const MODERN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/upstreams/modern.mjs');
const WATCHED = 'up://fixture://watched';

let host: ForesightHost | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await host?.close();
  host = undefined;
});

/**
 * Foresight over HTTP with the fixture mounted over stdio as `up`, its 2026-07-28 answers carrying `upstream`
 * (`<scope>:<ttlMs>`), and the plugin configured with `configured`; returns a connected client of `era`.
 */
async function serve(options: {
  upstream: string;
  configured: { ttlMs: number; scope: 'public' | 'private' };
  table?: string[];
}) {
  const command = JSON.stringify(['node', MODERN, '--cache', options.upstream]);
  const config = parseConfig(
    [
      '[plugins.up]',
      'use = "upstream"',
      `command = ${command}`,
      `cache_ttl_ms = ${options.configured.ttlMs}`,
      `cache_scope = "${options.configured.scope}"`,
      ...(options.table ?? []),
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  host = createHost({ config, planner: { enabled: false }, logger: createMemoryLogger() });
  const http = await host.serveHttp({ port: 0 });
  return async (era: 'modern' | 'legacy') => {
    const client = new Client(
      { name: `${era}-client`, version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {},
    );
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    return client;
  };
}

/** The hints of what a client got: the SDK client keeps the fields on its results. */
const hintsOf = (result: Record<string, unknown>) => ({
  ttlMs: result.ttlMs,
  cacheScope: result.cacheScope,
});

/** Every answer is fetched from Foresight, never from the client's own cache. */
const FETCH = { cacheMode: 'bypass' } as const;

describe("a 2026-07-28 upstream's caching hints", () => {
  it('bound the configured ones: private 5 s upstream and public 60 s configured give private 5 s', async () => {
    const connect = await serve({ upstream: 'private:5000', configured: { ttlMs: 60_000, scope: 'public' } });
    const modern = await connect('modern');
    const tools = await modern.listTools(undefined, FETCH);
    expect(tools.tools.map((tool) => tool.name)).toContain('up__era');
    expect(hintsOf(tools)).toEqual({ ttlMs: 5000, cacheScope: 'private' });
    expect(hintsOf(await modern.listResources(undefined, FETCH))).toEqual({
      ttlMs: 5000,
      cacheScope: 'private',
    });
    expect(hintsOf(await modern.listResourceTemplates(undefined, FETCH))).toEqual({
      ttlMs: 5000,
      cacheScope: 'private',
    });
    const read = await modern.readResource({ uri: WATCHED }, FETCH);
    expect(read.contents).toEqual([expect.objectContaining({ text: 'watched' })]);
    expect(hintsOf(read)).toEqual({ ttlMs: 5000, cacheScope: 'private' });
    // The upstream serves no prompts: it says nothing of that list, which keeps the configured hints.
    expect(hintsOf(await modern.listPrompts(undefined, FETCH))).toEqual({
      ttlMs: 60_000,
      cacheScope: 'public',
    });
  });

  it('never loosen them: public 120 s upstream and private 60 s configured give private 60 s', async () => {
    const connect = await serve({
      upstream: 'public:120000',
      configured: { ttlMs: 60_000, scope: 'private' },
    });
    const modern = await connect('modern');
    expect(hintsOf(await modern.listTools(undefined, FETCH))).toEqual({
      ttlMs: 60_000,
      cacheScope: 'private',
    });
    expect(hintsOf(await modern.readResource({ uri: WATCHED }, FETCH))).toEqual({
      ttlMs: 60_000,
      cacheScope: 'private',
    });
  });

  it('reach no 2025 client: its lists and reads carry no hints', async () => {
    const connect = await serve({ upstream: 'private:5000', configured: { ttlMs: 60_000, scope: 'public' } });
    const legacy = await connect('legacy');
    expect(legacy.getProtocolEra()).toBe('legacy');
    const tools = await legacy.listTools(undefined, FETCH);
    expect(tools.tools.map((tool) => tool.name)).toContain('up__era');
    expect(hintsOf(tools)).toEqual({ ttlMs: undefined, cacheScope: undefined });
    expect(hintsOf(await legacy.readResource({ uri: WATCHED }, FETCH))).toEqual({
      ttlMs: undefined,
      cacheScope: undefined,
    });
  });
});

describe('a 2025 upstream', () => {
  it('leaves the configured hints as they are', async () => {
    const connect = await serve({
      upstream: 'private:5000',
      configured: { ttlMs: 60_000, scope: 'public' },
      table: ['protocol = "2025-11-25"'],
    });
    const modern = await connect('modern');
    const tools = await modern.listTools(undefined, FETCH);
    expect(tools.tools.map((tool) => tool.name)).toContain('up__era');
    expect(hintsOf(tools)).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
    expect(hintsOf(await modern.readResource({ uri: WATCHED }, FETCH))).toEqual({
      ttlMs: 60_000,
      cacheScope: 'public',
    });
  });
});
