// The planner at run time, through a real MCP client: serving from the cache and joining calls in flight,
// caps, invalidation, session scoping, notifications, and no speculative traffic when it is off.
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig, type PlannerConfig } from '../src/config/index.js';
import type { ToolValueModel } from '../src/contract/index.js';
import { PLANNER_STATS_URI, PREFETCH_META_KEY } from '../src/planner/index.js';
import { type Connected, connect, connectClient, createMemoryLogger } from './support/in-memory.js';
import { PATIENCE_MS } from './support/patience.js';
import { type RecordsPlugin, type RecordsPluginOptions, recordsPlugin } from './support/records-plugin.js';

const READ: ToolValueModel = {
  valueClass: 'critical',
  sideEffect: 'read_only',
  cost: { typicalKb: 1 },
  followUp: [],
  invalidates: [],
};

/** list → get for each listed key (at most 3 sets), put invalidates get by key. */
function models(
  extra: Partial<Record<string, Partial<ToolValueModel>>> = {},
): Record<string, ToolValueModel> {
  return {
    list: {
      ...READ,
      followUp: [{ tool: 'rec__get', probability: 0.9, projection: 'items[*].key', projectionArg: 'key' }],
      ...extra.list,
    },
    get: { ...READ, ...extra.get },
    put: {
      ...READ,
      sideEffect: 'mutates_external',
      invalidates: ['rec__get'],
      invalidateBy: ['key'],
      ...extra.put,
    },
  };
}

let connected: Connected | undefined;
const extraClients: Client[] = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(extraClients.splice(0).map((client) => client.close()));
  await connected?.close();
  connected = undefined;
});

async function start(
  plugin: RecordsPlugin,
  planner: Partial<PlannerConfig> = {},
  config?: ReturnType<typeof parseConfig>,
): Promise<Connected> {
  connected = await connect({
    config,
    plugins: [{ plugin: plugin.plugin }],
    planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity, ...planner },
  });
  return connected;
}

function withModels(options: RecordsPluginOptions = {}): RecordsPlugin {
  return recordsPlugin({ models: models(), ...options });
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args });
}

function prefetch(result: CallToolResult): unknown {
  return result._meta?.[PREFETCH_META_KEY];
}

/** Waits until the planner has started `n` speculative calls and none is queued or running. */
async function settled(c: Connected, dispatched: number): Promise<void> {
  await vi.waitFor(() => {
    const snapshot = c.host.planner.snapshot();
    expect(snapshot.counters.dispatched).toBe(dispatched);
    expect(snapshot.inFlight + snapshot.queued).toBe(0);
  }, PATIENCE_MS);
}

/**
 * One turn of the event loop: the planner plans a call's follow-ups in a setImmediate queued before the answer goes
 * out, so once the answer is in, what that planning dispatched or queued shows after this turn.
 */
const planned = () => new Promise((resolve) => setImmediate(resolve));

describe('planner: serving the agent from speculative calls', () => {
  it('answers from the cache: the upstream serves the call once, speculatively', async () => {
    const rec = withModels();
    const c = await start(rec);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    expect(rec.log.filter((entry) => entry.tool === 'get')).toEqual([
      { tool: 'get', args: { key: 'r1' }, speculative: true },
      { tool: 'get', args: { key: 'r2' }, speculative: true },
      { tool: 'get', args: { key: 'r3' }, speculative: true },
    ]);

    const answer = await call(c.client, 'rec__get', { key: 'r2' });
    expect(answer.structuredContent).toEqual({ key: 'r2', value: 'v2.0' });
    expect(prefetch(answer)).toMatchObject({ source: 'cache' });
    expect(rec.count('get')).toBe(3);
    // r4 was not projected (3 sets per link): it goes upstream, with no prefetch note.
    const other = await call(c.client, 'rec__get', { key: 'r4' });
    expect(prefetch(other)).toBeUndefined();
    expect(rec.count('get', false)).toBe(1);
    expect(c.host.planner.snapshot().counters).toMatchObject({ dispatched: 3, hits: 1, joins: 0 });
  });

  it('joins a speculative call still in flight instead of calling again', async () => {
    const rec = withModels();
    const c = await start(rec);
    const release = rec.holdGets();
    await call(c.client, 'rec__list');
    await vi.waitFor(() => expect(rec.heldGets()).toBe(3), PATIENCE_MS);
    const pending = call(c.client, 'rec__get', { key: 'r1' });
    // The agent's call is waiting on the speculative one, not on a call of its own.
    await vi.waitFor(() => expect(c.host.planner.snapshot().joining).toBe(1), PATIENCE_MS);
    expect(c.host.planner.snapshot().inFlight).toBe(3);
    expect(rec.count('get', false)).toBe(0);
    release();
    const answer = await pending;
    expect(answer.structuredContent).toEqual({ key: 'r1', value: 'v1.0' });
    expect(prefetch(answer)).toEqual({ source: 'in_flight', age_ms: 0 });
    expect(rec.count('get')).toBe(3);
    expect(c.host.planner.snapshot().counters).toMatchObject({ joins: 1, hits: 0 });
  });

  it('aborts the speculative calls still running when the planner closes', async () => {
    const rec = withModels();
    const c = await start(rec);
    rec.holdGets();
    await call(c.client, 'rec__list');
    await vi.waitFor(() => expect(rec.heldGets()).toBe(3), PATIENCE_MS);
    c.host.planner.close();
    // Each ran under a signal of its own, which the planner aborted: the call's signal says cancelled.
    await vi.waitFor(() => {
      expect(rec.abortedGets()).toEqual(['E_CANCELLED', 'E_CANCELLED', 'E_CANCELLED']);
      expect(rec.heldGets()).toBe(0);
    }, PATIENCE_MS);
  });

  it('serves a cached result only while fresh (freshness_ttl_s), then calls upstream', async () => {
    // The planner's clock is Date.now as it is when the host is built: a fake Date, still until the test moves it
    // (so every result is stored at `storedAt`; vi.waitFor would move it, so the wait here polls on real timers).
    vi.useFakeTimers({ toFake: ['Date'] });
    const storedAt = Date.now();
    const rec = recordsPlugin({ models: models({ get: { cost: { typicalKb: 1, freshnessTtlS: 1 } } }) });
    const c = await start(rec);
    await call(c.client, 'rec__list');
    for (;;) {
      const snapshot = c.host.planner.snapshot();
      if (snapshot.counters.dispatched === 3 && snapshot.inFlight + snapshot.queued === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    vi.setSystemTime(storedAt + 999);
    expect(prefetch(await call(c.client, 'rec__get', { key: 'r2' }))).toMatchObject({ source: 'cache' });
    vi.setSystemTime(storedAt + 1_000);
    const answer = await call(c.client, 'rec__get', { key: 'r1' });
    expect(prefetch(answer)).toBeUndefined();
    expect(rec.count('get', false)).toBe(1);
    expect(c.host.planner.snapshot().counters).toMatchObject({ hits: 1, expired: 1 });
  });

  it('follows the agent through a long listing: each item it reads runs the next ones ahead', async () => {
    const rec = withModels({ size: 9 });
    const c = await start(rec);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    expect(prefetch(await call(c.client, 'rec__get', { key: 'r1' }))).toMatchObject({ source: 'cache' });
    // Three stay ahead of the agent: r2 and r3 are cached already, so r4 follows.
    await settled(c, 4);
    expect(rec.log.filter((entry) => entry.speculative).map((entry) => entry.args.key)).toEqual([
      'r1',
      'r2',
      'r3',
      'r4',
    ]);
    expect(prefetch(await call(c.client, 'rec__get', { key: 'r4' }))).toMatchObject({ source: 'cache' });
    await settled(c, 5);
    expect(rec.log.at(-1)).toEqual({ tool: 'get', args: { key: 'r5' }, speculative: true });
    expect(rec.count('get', false)).toBe(0);
  });

  it('does not follow a read that was not in any listing', async () => {
    const rec = withModels({ size: 9 });
    const c = await start(rec);
    await call(c.client, 'rec__get', { key: 'r7' });
    await planned();
    await settled(c, 0);
    expect(rec.log).toEqual([{ tool: 'get', args: { key: 'r7' }, speculative: false }]);
  });

  it('keeps the format of the agent’s own call: a cached result goes through its result hooks', async () => {
    const rec = withModels();
    const c = await start(rec);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    const first = await call(c.client, 'rec__get', { key: 'r1' });
    const second = await call(c.client, 'rec__get', { key: 'r1' });
    // Served twice from one entry, each a copy: the client's view of one cannot change the other.
    expect(first.content).toEqual(second.content);
    expect(c.host.planner.snapshot().counters.hits).toBe(2);
    expect(rec.count('get')).toBe(3);
  });
});

describe('planner: what never runs ahead', () => {
  it('never dispatches a mutating tool or one without annotations, whatever the links say', async () => {
    const rec = recordsPlugin({
      models: {
        ...models(),
        list: {
          ...READ,
          followUp: [
            { tool: 'rec__put', probability: 1, projection: 'items[*].key', projectionArg: 'key' },
            { tool: 'rec__touch', probability: 1, projection: 'items[*].key', projectionArg: 'key' },
          ],
        },
      },
    });
    const c = await start(rec);
    await call(c.client, 'rec__list');
    await call(c.client, 'rec__list');
    await new Promise((resolve) => setImmediate(resolve));
    await settled(c, 0);
    expect(rec.log.map((entry) => entry.tool)).toEqual(['list', 'list']);
  });

  it('with the planner disabled, sends no speculative call at all', async () => {
    const rec = withModels();
    const c = await start(rec, { enabled: false });
    await call(c.client, 'rec__list');
    await call(c.client, 'rec__get', { key: 'r1' });
    await planned();
    expect(rec.log.map((entry) => [entry.tool, entry.speculative])).toEqual([
      ['list', false],
      ['get', false],
    ]);
    expect(c.host.planner.snapshot()).toMatchObject({ enabled: false, counters: { dispatched: 0 } });
  });

  it('sends no progress or log notification of a speculative call to the client', async () => {
    const rec = withModels();
    const c = await start(rec);
    const messages: unknown[] = [];
    const progress: unknown[] = [];
    c.client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params.data));
    c.client.setNotificationHandler('notifications/progress', (n) => void progress.push(n.params));
    await c.client.callTool({ name: 'rec__list', arguments: {} }, { onprogress: () => {} });
    await settled(c, 3);
    await call(c.client, 'rec__get', { key: 'r1' });
    // Only the agent's list call logged and reported progress; the three speculative gets did not.
    expect(messages).toEqual(['serving list']);
    expect(progress).toHaveLength(1);
    expect(rec.count('get', true)).toBe(3);
  });
});

describe('planner: caps', () => {
  it('holds speculative calls to max_in_flight across turns', async () => {
    const rec = withModels({ size: 9 });
    const c = await start(rec, { maxInFlight: 2 });
    const release = rec.holdGets();
    await call(c.client, 'rec__list');
    await vi.waitFor(() => expect(rec.heldGets()).toBe(2), PATIENCE_MS);
    // A second turn plans nothing new (the same keys are queued or in flight), and the cap still holds.
    await call(c.client, 'rec__list');
    await planned();
    expect(c.host.planner.snapshot()).toMatchObject({ inFlight: 2, queued: 1 });
    release();
    await settled(c, 3);
    expect(rec.peakConcurrentGets()).toBe(2);
    expect(rec.count('get', true)).toBe(3);
  });

  it('holds calls to one API host to per_host_in_flight, and lets other hosts through', async () => {
    const rec = withModels({
      size: 6,
      rateLimitHost: (args) => (String(args.key) <= 'r2' ? 'api.one' : 'api.two'),
    });
    const c = await start(rec, { maxInFlight: 4, perHostInFlight: 1 });
    const release = rec.holdGets();
    await call(c.client, 'rec__list');
    // r1 and r2 go to api.one (one at a time), r3 to api.two: two run, one waits.
    await vi.waitFor(() => expect(rec.heldGets()).toBe(2), PATIENCE_MS);
    await planned();
    expect(c.host.planner.snapshot()).toMatchObject({ inFlight: 2, queued: 1 });
    expect(rec.log.filter((entry) => entry.tool === 'get').map((entry) => entry.args.key)).toEqual([
      'r1',
      'r3',
    ]);
    release();
    await settled(c, 3);
  });

  it('never delays the agent’s own call: it runs while every speculative slot is taken', async () => {
    const rec = withModels({ size: 5 });
    const c = await start(rec, { maxInFlight: 1 });
    const release = rec.holdGets();
    await call(c.client, 'rec__list');
    await vi.waitFor(() => expect(rec.heldGets()).toBe(1), PATIENCE_MS);
    const own = call(c.client, 'rec__get', { key: 'r5' });
    await vi.waitFor(() => expect(rec.heldGets()).toBe(2), PATIENCE_MS);
    release();
    expect((await own).structuredContent).toEqual({ key: 'r5', value: 'v5.0' });
    await settled(c, 3);
  });
});

describe('planner: invalidation', () => {
  it('never serves a result a mutation made stale, even one in flight during the mutation', async () => {
    const rec = withModels();
    const c = await start(rec);
    const release = rec.holdGets();
    await call(c.client, 'rec__list');
    await vi.waitFor(() => expect(rec.heldGets()).toBe(3), PATIENCE_MS);
    // The speculative get of r1 has read the old value and is on its way back when the write lands.
    const written = await call(c.client, 'rec__put', { key: 'r1', value: 'v1.1' });
    expect(written.isError).toBeFalsy();
    release();
    await settled(c, 3);
    const r1 = await call(c.client, 'rec__get', { key: 'r1' });
    expect(r1.structuredContent).toEqual({ key: 'r1', value: 'v1.1' });
    expect(prefetch(r1)).toBeUndefined();
    // r2 named another key: its entry survived the write and is served.
    const r2 = await call(c.client, 'rec__get', { key: 'r2' });
    expect(prefetch(r2)).toMatchObject({ source: 'cache' });
    expect(c.host.planner.snapshot().counters).toMatchObject({ hits: 1, invalidated: 1 });
  });

  it('drops again when the mutation answers: a call run ahead while it was running read the old state', async () => {
    const rec = withModels();
    const c = await start(rec);
    const release = rec.holdPuts();
    const writing = call(c.client, 'rec__put', { key: 'r1', value: 'v1.1' });
    await vi.waitFor(() => expect(rec.count('put')).toBe(1), PATIENCE_MS);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    release();
    expect((await writing).isError).toBeFalsy();
    const r1 = await call(c.client, 'rec__get', { key: 'r1' });
    expect(r1.structuredContent).toEqual({ key: 'r1', value: 'v1.1' });
    expect(prefetch(r1)).toBeUndefined();
  });

  it('drops fresh entries the mutation names, and a write that names nothing drops every entry of its plugin', async () => {
    const rec = withModels();
    const c = await start(rec);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    await call(c.client, 'rec__put', { key: 'r2', value: 'v2.1' });
    expect(prefetch(await call(c.client, 'rec__get', { key: 'r2' }))).toBeUndefined();
    expect(prefetch(await call(c.client, 'rec__get', { key: 'r3' }))).toMatchObject({ source: 'cache' });
    // `touch` has no annotations and no model: it may have changed anything of its plugin.
    await call(c.client, 'rec__touch', { key: 'r9' });
    const r1 = await call(c.client, 'rec__get', { key: 'r1' });
    expect(prefetch(r1)).toBeUndefined();
    // r2 by the put; r1 and r3 (served once, still held) by the touch.
    expect(c.host.planner.snapshot().counters).toMatchObject({ hits: 1, invalidated: 3 });
  });
});

describe('planner: sessions', () => {
  async function secondClient(c: Connected): Promise<Client> {
    const client = await connectClient(c.host);
    extraClients.push(client);
    return client;
  }

  it('keeps results in the session that ran them ahead', async () => {
    const rec = withModels();
    const c = await start(rec);
    const other = await secondClient(c);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    const fromOther = await call(other, 'rec__get', { key: 'r1' });
    expect(prefetch(fromOther)).toBeUndefined();
    expect(prefetch(await call(c.client, 'rec__get', { key: 'r1' }))).toMatchObject({ source: 'cache' });
  });

  it('shares results across sessions when the plugin declares them session-independent', async () => {
    const rec = recordsPlugin({ models: models({ get: { sessionIndependent: true } }) });
    const c = await start(rec);
    const other = await secondClient(c);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    expect(prefetch(await call(other, 'rec__get', { key: 'r1' }))).toMatchObject({ source: 'cache' });
    expect(rec.count('get')).toBe(3);
  });

  it('a mutation in one session makes every session’s entries stale', async () => {
    const rec = withModels();
    const c = await start(rec);
    const other = await secondClient(c);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    await call(other, 'rec__put', { key: 'r1', value: 'v1.1' });
    const r1 = await call(c.client, 'rec__get', { key: 'r1' });
    expect(r1.structuredContent).toEqual({ key: 'r1', value: 'v1.1' });
    expect(prefetch(r1)).toBeUndefined();
  });
});

describe('planner: configuration and stats', () => {
  it('takes value models from [tools."…"] blocks, later winning field by field', async () => {
    const rec = recordsPlugin();
    const config = parseConfig(
      [
        '[tools."*"]',
        'typical_kb = 2',
        '[tools."rec__list"]',
        'follow_up = [{ tool = "rec__get", probability = 0.9, projection = "items[0].key", projection_arg = "key" }]',
      ].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    const c = await start(rec, {}, config);
    await call(c.client, 'rec__list');
    await settled(c, 1);
    expect(rec.log.filter((entry) => entry.speculative).map((entry) => entry.args)).toEqual([{ key: 'r1' }]);
    expect(c.host.planner.modelOf('rec__get')).toMatchObject({
      sideEffect: 'read_only',
      cost: { typicalKb: 2 },
    });
    expect(c.host.planner.modelOf('rec__touch')?.sideEffect).toBe('indeterminate');
  });

  it('warns at start of [tools] blocks, links and invalidations that name no listed tool', async () => {
    const records: Record<string, unknown>[] = [];
    const config = parseConfig(
      [
        '[tools."rec__nope"]',
        'speculate = true',
        '[tools."rec__list"]',
        'follow_up = [{ tool = "rec__missing", probability = 0.9 }]',
        '[tools."rec__put"]',
        'invalidates = ["rec__gone"]',
      ].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    connected = await connect({
      config,
      logger: createMemoryLogger(records),
      plugins: [{ plugin: recordsPlugin().plugin }],
      planner: { enabled: true, learning: false },
    });
    const problems = [
      '[tools."rec__nope"] names no listed tool, so it applies to nothing',
      'a follow-up of rec__list names rec__missing, which is not listed; it never runs ahead',
      'rec__put invalidates rec__gone, which is not listed',
    ];
    expect(connected.host.planner.modelProblems()).toEqual(problems);
    const warnings = records.filter((record) => record.level === 'warn').map((record) => record.msg);
    expect(warnings).toEqual(problems.map((problem) => `planner: ${problem}`));
  });

  it('serves its counters as foresight://planner/stats', async () => {
    const rec = withModels();
    const c = await start(rec);
    await call(c.client, 'rec__list');
    await settled(c, 3);
    await call(c.client, 'rec__get', { key: 'r1' });
    const { resources } = await c.client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(PLANNER_STATS_URI);
    const read = await c.client.readResource({ uri: PLANNER_STATS_URI });
    const text = (read.contents[0] as { text: string }).text;
    expect(JSON.parse(text)).toMatchObject({
      enabled: true,
      counters: { dispatched: 3, hits: 1, joins: 0, failed: 0 },
    });
  });

  it('logs what it does at debug level', async () => {
    const records: Record<string, unknown>[] = [];
    const rec = withModels();
    connected = await connect({
      logger: createMemoryLogger(records),
      plugins: [{ plugin: rec.plugin }],
      planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity },
    });
    await call(connected.client, 'rec__list');
    await settled(connected, 3);
    await call(connected.client, 'rec__get', { key: 'r1' });
    const messages = records.filter((record) => record.level === 'debug').map((record) => record.msg);
    expect(messages.filter((msg) => msg === 'planner: dispatched')).toHaveLength(3);
    expect(messages).toContain('planner: served a speculative result');
  });
});

describe('planner: the waste budget', () => {
  /** list → get with a link probability of 0.3: more likely unused than used. */
  const unlikelyFollowUps = () =>
    recordsPlugin({
      models: models({
        list: {
          followUp: [
            { tool: 'rec__get', probability: 0.3, projection: 'items[*].key', projectionArg: 'key' },
          ],
        },
      }),
    });

  it('from a cold start, does not run a follow-up that is more likely unused than used', async () => {
    const rec = unlikelyFollowUps();
    const c = await start(rec, { maxWastePerHit: 1 });
    await call(c.client, 'rec__list');
    await call(c.client, 'rec__get', { key: 'r1' });
    expect(rec.log.filter((entry) => entry.speculative)).toEqual([]);
    const read = await c.client.readResource({ uri: PLANNER_STATS_URI });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      counters: { dispatched: 0 },
      wasteBudget: { maxWastePerHit: 1, hits: 0, waste: 0 },
    });
  });

  it('counts results that went unused, and then holds back even likely follow-ups', async () => {
    const rec = withModels();
    const c = await start(rec, { maxWastePerHit: 1 });
    await call(c.client, 'rec__list');
    // p 0.9, 0.45 and 0.225 by position: the first leaves room for the other two.
    await settled(c, 3);
    // A tool that says nothing of its side effects may change anything: three results unused.
    await call(c.client, 'rec__touch');
    expect(c.host.planner.snapshot().wasteBudget).toMatchObject({ hits: 0 });
    expect(c.host.planner.snapshot().wasteBudget.waste).toBeGreaterThan(2.9);
    await call(c.client, 'rec__list');
    await call(c.client, 'rec__get', { key: 'r1' });
    expect(c.host.planner.snapshot().counters.dispatched).toBe(3);
    expect(rec.log.filter((entry) => entry.speculative)).toHaveLength(3);
  });

  it('with no budget (inf), runs every follow-up above the floor', async () => {
    const rec = unlikelyFollowUps();
    const c = await start(rec, { maxWastePerHit: Infinity });
    await call(c.client, 'rec__list');
    // Positions 0 and 1 (0.3, 0.15): only the first is above the floor of 0.2.
    await settled(c, 1);
    expect(c.host.planner.snapshot().wasteBudget.maxWastePerHit).toBeNull();
  });
});

describe('planner: learning at run time', () => {
  it('learns from the agent’s calls, saves the counts at close, and the next run starts from them', async () => {
    const stateFile = join(await mkdtemp(join(tmpdir(), 'foresight-learn-')), 'state.json');
    const rec = withModels();
    const c = await start(rec, { learning: true, stateFile });
    await call(c.client, 'rec__list');
    await settled(c, 3);
    await call(c.client, 'rec__get', { key: 'r1' });
    await call(c.client, 'rec__get', { key: 'r2' });
    await c.close();
    connected = undefined;

    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as {
      counters: Record<string, number>;
      principals: Record<
        string,
        { edges: { from: string; to: string; followed: number; offered: number[]; matched: number[] }[] }
      >;
    };
    // Three run ahead, two served, and the third left unserved at close: wasted.
    expect(saved.counters).toMatchObject({ dispatched: 3, hits: 2, wasted: 1 });
    // The in-memory client is the local user: what it taught is the `local` principal's.
    expect(Object.keys(saved.principals)).toEqual(['local']);
    expect(
      saved.principals.local?.edges.find((edge) => edge.from === 'rec__list' && edge.to === 'rec__get'),
    ).toMatchObject({
      followed: 1,
      offered: [1, 1, 1],
      matched: [1, 1, 0],
    });

    const again = await start(recordsPlugin({ models: models() }), { learning: true, stateFile });
    const stats = again.host.planner.snapshot();
    expect(stats.counters.dispatched).toBe(0);
    expect(stats.allTime).toMatchObject({ dispatched: 3, hits: 2 });
    expect(stats.edges.find((edge) => edge.from === 'rec__list')).toMatchObject({ to: 'rec__get', calls: 1 });
  });
});
