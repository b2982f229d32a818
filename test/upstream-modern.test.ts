// A 2026-07-28 upstream (test/fixtures/upstreams/modern.mjs, on the SDK v2) mounted over stdio and over Streamable
// HTTP: Foresight opens with server/discover and speaks the modern revision to it (the fixture's `era` tool reports
// the revision each request came on), and an elicitation the upstream asks for with an input_required result
// reaches the agent's own elicitation handler, and the call completes with its answer. A 2025 agent's log level
// reaches the upstream's calls (which then log to the agent during the call), and its resource subscriptions
// become the upstream's listen stream, whose updates reach the agent.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const MODERN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/upstreams/modern.mjs');
const STRICT = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/upstreams/strict-legacy.mjs',
);

let http: ChildProcess | undefined;
let url = '';
let connected: Connected | undefined;

beforeAll(async () => {
  const child = spawn(process.execPath, [MODERN, '--http'], { stdio: ['ignore', 'ignore', 'pipe'] });
  http = child;
  url = await new Promise<string>((resolve, reject) => {
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      const listening = /listening (\S+)/.exec(said);
      if (listening?.[1] !== undefined) resolve(listening[1]);
    });
    child.once('exit', (code) => reject(new Error(`the fixture exited with ${code}: ${said}`)));
  });
});

afterAll(() => {
  http?.kill('SIGKILL');
});

afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

/** How the plugin `up` reaches the fixture: by spawning it, or at its URL. */
const targets = {
  stdio: () => `command = ["node", ${JSON.stringify(MODERN)}]`,
  http: () => `url = ${JSON.stringify(url)}`,
};

/**
 * Foresight with the fixture mounted as `up`, and a 2025 agent client that answers elicitations with `ok`;
 * `prepare` sets more of the client up before it connects.
 */
async function mount(
  where: keyof typeof targets,
  asked: string[],
  records: Record<string, unknown>[] = [],
  prepare: (client: Client) => void = () => {},
  table: string[] = [],
) {
  const config = parseConfig(
    ['[plugins.up]', 'use = "upstream"', targets[where](), ...table].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  connected = await connect(
    { config, planner: { enabled: false }, logger: createMemoryLogger(records) },
    { capabilities: { elicitation: { form: {} } } },
    (client) => {
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push(request.params.message);
        return Promise.resolve({ action: 'accept', content: { ok: true } });
      });
      prepare(client);
    },
  );
  const c = connected;
  await vi.waitFor(
    async () => expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain('up__era'),
    { timeout: 15_000, interval: 50 },
  );
  return c;
}

describe.each(['stdio', 'http'] as const)('a 2026-07-28 upstream over %s', (where) => {
  it('is spoken to on the 2026-07-28 revision, negotiated with server/discover', async () => {
    const records: Record<string, unknown>[] = [];
    const c = await mount(where, [], records);
    const answer = await c.client.callTool({ name: 'up__era', arguments: {} });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toBe('revision: 2026-07-28');
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'upstream: connected', protocolVersion: '2026-07-28' }),
    );
  });

  it("passes the upstream's input_required elicitation to a 2025 agent's handler, and completes the call", async () => {
    const asked: string[] = [];
    const c = await mount(where, asked);
    const answer = await c.client.callTool({ name: 'up__confirm', arguments: {} });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toBe('confirmed: true (input_required)');
    expect(asked).toEqual(['Go ahead?']);
  });

  it("asks the upstream for log messages at the agent's level, and passes them on during the call", async () => {
    const logged: string[] = [];
    const c = await mount(where, [], [], (client) =>
      client.setNotificationHandler('notifications/message', (n) => {
        logged.push(`${n.params.level}: ${String(n.params.data)}`);
      }),
    );
    await c.client.setLoggingLevel('info');
    const answer = await c.client.callTool({ name: 'up__chatty', arguments: {} });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    // Before the answer: the messages came during the call, at or above the level the agent set.
    expect(logged).toEqual(['warning: chatty: almost done']);
  });

  it("listens for the agent's subscribed resources on the upstream's listen stream", async () => {
    const updated: string[] = [];
    const c = await mount(where, [], [], (client) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        updated.push(n.params.uri);
      }),
    );
    const { resources } = await c.client.listResources();
    const watched = resources.find((resource) => resource.uri.endsWith('fixture://watched'))?.uri;
    expect(watched).toBeDefined();
    const uri = String(watched);
    await c.client.subscribeResource({ uri });
    await c.client.callTool({ name: 'up__touch', arguments: {} });
    await vi.waitFor(() => expect(updated).toEqual([uri]), { timeout: 5_000, interval: 20 });

    // Unsubscribed, the stream is opened again without it: the next change is not heard.
    await c.client.unsubscribeResource({ uri });
    await c.client.callTool({ name: 'up__touch', arguments: {} });
    await c.client.callTool({ name: 'up__era', arguments: {} });
    expect(updated).toEqual([uri]);
  });

  it.runIf(where === 'stdio')(
    'listens for the subscribed resources again on the restarted server',
    async () => {
      const updated: string[] = [];
      const records: Record<string, unknown>[] = [];
      const c = await mount(
        where,
        [],
        records,
        (client) =>
          client.setNotificationHandler('notifications/resources/updated', (n) => {
            updated.push(n.params.uri);
          }),
        ['restart_delay_ms = 100'],
      );
      const uri = 'up://fixture://watched';
      await c.client.subscribeResource({ uri });
      await c.client.callTool({ name: 'up__exit', arguments: {} });
      await vi.waitFor(
        () =>
          expect(records).toContainEqual(expect.objectContaining({ msg: 'upstream: connected', after: 1 })),
        { timeout: 10_000, interval: 20 },
      );
      await c.client.callTool({ name: 'up__touch', arguments: {} });
      await vi.waitFor(() => expect(updated).toEqual([uri]), { timeout: 5_000, interval: 20 });
    },
  );
});

describe('the protocol option', () => {
  it('pinned to 2025-11-25, speaks the initialize handshake to a server that knows both', async () => {
    const records: Record<string, unknown>[] = [];
    const c = await mount('stdio', [], records, undefined, ['protocol = "2025-11-25"']);
    const answer = await c.client.callTool({ name: 'up__era', arguments: {} });
    expect(textOf(answer)).toBe('revision: legacy');
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'upstream: connected', protocolVersion: '2025-11-25' }),
    );
  });

  it('auto, with a spawned server that exits on the server/discover probe: tries the handshake at once, and keeps to it', async () => {
    const records: Record<string, unknown>[] = [];
    const config = parseConfig(
      ['[plugins.strict]', 'use = "upstream"', `command = ["node", ${JSON.stringify(STRICT)}]`].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    connected = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });

    // The first listing waits for the first connect, the fallback included: no backoff in between.
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['strict__hello']);
    expect(textOf(await connected.client.callTool({ name: 'strict__hello', arguments: {} }))).toBe('hello');
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'upstream: connected', protocolVersion: '2025-11-25' }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({ msg: expect.stringMatching(/exited on the server\/discover probe/) }),
    );
    expect(records.filter((record) => record.msg === 'upstream: could not connect')).toEqual([]);
  });
});
