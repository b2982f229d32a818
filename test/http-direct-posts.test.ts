// A 2025 session's requests on the wire: answered as one JSON body when the answer is all they get, upgraded to a
// resumable SSE stream when something comes first, when they run long, or when they close their stream for
// polling (SEP-1699); requests the SDK's transport refuses are still refused by it.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { definePlugin } from '../src/index.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger } from './support/in-memory.js';

const VERSION = '2025-11-25';

/** A promise the test resolves. */
function gate(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Gates the test opens: `poll` and `slow` answer once theirs is opened, and `hold` says when it has begun. */
const gates = {
  poll: gate(),
  slow: gate(),
  onHold: undefined as (() => void) | undefined,
};

/** Resolves once a `hold` call has reached the plugin (the next one after this is called). */
function nextHold(): Promise<void> {
  return new Promise((resolve) => (gates.onHold = resolve));
}

const plugin = definePlugin({
  id: 'd',
  version: '1.0.0',
  build: () => ({
    tools: () =>
      ['quick', 'chatty', 'poll', 'slow', 'hold'].map((name) => ({
        name,
        inputSchema: { type: 'object' as const },
      })),
    callTool: async (name, _args, rc) => {
      if (name === 'chatty') await rc.reportProgress(1, 2, 'half');
      if (name === 'poll') {
        rc.closeSSEStream?.();
        await gates.poll.promise;
      }
      // Runs until the client has seen its response begin: as long as the host takes to prime a stream.
      if (name === 'slow') await gates.slow.promise;
      if (name === 'hold')
        await new Promise((_resolve, reject) => {
          rc.signal.addEventListener('abort', () => reject(rc.signal.reason as Error));
          gates.onHold?.();
        });
      return { content: [{ type: 'text', text: `${name} done` }] };
    },
  }),
});

interface RawAnswer {
  status: number;
  contentType: string;
  sessionId: string | undefined;
  text: string;
}

function send(
  url: string,
  method: 'POST' | 'GET' | 'DELETE',
  headers: Record<string, string>,
  body?: unknown,
  /** Hears each chunk of the body as it arrives. */
  onData?: (chunk: string) => void,
): Promise<RawAnswer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(text === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }),
          ...headers,
        },
      },
      (res) => {
        let read = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          read += chunk;
          onData?.(chunk);
        });
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type']),
            sessionId: res.headers['mcp-session-id'] as string | undefined,
            text: read,
          }),
        );
      },
    );
    req.once('error', reject);
    req.end(text);
  });
}

/** The events of an SSE body: each one's id (if any) and data. */
function events(text: string): Array<{ id?: string; data: string; retry?: string }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((line) => line.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      return {
        ...(field('id') === undefined ? {} : { id: field('id') }),
        ...(field('retry') === undefined ? {} : { retry: field('retry') }),
        data: field('data') ?? '',
      };
    });
}

let host: ForesightHost;
let http: HttpServing;
let session: Record<string, string>;
let nextId = 1;

interface CallOptions {
  /** Default the next number. */
  id?: string | number;
  /** Default the shared session's. */
  headers?: Record<string, string>;
  /** More of the call's params (`_meta`). */
  params?: Record<string, unknown>;
  /** Hears each chunk of the response body as it arrives. */
  onData?: (chunk: string) => void;
}

/** A raw `tools/call` of one of the plugin's tools on a session. */
const call = (name: string, options: CallOptions = {}) =>
  send(
    http.url,
    'POST',
    options.headers ?? session,
    {
      jsonrpc: '2.0',
      id: options.id ?? nextId++,
      method: 'tools/call',
      params: { name: `d__${name}`, arguments: {}, ...options.params },
    },
    options.onData,
  );

async function openSession(): Promise<Record<string, string>> {
  const { sessionId: opened } = await send(
    http.url,
    'POST',
    {},
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
  );
  expect(opened).toBeDefined();
  const headers = { 'mcp-session-id': opened!, 'mcp-protocol-version': VERSION };
  const initialized = await send(http.url, 'POST', headers, {
    jsonrpc: '2.0',
    method: 'notifications/initialized',
  });
  expect(initialized.status).toBe(202);
  return headers;
}

beforeAll(async () => {
  host = createHost({ plugins: [plugin], logger: createMemoryLogger(), planner: { enabled: false } });
  http = await host.serveHttp({ port: 0 });
  session = await openSession();
});

afterAll(async () => {
  await host.close();
});

describe('a 2025 session request answered on its own response', () => {
  it('answers with one JSON body when the answer is the only message', async () => {
    const answer = await call('quick');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    expect(JSON.parse(answer.text)).toMatchObject({
      jsonrpc: '2.0',
      result: { content: [{ type: 'text', text: 'quick done' }] },
    });
  });

  it('turns into a primed SSE stream when a progress notification comes first', async () => {
    const answer = await call('chatty', { params: { _meta: { progressToken: 'p1' } } });
    expect(answer.contentType).toBe('text/event-stream');
    const [priming, progress, result] = events(answer.text);
    expect(priming?.data).toBe('');
    expect(Number(priming?.retry)).toBeGreaterThan(0);
    expect(priming?.id).toBeDefined();
    expect(JSON.parse(progress!.data)).toMatchObject({
      method: 'notifications/progress',
      params: { progressToken: 'p1', progress: 1, total: 2 },
    });
    expect(JSON.parse(result!.data)).toMatchObject({ result: { content: [{ text: 'chatty done' }] } });
    expect(new Set([priming?.id, progress?.id, result?.id]).size).toBe(3);
  });

  it('primes a stream for a call that runs long, so the client could resume it', async () => {
    // The call ends only once its response has begun (the priming event), so nothing but its running long
    // made the host open the stream.
    const answer = await call('slow', { onData: () => gates.slow.resolve() });
    expect(answer.contentType).toBe('text/event-stream');
    const [priming, result] = events(answer.text);
    expect(priming).toMatchObject({ data: '' });
    expect(JSON.parse(result!.data)).toMatchObject({ result: { content: [{ text: 'slow done' }] } });
  });

  it('closes its stream for polling: its id stays taken, a GET with Last-Event-ID gets the answer, and again once answered', async () => {
    const pollId = nextId;
    const closed = await call('poll');
    expect(closed.contentType).toBe('text/event-stream');
    const [priming, ...rest] = events(closed.text);
    expect(rest).toEqual([]);
    // Still waiting, though its response has closed: its id is not free yet.
    const clash = await call('quick', { id: pollId });
    expect(clash.status).toBe(409);
    gates.poll.resolve();
    const resumed = await send(http.url, 'GET', {
      ...session,
      'last-event-id': priming!.id!,
      accept: 'text/event-stream',
    });
    expect(resumed.status).toBe(200);
    const delivered = events(resumed.text);
    expect(JSON.parse(delivered.at(-1)!.data)).toMatchObject({
      result: { content: [{ text: 'poll done' }] },
    });
    // Answered by now: the SDK's transport replays it from the same store.
    const again = await send(http.url, 'GET', {
      ...session,
      'last-event-id': priming!.id!,
      accept: 'text/event-stream',
    });
    expect(again.status).toBe(200);
    expect(JSON.parse(events(again.text).at(-1)!.data)).toMatchObject({
      result: { content: [{ text: 'poll done' }] },
    });
  });

  it('leaves a request with headers the SDK refuses to the SDK: 406 without text/event-stream in Accept', async () => {
    const refused = await call('quick', { headers: { ...session, accept: 'application/json' } });
    expect(refused.status).toBe(406);
  });

  it('ends the response of a request the client cancels, which nothing will answer', async () => {
    const holding = nextHold();
    const waiting = call('hold', { id: 'cancel-me' });
    await holding;
    const cancelled = await send(http.url, 'POST', session, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'cancel-me', reason: 'not needed' },
    });
    expect(cancelled.status).toBe(202);
    const ended = await waiting;
    expect(ended.status).toBe(204);
    expect(ended.text).toBe('');
    // The id is free again, and the session serves on.
    const again = await call('quick', { id: 'cancel-me' });
    expect(JSON.parse(again.text)).toMatchObject({
      id: 'cancel-me',
      result: { content: [{ text: 'quick done' }] },
    });
  });

  it('tells a request still waiting when its session is deleted', async () => {
    const own = await openSession();
    const holding = nextHold();
    const waiting = call('hold', { id: 'held', headers: own });
    await holding;
    expect((await send(http.url, 'DELETE', own)).status).toBe(200);
    const told = await waiting;
    expect(told.status).toBe(404);
    expect(JSON.parse(told.text)).toMatchObject({ id: 'held', error: { code: -32001 } });
  });
});
