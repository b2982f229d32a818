// The first listing is complete: a client that lists once, right after connecting, sees the tools of upstream
// servers still connecting (they answer only once those have connected or failed), and a server that never answers
// delays the lists by no more than its start deadline. Real upstream processes, real SDK clients.
import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { type Connected, connect, createMemoryLogger } from './support/in-memory.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const COUNTS_CALLS = fileURLToPath(new URL('./fixtures/upstreams/counts-calls.mjs', import.meta.url));
/** A process that never answers `initialize`. */
const HUNG = ['node', '-e', 'setInterval(() => {}, 1e9)'];
/** The CLI from source (through tsx), so this runs without a build. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI_SOURCE = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

let connected: Connected | undefined;
let dir: string | undefined;
const clients: Client[] = [];
let httpHost: ForesightHost | undefined;

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await httpHost?.close();
  httpHost = undefined;
  await connected?.close();
  connected = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** An upstream answering only after `delayMs`, counts-calls.mjs, as a [plugins.<name>] table. */
async function slowUpstream(name: string, delayMs: number): Promise<string[]> {
  dir ??= await mkdtemp(join(tmpdir(), 'foresight-first-listing-'));
  return [
    `[plugins.${name}]`,
    'use = "upstream"',
    `command = ["node", ${JSON.stringify(COUNTS_CALLS)}]`,
    `env = { START_DELAY_MS = "${delayMs}", CALLS_LOG = ${JSON.stringify(join(dir, 'calls.jsonl'))} }`,
  ];
}

async function mount(lines: string[], records: Record<string, unknown>[] = []): Promise<Connected> {
  const config = parseConfig(lines.join('\n'), '/proj/foresight.toml', '/proj');
  connected = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
  return connected;
}

const names = (items: readonly { name: string }[]) => items.map((item) => item.name);

describe('the first listing after start', () => {
  it('holds tools/list until a slow upstream has connected, and lists its tools through the enrichers', async () => {
    const c = await mount(await slowUpstream('slow', 1_000));
    // Once, as a client that lists only at start does.
    const first = names((await c.client.listTools()).tools);
    expect(first).toEqual(expect.arrayContaining(['slow__read', 'slow__write', 'slow__hold_read']));
    // What `foresight tools` shows: the enriched list once the plugins have settled.
    expect(first).toEqual(names(c.host.tools.listTools()));
    expect(c.host.plugins.catalogsSettled).toBe(true);
  });

  it('answers a tools/call made before any listing once a slow upstream has connected, not as an unknown tool', async () => {
    const c = await mount(await slowUpstream('slow', 1_000));
    expect(c.host.plugins.catalogsSettled).toBe(false);

    const answer = await c.client.callTool({ name: 'slow__read', arguments: { tag: 'early' } });

    expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
    expect((answer.content as { text: string }[])[0]?.text).toMatch(/^read early by \d+$/);
    // A tool that no plugin serves is still unknown, once they have settled.
    await expect(c.client.callTool({ name: 'slow__nothing', arguments: {} })).rejects.toThrow(
      /unknown tool "slow__nothing"/,
    );
  });

  it('holds resources/list, resources/templates/list and prompts/list too', async () => {
    const c = await mount([
      '[plugins.ev]',
      'use = "upstream"',
      `command = ["node", ${JSON.stringify(EVERYTHING)}]`,
    ]);
    const [resources, templates, prompts] = await Promise.all([
      c.client.listResources(),
      c.client.listResourceTemplates(),
      c.client.listPrompts(),
    ]);
    expect(resources.resources.map((r) => r.uri)).toContain(
      'ev://demo://resource/static/document/architecture.md',
    );
    expect(templates.resourceTemplates.length).toBeGreaterThan(0);
    expect(names(prompts.prompts)).toContain('ev__simple-prompt');
  });

  it('answers after the start deadline of an upstream that never answers, without its tools', async () => {
    const startMs = 300;
    const records: Record<string, unknown>[] = [];
    const c = await mount(
      [
        '[plugins.hung]',
        'use = "upstream"',
        `command = ${JSON.stringify(HUNG)}`,
        `deadlines_ms = { start = ${startMs} }`,
        ...(await slowUpstream('slow', 0)),
      ],
      records,
    );
    const first = names((await c.client.listTools()).tools);
    // The other upstream is listed; the hung one is not: it never answers, so only its own start deadline (not the
    // 10 s default, not another plugin's) can have let the list go, and the warning names that deadline.
    expect(first).toContain('slow__read');
    expect(first.some((name) => name.startsWith('hung__'))).toBe(false);
    expect(c.host.plugins.mountedPlugins().find((p) => p.name === 'hung')?.health.state).toBe('starting');
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        plugin: 'hung',
        msg: expect.stringMatching(/still starting at its start deadline/),
        err: expect.stringContaining(`within its deadline of ${startMs} ms`),
      }),
    );
    // Settled now: later lists wait for nothing.
    expect(c.host.plugins.catalogsSettled).toBe(true);
  });
});

describe('the first listing over stdio, in both protocol eras', () => {
  /** `foresight serve` on a config with a slow upstream, and a client of the given era connected to it. */
  async function served(options: ConstructorParameters<typeof Client>[1]): Promise<Client> {
    const lines = await slowUpstream('slow', 1_000);
    const config = join(dir ?? '', 'foresight.toml');
    await writeFile(config, lines.join('\n'));
    const client = new Client({ name: 'lists-once', version: '1.0.0' }, options);
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', CLI_SOURCE, 'serve', '--config', config],
        cwd: ROOT,
        stderr: 'ignore',
      }),
    );
    return client;
  }

  it('a 2025 client lists once and sees the upstream’s tools', async () => {
    const client = await served({ capabilities: {} });
    expect(client.getProtocolEra()).toBe('legacy');
    expect(names((await client.listTools()).tools)).toContain('slow__read');
  });

  it('a 2026-07-28 client lists once and sees the upstream’s tools', async () => {
    const client = await served({ capabilities: {}, versionNegotiation: { mode: 'auto' } });
    expect(client.getProtocolEra()).toBe('modern');
    expect(names((await client.listTools()).tools)).toContain('slow__read');
  });
});

describe('the first listing over Streamable HTTP', () => {
  it('a client lists once and sees the tools of an upstream still connecting when it connected', async () => {
    const config = parseConfig(
      (await slowUpstream('slow', 1_000)).join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    httpHost = createHost({ config, planner: { enabled: false }, logger: createMemoryLogger() });
    const serving = await httpHost.serveHttp({ port: 0 });
    const client = new Client({ name: 'lists-once', version: '1.0.0' }, { capabilities: {} });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    expect(names((await client.listTools()).tools)).toContain('slow__read');
  });
});
