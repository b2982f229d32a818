// Per-principal isolation over Streamable HTTP under [auth], against a real local issuer: what one person's calls
// teach the planner never changes what it runs ahead for another, one person's speculative result is never served
// to another, and each person has their own call rate (sessions and eras of one person share it).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { ToolValueModel } from '../src/contract/index.js';
import { type LearnedState, PLANNER_STATS_URI, PREFETCH_META_KEY } from '../src/planner/index.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { type LocalIssuer, startLocalIssuer } from './support/local-issuer.js';
import { connectWithToken } from './support/oauth-rig.js';
import { type RecordsPlugin, recordsPlugin } from './support/records-plugin.js';

const AUDIENCE = 'https://foresight.test/mcp';
const READ: ToolValueModel = {
  valueClass: 'critical',
  sideEffect: 'read_only',
  cost: { typicalKb: 1 },
  followUp: [],
  invalidates: [],
};

/** `rec__list` → `rec__get` with the given prior: the projection reads the listed keys. */
function models(prior: number): Record<string, ToolValueModel> {
  return {
    list: {
      ...READ,
      followUp: [{ tool: 'rec__get', probability: prior, projection: 'items[*].key', projectionArg: 'key' }],
    },
    // A read is the same for every session of a principal: only the principal keeps it from being shared.
    get: { ...READ, sessionIndependent: true },
  };
}

let issuer: LocalIssuer;
const clients: Client[] = [];

beforeAll(async () => {
  issuer = await startLocalIssuer();
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await issuer.close();
});

async function serve(host: ForesightHost): Promise<HttpServing> {
  return host.serveHttp({
    port: 0,
    oauth: {
      issuer: issuer.issuer,
      audience: AUDIENCE,
      algorithms: ['ES256', 'RS256'],
      clockSkewS: 30,
      scopesSupported: ['mcp:tools'],
    },
  });
}

async function connect(http: HttpServing, sub: string, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> {
  return connectWithToken(http.url, await issuer.sign({ sub, aud: AUDIENCE }), era, clients);
}

interface Stats {
  edges: { from: string; to: string; calls: number }[];
  principalCounters?: { dispatched: number; hits: number };
}

async function statsOf(client: Client): Promise<Stats> {
  const read = await client.readResource({ uri: PLANNER_STATS_URI });
  const [content] = read.contents;
  return JSON.parse(content !== undefined && 'text' in content ? content.text : '{}') as Stats;
}

const edgeOf = (stats: Stats) =>
  stats.edges.find((edge) => edge.from === 'rec__list' && edge.to === 'rec__get');

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('learning and speculative results per principal', () => {
  let dir: string;
  let stateFile: string;
  let auditFile: string;
  let host: ForesightHost;
  let http: HttpServing;
  let rec: RecordsPlugin;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'foresight-isolation-'));
    stateFile = path.join(dir, 'state.json');
    auditFile = path.join(dir, 'audit.jsonl');
    // One record: the only follow-up set is get r1. Its prior (0.05) is under the floor (0.3): only learning
    // lifts it, and only for the principal whose agent really goes on to read it.
    rec = recordsPlugin({ models: models(0.05), size: 1 });
    host = createHost({
      config: parseConfig('', '/test/foresight.toml', process.cwd()),
      logger: createMemoryLogger(),
      plugins: [{ plugin: rec.plugin }],
      planner: {
        enabled: true,
        learning: true,
        stateFile,
        probabilityFloor: 0.3,
        maxWastePerHit: Infinity,
      },
      audit: { enabled: true, file: auditFile },
    });
    http = await serve(host);
  });

  afterAll(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Waits until the planner has nothing queued or running, and returns how many calls it has run ahead. */
  async function idle(): Promise<number> {
    await vi.waitFor(() => {
      const snapshot = host.planner.snapshot();
      expect(snapshot.inFlight + snapshot.queued).toBe(0);
    });
    return host.planner.snapshot().counters.dispatched;
  }

  it('alice’s habit makes the planner read ahead for alice, never for bob, and bob is never served alice’s result', async () => {
    const alice = await connect(http, 'alice');
    const bob = await connect(http, 'bob');
    // Alice always reads the listed record next: after a few calls her estimate passes the floor.
    for (let i = 0; i < 8; i += 1) {
      await call(alice, 'rec__list');
      await call(alice, 'rec__get', { key: 'r1' });
    }
    await call(alice, 'rec__list');
    const dispatched = await idle();
    // Her learning does lift the link for her: get r1 was run ahead for her, and waits in the cache now.
    expect(dispatched).toBeGreaterThan(0);
    const ahead = rec.log.findIndex((entry) => entry.speculative);
    expect(rec.log[ahead]).toEqual({ tool: 'get', args: { key: 'r1' }, speculative: true });
    expect(rec.principals[ahead]).toMatch(/:alice$/);

    // Bob does what alice did, once: the planner plans with the prior alone for him and runs nothing ahead.
    await call(bob, 'rec__list');
    const bobsRead = await call(bob, 'rec__get', { key: 'r1' });
    expect(bobsRead.structuredContent).toEqual({ key: 'r1', value: 'v1.0' });
    expect(bobsRead._meta?.[PREFETCH_META_KEY]).toBeUndefined();
    expect(await idle()).toBe(dispatched);
    // Bob's read ran for him, not from alice's result waiting in the cache.
    const served = rec.log.length - 1;
    expect(rec.log[served]).toEqual({ tool: 'get', args: { key: 'r1' }, speculative: false });
    expect(rec.principals[served]).toMatch(/:bob$/);
    expect(rec.principals.filter((principal) => principal?.endsWith(':bob'))).toHaveLength(2);

    // The control: alice's result was there to serve, to any session of hers.
    const aliceAgain = await connect(http, 'alice');
    const alicesRead = await call(aliceAgain, 'rec__get', { key: 'r1' });
    expect(alicesRead._meta?.[PREFETCH_META_KEY]).toMatchObject({ source: 'cache' });
    expect(rec.log).toHaveLength(served + 1);

    // Each reads the planner's stats and sees what it learned for them alone.
    const [aliceStats, bobStats] = await Promise.all([statsOf(aliceAgain), statsOf(bob)]);
    expect(edgeOf(aliceStats)?.calls).toBe(9);
    expect(edgeOf(bobStats)?.calls).toBe(1);
    expect(JSON.stringify(bobStats)).not.toContain('alice');
    expect(bobStats).not.toHaveProperty('principals');
    expect(aliceStats.principalCounters?.dispatched).toBeGreaterThan(0);
    expect(aliceStats.principalCounters?.hits).toBeGreaterThan(0);
    expect(bobStats.principalCounters).toMatchObject({ dispatched: 0, hits: 0 });

    const audit = (await readFile(auditFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { principal: string; tool: string; speculative: unknown });
    const bobs = audit.filter((line) => line.principal.endsWith(':bob'));
    expect(bobs.map((line) => [line.tool, line.speculative])).toEqual([
      ['rec__list', false],
      ['rec__get', false],
    ]);
    expect(audit.some((line) => line.principal.endsWith(':alice') && line.speculative === 'hit')).toBe(true);
  });

  it('the state file keeps each principal’s counts apart', async () => {
    await host.close();
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as LearnedState;
    expect(state.version).toBe(2);
    const entries = Object.entries(state.principals);
    const [, alice] = entries.find(([principal]) => principal.endsWith(':alice')) ?? [];
    const [, bob] = entries.find(([principal]) => principal.endsWith(':bob')) ?? [];
    expect(alice?.tools.rec__list?.calls).toBe(9);
    expect(alice?.edges.find((edge) => edge.from === 'rec__list' && edge.to === 'rec__get')?.followed).toBe(
      8,
    );
    expect(bob?.tools.rec__list?.calls).toBe(1);
    expect(bob?.tools.rec__get?.calls).toBe(1);
    expect(alice?.counters?.dispatched).toBeGreaterThan(0);
    expect(bob?.counters).toMatchObject({ dispatched: 0, hits: 0, joins: 0 });
    // Nothing of a token in the file: principals are subjects.
    expect(JSON.stringify(state)).not.toMatch(/eyJ/);
  });
});

describe('max_calls_per_minute_per_client', () => {
  let host: ForesightHost;
  let http: HttpServing;
  let rec: RecordsPlugin;

  beforeAll(async () => {
    rec = recordsPlugin({ models: models(0.9), size: 3 });
    host = createHost({
      config: parseConfig(
        '[server.limits]\nmax_calls_per_minute_per_client = 4\n',
        '/test/foresight.toml',
        process.cwd(),
      ),
      logger: createMemoryLogger(),
      plugins: [{ plugin: rec.plugin }],
      planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity },
    });
    http = await serve(host);
  });

  afterAll(async () => {
    await host.close();
  });

  it('refuses a person’s call beyond the limit, over all their sessions and eras; another person is unaffected', async () => {
    const carol = await connect(http, 'carol');
    // The list runs three reads ahead for carol: the planner's calls do not count against her rate.
    await call(carol, 'rec__list');
    await vi.waitFor(() => expect(rec.count('get', true)).toBe(3));
    expect((await call(carol, 'rec__get', { key: 'r1' })).isError).toBeUndefined();
    // A second session of the same person counts against the same rate.
    const carolAgain = await connect(http, 'carol');
    expect((await call(carolAgain, 'rec__get', { key: 'r2' })).isError).toBeUndefined();
    const carolModern = await connect(http, 'carol', 'modern');
    expect((await call(carolModern, 'rec__get', { key: 'r3' })).isError).toBeUndefined();

    const refused = await call(carolAgain, 'rec__list');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^too many calls: this client may make 4 calls a minute \(server\.limits\.max_calls_per_minute_per_client\); retry in \d+ s$/,
    );
    expect(refused._meta?.['foresight/error']).toEqual({ code: 'E_RATE_LIMITED', kind: 'unavailable' });
    expect((await call(carolModern, 'rec__get', { key: 'r1' })).isError).toBe(true);

    const dave = await connect(http, 'dave');
    const answer = await call(dave, 'rec__get', { key: 'r1' });
    expect(answer.isError).toBeUndefined();
    expect(answer.structuredContent).toEqual({ key: 'r1', value: 'v1.0' });
  });
});
