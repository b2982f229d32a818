// Calls in flight under a client that sends more than the server can run: a global and a per-client cap, a
// bounded queue per client refused beyond with E_SERVER_BUSY, turns taken between waiting clients, and a stdio
// client pipelining 20,000 calls slowed down by stdin reads pausing, so that every call completes within a short
// deadline instead of all of them waiting behind each other until it passes.
import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerLimits } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { AdmissionRefused, RequestAdmission } from '../src/protocol/index.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { type JsonRpcMessage, modernMeta } from './support/modern-wire.js';
import { type RecordsPlugin, recordsPlugin } from './support/records-plugin.js';

let host: ForesightHost | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await host?.close();
  host = undefined;
});

function hostWith(rec: RecordsPlugin, limits: Partial<ServerLimits>, callToolMs = 30_000): ForesightHost {
  host = createHost({
    plugins: [{ plugin: rec.plugin, deadlines: { callTool: callToolMs } }],
    planner: { enabled: false },
    logger: createMemoryLogger(),
    limits,
  });
  return host;
}

async function httpClient(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

const get = (client: Client, key: string) => client.callTool({ name: 'rec__get', arguments: { key } });

describe('over HTTP: a global cap, a per-client cap, and a bounded queue per client', () => {
  it('a flooding client runs its share, queues up to the bound, is refused beyond it; another client still runs', async () => {
    const rec = recordsPlugin();
    const served = await hostWith(rec, {
      maxInFlight: 3,
      maxInFlightPerClient: 2,
      maxQueuedPerClient: 3,
    }).serveHttp({ port: 0 });
    const flooder = await httpClient(served.url, 'flooder');
    const other = await httpClient(served.url, 'other');
    const release = rec.holdGets();

    const flood = Array.from({ length: 10 }, () => get(flooder, 'r1'));
    await expect.poll(() => rec.heldGets()).toBe(2);
    // Beyond 2 running and 3 waiting, the client is told at once that the server is busy.
    const refusals = await Promise.all(flood.slice(5));
    for (const refused of refusals) {
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain(
        'the server is busy: this client already has 2 calls running and 3 waiting',
      );
    }
    // The other client gets the one slot left of the global three.
    const others = get(other, 'r2');
    await expect.poll(() => rec.heldGets()).toBe(3);
    release();
    const admitted = await Promise.all([...flood.slice(0, 5), others]);
    for (const answer of admitted) expect(answer.isError).toBeFalsy();
    expect(rec.count('get')).toBe(6);
    expect(rec.peakConcurrentGets()).toBe(3);
  });
});

describe('RequestAdmission: turns between waiting clients', () => {
  it('a second client waits one turn, not behind the whole queue of the first', async () => {
    const admission = new RequestAdmission({
      maxInFlight: 1,
      maxInFlightPerClient: 1,
      maxQueuedPerClient: 10,
    });
    const order: string[] = [];
    const run = async (client: string) => {
      const release = await admission.admit(client);
      order.push(client);
      await Promise.resolve();
      release();
    };
    const all = [run('a'), run('a'), run('a'), run('a'), run('b'), run('b')];
    await Promise.all(all);
    expect(order).toEqual(['a', 'a', 'b', 'a', 'b', 'a']);
    expect(admission.inFlight).toBe(0);
  });

  it('a client at its own cap keeps its turn while another uses the free slot', async () => {
    const admission = new RequestAdmission({
      maxInFlight: 2,
      maxInFlightPerClient: 1,
      maxQueuedPerClient: 10,
    });
    const heldA = await admission.admit('a');
    const waitingA = admission.admit('a');
    const b = await admission.admit('b');
    expect(admission.inFlight).toBe(2);
    b();
    // The free slot cannot go to a (at its cap of 1); it stays free for the next client.
    expect(admission.inFlight).toBe(1);
    const c = await admission.admit('c');
    heldA();
    c();
    (await waitingA)();
    expect(admission.inFlight).toBe(0);
  });

  it('a full queue refuses at once, and an abandoned wait leaves the queue', async () => {
    const admission = new RequestAdmission({
      maxInFlight: 1,
      maxInFlightPerClient: 1,
      maxQueuedPerClient: 1,
    });
    const held = await admission.admit('a');
    const aborted = new AbortController();
    const waiting = admission.admit('a', aborted.signal);
    await expect(admission.admit('a')).rejects.toBeInstanceOf(AdmissionRefused);
    aborted.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    const next = admission.admit('a');
    held();
    (await next)();
    expect(admission.inFlight).toBe(0);
  });
});

describe('over stdio: a client pipelining without bound', () => {
  it('20,000 calls with a 3 s deadline all complete: stdin reads pause while the queue is full', async () => {
    const rec = recordsPlugin();
    const limits = { maxInFlight: 64, maxInFlightPerClient: 16, maxQueuedPerClient: 64 };
    const stdioHost = hostWith(rec, limits, 3_000);
    const input = new PassThrough();
    const output = new PassThrough();
    const answers = new Map<number, { result?: { isError?: boolean }; error?: unknown }>();
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const message = JSON.parse(buffered.slice(0, newline)) as {
          id?: number;
          result?: { isError?: boolean };
          error?: unknown;
        };
        buffered = buffered.slice(newline + 1);
        if (typeof message.id === 'number') answers.set(message.id, message);
      }
    });
    const serving = await stdioHost.serveStdio({ input, output });
    const line = (message: object) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
    input.write(
      line({
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'flood', version: '1' },
        },
      }) + line({ method: 'notifications/initialized' }),
    );
    await expect.poll(() => answers.has(0)).toBe(true);

    const release = rec.holdGets();
    const CALLS = 20_000;
    // In writes of 100 lines, as a pipe delivers them: what is not read stays in the pipe.
    for (let first = 1; first <= CALLS; first += 100) {
      let chunk = '';
      for (let id = first; id < first + 100; id++)
        chunk += line({ id, method: 'tools/call', params: { name: 'rec__get', arguments: { key: 'r1' } } });
      input.write(chunk);
    }
    await expect.poll(() => rec.heldGets()).toBe(limits.maxInFlightPerClient);
    // Reading stopped at 64 unanswered (16 running, 48 waiting): the rest of the flood is still in the pipe, unread.
    expect(input.isPaused()).toBe(true);
    expect(input.readableLength).toBeGreaterThan(0);
    expect(answers.size).toBe(1);
    release();

    await expect.poll(() => answers.size, { timeout: 120_000, interval: 200 }).toBe(CALLS + 1);
    const failed = [...answers.values()].filter((answer) => answer.error || answer.result?.isError);
    expect(failed).toEqual([]);
    expect(rec.count('get')).toBe(CALLS);
    expect(rec.peakConcurrentGets()).toBeLessThanOrEqual(limits.maxInFlightPerClient);
    input.end();
    await serving.closed;
  }, 180_000);
});

/** One in-process stdio connection: write lines, read answers by id. */
async function stdioConnection(served: ForesightHost) {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers = new Map<string | number | null, JsonRpcMessage>();
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const message = JSON.parse(buffered.slice(0, newline)) as JsonRpcMessage;
      buffered = buffered.slice(newline + 1);
      if (message.method === undefined) answers.set(message.id ?? null, message);
    }
  });
  const serving = await served.serveStdio({ input, output });
  return {
    send: (text: string) => input.write(`${text}\n`),
    answered: (id: string | number) => answers.has(id),
    answer: async (id: string | number | null) => {
      await expect.poll(() => answers.has(id)).toBe(true);
      return answers.get(id)!;
    },
    close: async () => {
      input.end();
      await serving.closed;
    },
  };
}

describe('over stdio: what comes before the opening, and how deep a message may go', () => {
  it('requests other than ping are refused until initialize; a discover probe does not open the connection', async () => {
    const stdio = await stdioConnection(hostWith(recordsPlugin(), {}));
    stdio.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: modernMeta() } }),
    );
    expect((await stdio.answer(1)).result).toMatchObject({ resultType: 'complete' });
    stdio.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect((await stdio.answer(2)).error?.message).toContain('tools/list before the connection is open');
    stdio.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'rec__put', arguments: {} },
      }),
    );
    expect((await stdio.answer(3)).error?.code).toBe(-32600);
    stdio.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }));
    expect((await stdio.answer(4)).result).toEqual({});
    stdio.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'late', version: '1' },
        },
      }),
    );
    expect((await stdio.answer(5)).result).toMatchObject({ protocolVersion: '2025-11-25' });
    stdio.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }));
    expect((await stdio.answer(6)).result?.tools).toBeDefined();
    await stdio.close();
  });

  it('a message nested 100,000 levels deep is invalid params, and the connection serves on', async () => {
    const stdio = await stdioConnection(hostWith(recordsPlugin(), {}));
    stdio.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'deep', version: '1' },
        },
      }),
    );
    await stdio.answer(1);
    const depth = 100_000;
    stdio.send(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"rec__get","arguments":{"key":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
    );
    const refused = await stdio.answer(2);
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toContain('more than 64 levels deep');
    stdio.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }));
    expect((await stdio.answer(3)).result).toEqual({});
    await stdio.close();
  });
});

describe('over stdio: listen streams count against the same cap as over HTTP', () => {
  it('a listen stream beyond max_listen_streams is refused; ending one frees its place', async () => {
    const stdio = await stdioConnection(hostWith(recordsPlugin(), { maxListenStreams: 1 }));
    const listen = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: modernMeta() },
      });
    stdio.send(listen(1));
    stdio.send(listen(2));
    const refused = await stdio.answer(2);
    expect(refused.error?.message).toContain('server.limits.max_listen_streams');
    // The client ends its first stream; the next one is accepted (and stays open, so no answer comes).
    stdio.send(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    );
    stdio.send(listen(3));
    stdio.send(
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: modernMeta() } }),
    );
    await stdio.answer(4);
    expect(stdio.answered(3)).toBe(false);
    stdio.send(listen(5));
    expect((await stdio.answer(5)).error?.message).toContain('server.limits.max_listen_streams');
    await stdio.close();
  });
});
