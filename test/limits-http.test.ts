// The HTTP server under a client that takes what it can: sessions opened by the thousand, listen streams held open,
// sessions opened and never used, one id used twice, batches on revisions without them, and arguments nested until
// something breaks. Each is bounded or refused with a clear answer, and the server keeps serving everyone else.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger } from './support/in-memory.js';
import { MODERN_VERSION, modernMeta, modernPost, postRaw } from './support/modern-wire.js';
import { recordsPlugin } from './support/records-plugin.js';

const MAX_SESSIONS = 1_000;
const MAX_LISTEN_STREAMS = 3;

/** One raw POST to the server, for what a correct client would never send. */
const post = (url: string, body: string, headers: Record<string, string> = {}) => postRaw(url, body, headers);

const initialize = (protocolVersion = '2025-11-25') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  });

/** Opens a 2025 session by hand: its id, after initialize and the initialized notification. */
async function openRawSession(url: string, protocolVersion = '2025-11-25'): Promise<string> {
  const opened = await post(url, initialize(protocolVersion));
  const session = String(opened.headers['mcp-session-id']);
  await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
    'mcp-session-id': session,
    'mcp-protocol-version': protocolVersion,
  });
  return session;
}

/** Runs `tasks` with at most `width` at once; answers in task order. */
async function inBatches<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

let host: ForesightHost;
let http: HttpServing;
const rec = recordsPlugin();

beforeAll(async () => {
  host = createHost({
    plugins: [rec.plugin],
    planner: { enabled: false },
    logger: createMemoryLogger(),
    limits: { maxListenStreams: MAX_LISTEN_STREAMS, maxDepth: 64 },
  });
  http = await host.serveHttp({ port: 0 });
});

afterAll(async () => {
  await host.close();
});

describe('sessions: a capped number, refused with 503 and Retry-After beyond it', () => {
  let capped: ForesightHost;
  let http: HttpServing;
  beforeAll(async () => {
    capped = createHost({
      plugins: [recordsPlugin().plugin],
      planner: { enabled: false },
      logger: createMemoryLogger(),
      limits: { maxSessions: MAX_SESSIONS },
    });
    http = await capped.serveHttp({ port: 0 });
  });
  afterAll(() => capped.close());

  it('10,000 initializes against a cap of 1,000: 1,000 sessions, 9,000 refusals, and the server still serves', async () => {
    const answers = await inBatches(10_000, 50, () => post(http.url, initialize()));
    const opened = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(opened).toHaveLength(MAX_SESSIONS);
    expect(refused).toHaveLength(9_000);
    expect(http.sessionCount()).toBe(MAX_SESSIONS);
    expect(refused[0]?.headers['retry-after']).toBe('5');
    expect(refused[0]?.messages[0]?.error?.message).toContain('server.limits.max_sessions');

    // A 2026-07-28 request needs no session: it is served while every session place is taken.
    const discover = await modernPost(http.url, 'server/discover');
    expect(discover.status).toBe(200);
    expect(discover.response?.result).toMatchObject({ resultType: 'complete' });

    // A session that ends frees its place for the next client.
    const first = String(opened[0]?.headers['mcp-session-id']);
    const closing = await new Promise<number>((resolve, reject) => {
      const target = new URL(http.url);
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'DELETE',
          headers: { 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.once('error', reject);
      req.end();
    });
    expect(closing).toBe(200);
    await expect.poll(() => http.sessionCount()).toBe(MAX_SESSIONS - 1);
    const client = new Client({ name: 'late', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    await client.connect(transport);
    expect(http.sessionCount()).toBe(MAX_SESSIONS);
    await transport.terminateSession();
    await client.close();
    await expect.poll(() => http.sessionCount()).toBe(MAX_SESSIONS - 1);
  }, 120_000);
});

describe('sessions that never make a call', () => {
  it('expire after unused_session_idle_s while a session in use stays', async () => {
    const idle = createHost({
      plugins: [recordsPlugin().plugin],
      planner: { enabled: false },
      logger: createMemoryLogger(),
      limits: { unusedSessionIdleS: 1, sessionIdleS: 3_600 },
    });
    const served = await idle.serveHttp({ port: 0 });
    try {
      const used = new Client({ name: 'used', version: '1.0.0' });
      await used.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      await used.listTools();
      await openRawSession(served.url);
      await openRawSession(served.url);
      expect(served.sessionCount()).toBe(3);
      await expect.poll(() => served.sessionCount(), { timeout: 10_000, interval: 200 }).toBe(1);
      // The one left is the session that made a call.
      expect((await used.listTools()).tools.length).toBeGreaterThan(0);
      await used.close();
    } finally {
      await idle.close();
    }
  });
});

describe('listen streams: a capped number, over every client', () => {
  it('a stream beyond max_listen_streams gets 503 and Retry-After; a place frees when a stream ends', async () => {
    const acknowledged: Array<Promise<void>> = [];
    const streams = Array.from({ length: MAX_LISTEN_STREAMS }, () => {
      let ack!: () => void;
      acknowledged.push(new Promise<void>((resolve) => (ack = resolve)));
      return modernPost(
        http.url,
        'subscriptions/listen',
        { notifications: { toolsListChanged: true } },
        { readTimeoutMs: 1_500, onMessage: () => ack() },
      );
    });
    await Promise.all(acknowledged);
    const refused = await modernPost(http.url, 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    expect(refused.status).toBe(503);
    expect(refused.response?.error?.message).toContain('server.limits.max_listen_streams');
    await Promise.all(streams);
    await expect
      .poll(
        async () =>
          (
            await modernPost(
              http.url,
              'subscriptions/listen',
              { notifications: { toolsListChanged: true } },
              { maxMessages: 1 },
            )
          ).status,
      )
      .toBe(200);
  });
});

describe('one session, one id at a time', () => {
  it('a ping that reuses the id of a call in flight is refused, and the call still gets its answer', async () => {
    const session = await openRawSession(http.url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const release = rec.holdGets();
    const call = post(
      http.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 77,
        method: 'tools/call',
        params: { name: 'rec__get', arguments: { key: 'r1' } },
      }),
      headers,
    );
    await expect.poll(() => rec.heldGets()).toBe(1);
    const ping = await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'ping' }), headers);
    expect(ping.status).toBe(409);
    expect(ping.messages[0]).toMatchObject({ id: 77, error: { code: -32600 } });
    expect(ping.messages[0]?.error?.message).toContain('id 77 is still in use');
    release();
    const answered = await call;
    expect(answered.messages.find((message) => message.id === 77)?.result).toMatchObject({
      structuredContent: { key: 'r1', value: 'v1.0' },
    });
    // Once answered, the id is free again.
    const again = await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'ping' }), headers);
    expect(again.messages[0]).toMatchObject({ id: 77, result: {} });
  });
});

describe('JSON-RPC batches', () => {
  const batch = JSON.stringify([
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]);

  it('are refused on a revision that removed them, naming the revision', async () => {
    const session = await openRawSession(http.url, '2025-06-18');
    const answer = await post(http.url, batch, {
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(answer.status).toBe(400);
    expect(answer.messages[0]?.error?.message).toContain(
      'batches are not part of protocol revision 2025-06-18',
    );
  });

  it('are served on 2025-03-26, the one revision that had them', async () => {
    const session = await openRawSession(http.url, '2025-03-26');
    const answer = await post(http.url, batch, { 'mcp-session-id': session });
    expect(answer.status).toBe(200);
    expect(answer.messages.map((message) => message.id).sort()).toEqual([1, 2]);
  });
});

describe('nesting depth', () => {
  const nested = (depth: number) => {
    let value: unknown = 'bottom';
    for (let level = 0; level < depth; level++) value = { deeper: value };
    return value;
  };
  /** Deeper than JSON.stringify itself can go, so written as text. */
  const deepText = (depth: number) => `${'{"deeper":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
  const deepCall = (id: number, meta: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"rec__get","arguments":{"key":${deepText(100_000)}}${meta}}}`;

  it('100,000 levels of arguments are invalid params, not an internal error, over both eras', async () => {
    const modernEnvelope = `,"_meta":${JSON.stringify(modernMeta())}`;
    const modern = await post(http.url, deepCall(4, modernEnvelope), {
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': 'rec__get',
    });
    expect(modern.status).toBe(400);
    expect(modern.messages[0]).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(modern.messages[0]?.error?.message).toContain('more than 64 levels deep');

    const session = await openRawSession(http.url);
    const legacy = await post(http.url, deepCall(5, ''), {
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(legacy.status).toBe(400);
    expect(legacy.messages[0]).toMatchObject({ id: 5, error: { code: -32602 } });
    // The session is still served.
    const ping = await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }), {
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(ping.messages[0]).toMatchObject({ id: 6, result: {} });
  });

  it('a deep _meta is refused the same way, and a value within the limit is served', async () => {
    const deepMeta = await modernPost(http.url, 'tools/list', { _meta: { 'x-extra': nested(200) } });
    expect(deepMeta.status).toBe(400);
    expect(deepMeta.response?.error?.message).toContain('_meta');
    const within = await modernPost(http.url, 'tools/call', {
      name: 'rec__touch',
      arguments: { key: 'r1', extra: nested(40) },
    });
    expect(within.status).toBe(200);
    expect(within.response?.result).toBeDefined();
  });
});

describe('slow clients', () => {
  it('a client that never finishes its headers, or its body, is cut off after the timeout', async () => {
    const slow = createHost({
      plugins: [recordsPlugin().plugin],
      planner: { enabled: false },
      logger: createMemoryLogger(),
      limits: { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 },
    });
    const served = await slow.serveHttp({ port: 0 });
    try {
      const trickle = (text: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(served.port, '127.0.0.1', () => socket.write(text));
          let answer = '';
          socket.on('data', (chunk) => (answer += String(chunk)));
          socket.once('close', () => resolve(answer));
          socket.once('error', reject);
        });
      // Headers begun and never ended.
      const headers = await trickle(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nX-Slow: 1\r\n`);
      expect(headers).toMatch(/^HTTP\/1\.1 408/);
      // Headers done, the body promised and never sent.
      const body = await trickle(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`,
      );
      expect(body).toMatch(/^HTTP\/1\.1 408/);
      // Everyone else is served as before.
      expect((await modernPost(served.url, 'server/discover')).status).toBe(200);
    } finally {
      await slow.close();
    }
  });
});
