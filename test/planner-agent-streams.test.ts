// The planner without sessions: 2026-07-28 requests over HTTP are keyed into agent streams by principal, clientInfo
// and W3C trace id, and no speculative result ever crosses principals, not even a session-independent one.
import { afterEach, describe, expect, it } from 'vitest';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { PREFETCH_META_KEY, ResultCache } from '../src/planner/index.js';
import { type HttpServing, traceIdOf } from '../src/protocol/index.js';
import { createMemoryLogger } from './support/in-memory.js';
import { type WireAnswer, modernMeta, modernPost } from './support/modern-wire.js';
import { model, ok, parts, shared } from './support/planner-fixtures.js';
import { type RecordsPlugin, recordsPlugin } from './support/records-plugin.js';

function withModels(sessionIndependent: boolean): RecordsPlugin {
  return recordsPlugin({
    models: {
      list: model({
        followUp: [{ tool: 'rec__get', probability: 0.9, projection: 'items[*].key', projectionArg: 'key' }],
      }),
      get: model({ sessionIndependent }),
    },
  });
}

let host: ForesightHost | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function serve(rec: RecordsPlugin): Promise<HttpServing> {
  host = createHost({
    plugins: [{ plugin: rec.plugin }],
    logger: createMemoryLogger(),
    planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity },
  });
  return host.serveHttp({ port: 0 });
}

interface Caller {
  /** Another loopback address is another principal. */
  localAddress?: string;
  client?: string;
  traceparent?: string;
}

function callAs(
  url: string,
  caller: Caller,
  name: string,
  args: Record<string, unknown> = {},
): Promise<WireAnswer> {
  const extra: Record<string, unknown> = {};
  if (caller.client) extra['io.modelcontextprotocol/clientInfo'] = { name: caller.client, version: '1.0.0' };
  if (caller.traceparent) extra.traceparent = caller.traceparent;
  return modernPost(
    url,
    'tools/call',
    { name, arguments: args },
    { meta: modernMeta({}, extra), ...(caller.localAddress ? { localAddress: caller.localAddress } : {}) },
  );
}

const prefetched = (answer: WireAnswer) =>
  (answer.response?.result?._meta as Record<string, unknown>)?.[PREFETCH_META_KEY];

/** Lists as `caller`, then waits until the three follow-up reads have run ahead. */
async function listAndSettle(url: string, rec: RecordsPlugin, caller: Caller) {
  await callAs(url, caller, 'rec__list');
  await expect.poll(() => rec.count('get', true), { timeout: 5_000 }).toBe(3);
}

const TRACE_A = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const TRACE_B = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('agent streams of 2026-07-28 requests', () => {
  it('one principal and client, without trace ids: one stream, served from what it ran ahead', async () => {
    const rec = withModels(false);
    const { url } = await serve(rec);
    await listAndSettle(url, rec, { client: 'agent' });
    expect(prefetched(await callAs(url, { client: 'agent' }, 'rec__get', { key: 'r1' }))).toMatchObject({
      source: 'cache',
    });
  });

  it('a call run ahead names, in RequestContext.principal, the principal it runs ahead for', async () => {
    const rec = withModels(false);
    const { url } = await serve(rec);
    await listAndSettle(url, rec, { client: 'agent', localAddress: '127.0.0.2' });
    const principals = new Set(rec.principals);
    expect([...principals]).toEqual([expect.stringMatching(/^address:(::ffff:)?127\.0\.0\.2$/)]);
    expect(rec.log.filter((call) => call.speculative)).toHaveLength(3);
  });

  it('another client of the same principal, or another trace, is another stream', async () => {
    const rec = withModels(false);
    const { url } = await serve(rec);
    await listAndSettle(url, rec, { client: 'agent', traceparent: TRACE_A });
    expect(
      prefetched(
        await callAs(url, { client: 'other-agent', traceparent: TRACE_A }, 'rec__get', { key: 'r1' }),
      ),
    ).toBeUndefined();
    expect(
      prefetched(await callAs(url, { client: 'agent', traceparent: TRACE_B }, 'rec__get', { key: 'r2' })),
    ).toBeUndefined();
    expect(
      prefetched(await callAs(url, { client: 'agent', traceparent: TRACE_A }, 'rec__get', { key: 'r3' })),
    ).toMatchObject({
      source: 'cache',
    });
  });

  it('a session-independent result reaches the principal’s other streams, never another principal', async () => {
    const rec = withModels(true);
    const { url } = await serve(rec);
    await listAndSettle(url, rec, { client: 'agent' });
    expect(
      prefetched(
        await callAs(url, { client: 'agent', localAddress: '127.0.0.2' }, 'rec__get', { key: 'r1' }),
      ),
    ).toBeUndefined();
    expect(
      prefetched(await callAs(url, { client: 'second-agent' }, 'rec__get', { key: 'r2' })),
    ).toMatchObject({
      source: 'cache',
    });
    // Only the other principal's read went to the plugin on its own.
    expect(rec.count('get', false)).toBe(1);
  });
});

describe('the cache keys results by principal', () => {
  it('serves neither a session’s own entries nor session-independent ones across principals', () => {
    const cache = new ResultCache({ now: () => 0 });
    cache.put({ ...shared('t'), principal: 'alice' }, ok('shared for alice'), 60);
    cache.put({ ...parts('t', {}, 'A'), principal: 'alice' }, ok('own for alice'), 60);
    expect(cache.get({ ...parts('t', {}, 'A'), principal: 'bob' })).toBeUndefined();
    expect(cache.get({ ...shared('t'), principal: 'bob' })).toBeUndefined();
    expect(cache.get({ ...parts('t', {}, 'B'), principal: 'alice' })?.result).toEqual(ok('shared for alice'));
  });
});

describe('traceIdOf', () => {
  it('reads the trace id of a W3C traceparent, and nothing from a malformed or all-zero one', () => {
    expect(traceIdOf(TRACE_A)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdOf(` ${TRACE_A.toUpperCase()} `)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdOf('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdOf('00-4bf92f35-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdOf(42)).toBeUndefined();
  });
});
