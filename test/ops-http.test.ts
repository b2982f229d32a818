// The operations endpoints over real HTTP: /healthz, /readyz (plugins starting, a failing readiness check, a drain),
// and /metrics read after calls made by the SDK Client: counters by tool and outcome, no principal or token in
// them, and the same auth as /mcp unless metrics are public.
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { parseConfig } from '../src/config/index.js';
import { definePlugin, ForesightError } from '../src/contract/index.js';
import { READINESS_CHECK_TIMEOUT_MS, readiness } from '../src/ops/index.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger } from './support/in-memory.js';
import { modernPost } from './support/modern-wire.js';
import { PATIENCE_MS, TEST_TIMEOUT_MS } from './support/patience.js';
import { startOAuthRig } from './support/oauth-rig.js';
import { createTree } from './support/workspace-tree.js';

const TOKEN = 'ops-test-static-token-3f9c1e';

/** `ok` answers, `fails` is a tool error; `health` is what the plugin says of itself, changed by the tests. */
let health: 'ready' | 'starting' | 'down' = 'ready';
const probe = definePlugin({
  id: 'probe',
  version: '1.0.0',
  build: () => ({
    tools: () => [
      { name: 'ok', inputSchema: { type: 'object' } },
      { name: 'fails', inputSchema: { type: 'object' } },
    ],
    callTool: async (name) =>
      name === 'ok'
        ? { content: [{ type: 'text', text: 'fine' }] }
        : { content: [{ type: 'text', text: 'it broke' }], isError: true },
    health: () => ({ state: health, detail: 'at 10.0.0.7 with secret-ish detail' }),
  }),
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw GET with the headers given (node:http, so the Host header is ours to set, as a balancer's is). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const at = (http: HttpServing, path: string) => new URL(path, http.url).href;
const bearer = { authorization: `Bearer ${TOKEN}` };

async function clientOf(http: HttpServing): Promise<Client> {
  const client = new Client({ name: 'ops-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: bearer } }),
  );
  clients.push(client);
  return client;
}

/** The value of one series in the exposition text; 0 when it is absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const clients: Client[] = [];
const hosts: ForesightHost[] = [];
let host: ForesightHost;
let http: HttpServing;
let checkOk = true;

beforeAll(async () => {
  host = createHost({
    logger: createMemoryLogger(),
    plugins: [probe],
    planner: { enabled: false },
    ops: { metrics: true },
    readiness: [async () => ({ ok: checkOk, detail: checkOk ? 'redis reachable' : 'redis unreachable' })],
  });
  hosts.push(host);
  http = await host.serveHttp({ port: 0, authToken: TOKEN });
});

afterEach(() => {
  health = 'ready';
  checkOk = true;
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await Promise.allSettled(hosts.map((each) => each.close()));
});

describe('/healthz', () => {
  it('answers 200 {"status":"ok"} with no token and a Host of the balancer\'s own', async () => {
    const answer = await get(at(http, '/healthz'), { host: 'lb.internal:8080' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ status: 'ok' });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect((await get(at(http, '/healthz'), {}, 'HEAD')).status).toBe(200);
    expect((await get(at(http, '/healthz'), {}, 'POST')).status).toBe(405);
  });
});

describe('/readyz', () => {
  it('is 200 with every plugin started and every check passing, naming plugins and states only', async () => {
    const answer = await get(at(http, '/readyz'), { host: 'lb.internal:8080' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      status: 'ready',
      draining: false,
      plugins: { probe: 'ready' },
      failing: [],
    });
    // A plugin's own detail may name hosts or quote errors: it stays out of an unauthenticated answer.
    expect(answer.text).not.toContain('10.0.0.7');
  });

  it('is 503 while a plugin is still starting or down, and 200 again once it is ready', async () => {
    health = 'starting';
    const starting = await get(at(http, '/readyz'));
    expect(starting.status).toBe(503);
    expect(starting.headers['retry-after']).toBe('5');
    expect(JSON.parse(starting.text)).toMatchObject({ status: 'not_ready', plugins: { probe: 'starting' } });
    health = 'down';
    expect((await get(at(http, '/readyz'))).status).toBe(503);
    health = 'ready';
    expect((await get(at(http, '/readyz'))).status).toBe(200);
  });

  it("is 503 naming the failing readiness check (e.g. the cluster's Redis), and a throwing check fails too", async () => {
    checkOk = false;
    const answer = await get(at(http, '/readyz'));
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'not_ready', failing: ['redis unreachable'] });

    const throwing = createHost({
      logger: createMemoryLogger(),
      plugins: [probe],
      planner: { enabled: false },
      readiness: [() => Promise.reject(new TypeError(`connect ECONNREFUSED with ${TOKEN}`))],
    });
    hosts.push(throwing);
    const served = await throwing.serveHttp({ port: 0 });
    const refused = await get(at(served, '/readyz'));
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.text)).toMatchObject({ failing: ['check failed: TypeError'] });
    expect(refused.text).not.toContain(TOKEN);
  });
});

describe('a readiness check that never answers', () => {
  it('counts as failing after its bound, so the probe itself never hangs', async () => {
    vi.useFakeTimers();
    try {
      const report = readiness({
        started: () => true,
        plugins: () => [{ name: 'probe', state: 'ready' }],
        checks: [() => new Promise(() => {})],
        draining: () => false,
      });
      await vi.advanceTimersByTimeAsync(READINESS_CHECK_TIMEOUT_MS);
      expect(await report).toEqual({
        ready: false,
        draining: false,
        plugins: { probe: 'ready' },
        failing: [`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`],
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a host not running', () => {
  it('is not ready, and says so, whatever its plugins say', async () => {
    const report = await readiness({
      started: () => false,
      plugins: () => [{ name: 'probe', state: 'ready' }],
      checks: [],
      draining: () => false,
    });
    expect(report).toMatchObject({
      ready: false,
      failing: ['the host is not running (starting or shutting down)'],
    });
  });
});

describe('/metrics', () => {
  it('asks for the token /mcp asks for, and the Host check', async () => {
    const refused = await get(at(http, '/metrics'));
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('foresight_');
    expect((await get(at(http, '/metrics'), { ...bearer, host: 'evil.example:80' })).status).toBe(403);
    const allowed = await get(at(http, '/metrics'), bearer);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts calls by tool, plugin and outcome, their latency and errors, with no principal or token', async () => {
    const series =
      'foresight_tool_calls_total{tool="probe__ok",plugin="probe",outcome="ok",speculative="none"}';
    const before = sample((await get(at(http, '/metrics'), bearer)).text, series);
    const client = await clientOf(http);
    await client.callTool({ name: 'probe__ok', arguments: {} });
    await client.callTool({ name: 'probe__ok', arguments: {} });
    await client.callTool({ name: 'probe__fails', arguments: {} });
    await client.callTool({ name: 'no_such_tool_x9', arguments: {} }).catch(() => undefined);
    const text = (await get(at(http, '/metrics'), bearer)).text;
    expect(sample(text, series) - before).toBe(2);
    expect(
      sample(
        text,
        'foresight_tool_calls_total{tool="probe__fails",plugin="probe",outcome="error",speculative="none"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'foresight_tool_errors_total{tool="probe__fails",plugin="probe",kind="none",code="tool_error"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'foresight_tool_call_duration_seconds_count{tool="probe__ok",plugin="probe"}'),
    ).toBeGreaterThanOrEqual(2);
    // A name the client made up is not a label: every unlisted tool shares one series.
    expect(text).not.toContain('no_such_tool_x9');
    // The planner's counters, the gauges, the Redis counter the cluster part feeds, and process metrics.
    for (const name of [
      'foresight_speculative_hits_total 0',
      'foresight_speculative_joins_total 0',
      'foresight_speculative_wasted_total 0',
      'foresight_speculative_dispatched_total 0',
      'foresight_planner_cache_entries 0',
      'foresight_planner_cache_bytes 0',
      'foresight_calls_in_flight 0',
      'foresight_listen_streams_open 0',
      'foresight_redis_roundtrips_total 0',
      'process_cpu_seconds_total',
    ])
      expect(text).toContain(name);
    expect(sample(text, 'foresight_sessions_open')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toMatch(/principal|token:|address:/);

    host.metrics!.redisRoundTrips.inc(3);
    expect(sample((await get(at(http, '/metrics'), bearer)).text, 'foresight_redis_roundtrips_total')).toBe(
      3,
    );
  });

  it('follows the planner: a read run ahead and then served shows as dispatched, a hit and a cached entry', async () => {
    const tree = await createTree();
    try {
      const config = parseConfig(
        `[plugins.workspace]\nroot = ${JSON.stringify(tree.root)}\n`,
        '/test/foresight.toml',
        process.cwd(),
      );
      const ahead = createHost({
        config,
        ops: { metrics: true },
        logger: createMemoryLogger(),
        planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity },
      });
      hosts.push(ahead);
      const served = await ahead.serveHttp({ port: 0 });
      const client = await clientOf(served);
      const listed = await client.callTool({ name: 'workspace__glob', arguments: { pattern: 'src/*.ts' } });
      const first = (listed.structuredContent as { paths: string[] }).paths[0];
      const metricsText = async () => (await get(at(served, '/metrics'))).text;
      await vi.waitFor(async () => {
        const text = await metricsText();
        expect(sample(text, 'foresight_speculative_dispatched_total')).toBe(1);
        expect(sample(text, 'foresight_planner_cache_entries')).toBe(1);
        expect(sample(text, 'foresight_planner_cache_bytes')).toBeGreaterThan(0);
      }, PATIENCE_MS);
      await client.callTool({ name: 'workspace__read_file', arguments: { path: first } });
      const text = await metricsText();
      expect(sample(text, 'foresight_speculative_hits_total')).toBe(1);
      const read = 'tool="workspace__read_file",plugin="workspace",outcome="ok"';
      expect(sample(text, `foresight_tool_calls_total{${read},speculative="prefetch"}`)).toBe(1);
      expect(sample(text, `foresight_tool_calls_total{${read},speculative="hit"}`)).toBe(1);
      // The path read is an argument: never a label.
      expect(text).not.toContain(String(first));
    } finally {
      await tree.cleanup();
    }
  });

  it('public metrics need no token; a second host in the process keeps its own registry; metrics = false is a 404', async () => {
    const open = createHost({
      logger: createMemoryLogger(),
      plugins: [probe],
      planner: { enabled: false },
      ops: { metrics: true, metricsPublic: true },
    });
    hosts.push(open);
    const served = await open.serveHttp({ port: 0, authToken: TOKEN });
    const answer = await get(at(served, '/metrics'), { host: 'scraper.internal:9090' });
    expect(answer.status).toBe(200);
    // The first host's calls are not this one's.
    expect(answer.text).not.toContain('tool="probe__ok"');
    expect(sample(answer.text, 'foresight_redis_roundtrips_total')).toBe(0);

    const config = parseConfig('[server]\nmetrics = false\n', '/test/foresight.toml', process.cwd());
    const off = createHost({
      config,
      logger: createMemoryLogger(),
      plugins: [probe],
      planner: { enabled: false },
    });
    hosts.push(off);
    expect(off.metrics).toBeUndefined();
    const offServed = await off.serveHttp({ port: 0 });
    expect((await get(at(offServed, '/metrics'))).status).toBe(404);
    expect((await get(at(offServed, '/healthz'))).status).toBe(200);
  });

  it('under [auth] asks for a valid access token, with the challenge', async () => {
    const rig = await startOAuthRig({
      host: {
        logger: createMemoryLogger(),
        plugins: [probe],
        planner: { enabled: false },
        ops: { metrics: true },
      },
      oauth: {
        toolScopes: [{ glob: 'probe__fails', read: 'probe:admin', write: 'probe:admin', line: 0 }],
      },
    });
    try {
      const metricsUrl = new URL('/metrics', rig.http.url).href;
      const refused = await get(metricsUrl);
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
      const token = await rig.token();
      const allowed = await get(metricsUrl, { authorization: `Bearer ${token}` });
      expect(allowed.status).toBe(200);
      expect(allowed.text).not.toContain(token);
      expect((await get(new URL('/healthz', rig.http.url).href)).status).toBe(200);
      // A call refused for want of a scope is counted where the audit log would write it: an error, no tool ran.
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'probe__fails', arguments: {} },
      });
      const refusedCall = await rig.post({ authorization: `Bearer ${token}` }, call);
      expect(refusedCall.status).toBe(403);
      await refusedCall.body?.cancel();
      const text = (await get(metricsUrl, { authorization: `Bearer ${token}` })).text;
      expect(
        sample(
          text,
          'foresight_tool_errors_total{tool="probe__fails",plugin="probe",kind="none",code="insufficient_scope"}',
        ),
      ).toBe(1);
    } finally {
      await rig.close();
    }
  });
});

describe('the [server] ops keys', () => {
  it('parse with their defaults, and a bad drain_timeout_s names the key and the range', () => {
    const config = parseConfig(
      '[server]\nmetrics_public = true\ndrain_timeout_s = 30\n',
      '/test/foresight.toml',
      process.cwd(),
    );
    // Metrics are asked for: counting each call has a cost (docs/benchmarks.md).
    expect(config.server.ops).toEqual({ metrics: false, metricsPublic: true, drainTimeoutS: 30 });
    let error: unknown;
    try {
      parseConfig('[server]\ndrain_timeout_s = -1\n', '/test/foresight.toml', process.cwd());
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ForesightError);
    expect((error as Error).message).toMatch(/drain_timeout_s/);
    expect((error as Error).message).toMatch(/from 0 to 3600/);
  });
});

describe('drain', () => {
  it('turns /readyz and new /mcp requests into 503 with Retry-After while /healthz stays 200', async () => {
    const draining = createHost({
      logger: createMemoryLogger(),
      plugins: [probe],
      planner: { enabled: false },
    });
    hosts.push(draining);
    const served = await draining.serveHttp({ port: 0 });
    const client = await clientOf(served);
    // A listen stream stays open until close: it must not hold the drain to its deadline.
    let acknowledged!: () => void;
    const listening = new Promise<void>((resolve) => (acknowledged = resolve));
    const stream = modernPost(
      served.url,
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      // Open until the host closes it, the drain included: a stream cut on the client's side could not hold it.
      { readTimeoutMs: TEST_TIMEOUT_MS, onMessage: () => acknowledged() },
    );
    await listening;
    // true: drained before its deadline, which lies past the test's patience, with the stream still open.
    expect(await draining.drain((2 * PATIENCE_MS) / 1000)).toBe(true);
    const ready = await get(at(served, '/readyz'));
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'not_ready', draining: true });
    const refused = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/shutting down/);
    await expect(client.listTools()).rejects.toThrow();
    expect((await get(at(served, '/healthz'))).status).toBe(200);
    await draining.close();
    await stream;
  });
});
