// The audit log through real clients: one JSON line per call answered and per call run ahead, with who, which
// tool, outcome, latency and how the planner took part, never an argument's value.
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { ToolValueModel } from '../src/contract/index.js';
import { connectHttp } from './support/cli.js';
import { connectClient, createMemoryLogger } from './support/in-memory.js';
import { modernMeta, modernPost } from './support/modern-wire.js';
import { type RecordsPlugin, recordsPlugin } from './support/records-plugin.js';

const READ: ToolValueModel = {
  valueClass: 'critical',
  sideEffect: 'read_only',
  cost: { typicalKb: 1 },
  followUp: [],
  invalidates: [],
};

/** list → get for each listed key (three run ahead); put writes. */
function withModels(): RecordsPlugin {
  return recordsPlugin({
    models: {
      list: {
        ...READ,
        followUp: [{ tool: 'rec__get', probability: 0.9, projection: 'items[*].key', projectionArg: 'key' }],
      },
      get: READ,
      put: { ...READ, sideEffect: 'mutates_external', invalidates: ['rec__get'], invalidateBy: ['key'] },
    },
  });
}

const CANARY = 'audit-canary-5f1d0c2e9b';

interface Line {
  audit: true;
  time: string;
  principal: string;
  tool: string;
  plugin?: string;
  outcome: string;
  error?: { code: string; kind?: string };
  latency_ms: number;
  speculative: false | 'hit' | 'join' | 'prefetch';
  era?: string;
  transport?: string;
  request_id?: string | number;
}

let host: ForesightHost | undefined;
let dir: string | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await host?.close();
  host = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function auditFile(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'foresight-audit-'));
  return join(dir, 'audit.jsonl');
}

async function start(
  rec: RecordsPlugin,
  file: string,
  logger = createMemoryLogger(),
): Promise<ForesightHost> {
  host = createHost({
    plugins: [{ plugin: rec.plugin }],
    logger,
    planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity },
    audit: { enabled: true, file },
  });
  await host.start();
  return host;
}

async function client(h: ForesightHost): Promise<Client> {
  const connected = await connectClient(h);
  clients.push(connected);
  return connected;
}

async function linesOf(file: string): Promise<Line[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
}

/** Waits until the planner has run `n` calls ahead and none is queued or running. */
async function settled(h: ForesightHost, dispatched: number): Promise<void> {
  await vi.waitFor(() => {
    const snapshot = h.planner.snapshot();
    expect(snapshot.counters.dispatched).toBe(dispatched);
    expect(snapshot.inFlight + snapshot.queued).toBe(0);
  });
}

function call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return c.callTool({ name, arguments: args });
}

describe('audit log', () => {
  it('writes a line per call answered and per call run ahead, never an argument value', async () => {
    const file = await auditFile();
    const rec = withModels();
    const h = await start(rec, file);
    const c = await client(h);

    await call(c, 'rec__list');
    await settled(h, 3);
    const served = await call(c, 'rec__get', { key: 'r2' });
    expect(served._meta?.['foresight/prefetch']).toMatchObject({ source: 'cache' });
    const missing = await call(c, 'rec__get', { key: 'nope' });
    expect(missing.isError).toBe(true);
    const invalid = await call(c, 'rec__get', { key: 7 });
    expect(invalid.isError).toBe(true);
    const invalidCode = (invalid._meta?.['foresight/error'] as { code: string }).code;
    await call(c, 'rec__put', { key: 'r1', value: CANARY });
    await h.close();
    host = undefined;

    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(CANARY);
    const lines = await linesOf(file);
    const agent = lines.filter((line) => line.speculative !== 'prefetch');
    const ahead = lines.filter((line) => line.speculative === 'prefetch');
    expect(
      agent.map(({ tool, outcome, speculative, error }) => ({ tool, outcome, speculative, error })),
    ).toEqual([
      { tool: 'rec__list', outcome: 'ok', speculative: false, error: undefined },
      { tool: 'rec__get', outcome: 'ok', speculative: 'hit', error: undefined },
      { tool: 'rec__get', outcome: 'error', speculative: false, error: { code: 'tool_error' } },
      {
        tool: 'rec__get',
        outcome: 'error',
        speculative: false,
        error: { code: invalidCode, kind: 'invalid_input' },
      },
      { tool: 'rec__put', outcome: 'ok', speculative: false, error: undefined },
    ]);
    for (const line of agent)
      expect(line).toMatchObject({
        audit: true,
        principal: 'local',
        plugin: 'rec',
        era: 'legacy',
        transport: 'memory',
      });
    expect(ahead).toHaveLength(3);
    for (const line of ahead) {
      expect(line).toMatchObject({
        audit: true,
        principal: 'local',
        tool: 'rec__get',
        plugin: 'rec',
        outcome: 'ok',
      });
      expect(line).not.toHaveProperty('era');
    }
    for (const line of lines) {
      expect(Number.isNaN(Date.parse(line.time))).toBe(false);
      expect(line.latency_ms).toBeGreaterThanOrEqual(0);
      expect(Object.keys(line)).not.toContain('arguments');
    }
  });

  it('says "join" for a call that waited on one still running ahead', async () => {
    const file = await auditFile();
    const rec = withModels();
    const h = await start(rec, file);
    const c = await client(h);
    const release = rec.holdGets();
    await call(c, 'rec__list');
    await vi.waitFor(() => expect(rec.heldGets()).toBe(3));
    const pending = call(c, 'rec__get', { key: 'r1' });
    await vi.waitFor(() => expect(h.planner.snapshot().joining).toBe(1));
    release();
    expect((await pending)._meta?.['foresight/prefetch']).toMatchObject({ source: 'in_flight' });
    await settled(h, 3);
    const lines = await linesOf(file);
    expect(lines.filter((line) => line.speculative === 'join')).toEqual([
      expect.objectContaining({ tool: 'rec__get', outcome: 'ok', principal: 'local' }),
    ]);
  });

  it('tells principals and transports apart: in memory, HTTP from two addresses, both eras', async () => {
    const file = await auditFile();
    const h = await start(withModels(), file);
    const { url } = await h.serveHttp({ port: 0 });
    await call(await client(h), 'rec__list');
    const overHttp = await connectHttp(new URL(url));
    clients.push(overHttp.client);
    await call(overHttp.client, 'rec__list');
    const modern = await modernPost(
      url,
      'tools/call',
      { name: 'rec__list', arguments: {} },
      { meta: modernMeta(), localAddress: '127.0.0.2', id: 4242 },
    );
    expect(modern.response?.result).toBeDefined();
    const lines = (await linesOf(file)).filter((line) => line.speculative === false);
    expect(lines.map(({ principal, era, transport }) => ({ principal, era, transport }))).toEqual([
      { principal: 'local', era: 'legacy', transport: 'memory' },
      { principal: 'address:127.0.0.1', era: 'legacy', transport: 'http' },
      { principal: 'address:127.0.0.2', era: 'modern', transport: 'http' },
    ]);
    // Each line names the JSON-RPC id of the request it answered.
    expect(lines[2]?.request_id).toBe(4242);
    for (const line of lines) expect(typeof line.request_id).toBe('number');
  });

  it('says "cancelled" for a call the client withdrew', async () => {
    const file = await auditFile();
    const rec = withModels();
    const h = await start(rec, file);
    const c = await client(h);
    rec.holdGets();
    const abort = new AbortController();
    const pending = c.callTool({ name: 'rec__get', arguments: { key: 'r1' } }, { signal: abort.signal });
    await vi.waitFor(() => expect(rec.heldGets()).toBe(1));
    abort.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(async () =>
      expect(await linesOf(file)).toEqual([
        expect.objectContaining({
          tool: 'rec__get',
          outcome: 'cancelled',
          error: { code: 'E_CANCELLED', kind: 'unavailable' },
          speculative: false,
        }),
      ]),
    );
  });

  it('logs a line it cannot write once, and the calls still succeed', async () => {
    const records: Record<string, unknown>[] = [];
    const rec = withModels();
    // Every write to /dev/full fails (ENOSPC).
    const h = await start(rec, '/dev/full', createMemoryLogger(records));
    const c = await client(h);
    expect((await call(c, 'rec__get', { key: 'r1' })).isError).toBeUndefined();
    expect((await call(c, 'rec__get', { key: 'r2' })).isError).toBeUndefined();
    expect(records.filter((record) => String(record.msg).startsWith('audit:'))).toEqual([
      expect.objectContaining({ level: 'error', file: '/dev/full' }),
    ]);
  });

  it('fails start-up, naming the file, when the file cannot be opened', async () => {
    dir = await mkdtemp(join(tmpdir(), 'foresight-audit-'));
    const file = join(dir, 'no-such-dir', 'audit.jsonl');
    await expect(start(withModels(), file)).rejects.toMatchObject({
      code: 'E_AUDIT_FILE',
      message: expect.stringContaining(file) as string,
    });
  });

  it('writes nothing when off', async () => {
    const file = await auditFile();
    host = createHost({
      plugins: [{ plugin: withModels().plugin }],
      logger: createMemoryLogger(),
      audit: { enabled: false, file },
    });
    await host.start();
    await call(await client(host), 'rec__list');
    expect(await readFile(file, 'utf8').catch(() => 'absent')).toBe('absent');
  });
});

describe('[audit] in foresight.toml', () => {
  it('is off by default; file resolves against the config file’s directory', async () => {
    dir = await mkdtemp(join(tmpdir(), 'foresight-audit-'));
    expect(parseConfig('', join(dir, 'foresight.toml'), dir).audit).toEqual({ enabled: false });
    const text = '[audit]\nenabled = true\nfile = "logs/audit.jsonl"\n';
    await writeFile(join(dir, 'foresight.toml'), text);
    expect(parseConfig(text, join(dir, 'foresight.toml'), dir).audit).toEqual({
      enabled: true,
      file: join(dir, 'logs', 'audit.jsonl'),
    });
  });

  it('names the file and line of an unknown key', () => {
    expect(() =>
      parseConfig('[audit]\nenabled = true\narguments = true\n', '/x/foresight.toml', '/x'),
    ).toThrow(/foresight\.toml:3.*arguments/s);
  });
});
