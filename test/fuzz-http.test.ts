// Fuzz: random requests to the built CLI's Streamable HTTP endpoint: random JSON-RPC bodies of either era,
// garbage, truncated JSON, wrong content types and methods, random session and protocol headers. Every request
// gets an HTTP answer (never a hang, never a 5xx but a deliberate 503), every JSON-RPC message in it is well-formed
// and not an internal error, no secret shows, and afterwards a real SDK client still connects and pings.
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServer, MCP_HEADERS, connectHttp, killAll, startHttpServer } from './support/cli.js';
import {
  ANSWER_TIMEOUT_MS,
  type FuzzRig,
  fuzzRuns,
  fuzzSeed,
  leakIn,
  makeFuzzRig,
  unclearAnswer,
  wireProblem,
} from './support/fuzz.js';
import { requestObject } from './support/fuzz-frames.js';
import { MODERN_VERSION, eventData, modernPost } from './support/modern-wire.js';

let rig: FuzzRig;
let server: HttpServer;
/** A real 2025 session, so random requests can name it. */
let sessionId: string;

beforeAll(async () => {
  rig = await makeFuzzRig();
  server = await startHttpServer({ cwd: rig.dir, config: rig.config, env: rig.env });
  const opened = await fetch(server.url, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    }),
  });
  sessionId = opened.headers.get('mcp-session-id') ?? '';
  await opened.body?.cancel();
  expect(sessionId).not.toBe('');
});

afterAll(async () => {
  await killAll();
  await rig?.remove();
});

interface Shot {
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** Header values a client could send (visible ASCII: node refuses to send anything else). */
const headerText = fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim());

function optionalHeader(values: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> {
  return fc.option(values, { nil: undefined, freq: 3 });
}

const body: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: requestObject('modern', fc.integer({ min: 1, max: 1e6 })).map((r) => JSON.stringify(r)),
  },
  {
    weight: 4,
    arbitrary: requestObject('legacy', fc.integer({ min: 1, max: 1e6 })).map((r) => JSON.stringify(r)),
  },
  { weight: 1, arbitrary: requestObject('legacy', undefined).map((r) => JSON.stringify(r)) },
  {
    weight: 1,
    arbitrary: fc
      .array(requestObject('legacy', fc.integer()), { maxLength: 3 })
      .map((b) => JSON.stringify(b)),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(requestObject('modern', fc.integer()), fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([r, cut]) => JSON.stringify(r).slice(0, Math.floor(JSON.stringify(r).length * cut))),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 10_000, max: 300_000 })
      .map((n) => JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping', params: { pad: 'p'.repeat(n) } })),
  },
);

const shot: fc.Arbitrary<Shot> = fc
  .record({
    method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS'),
    body,
    contentType: optionalHeader(
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/json; charset=utf-16',
          'multipart/form-data',
        ),
        headerText,
      ),
    ),
    accept: optionalHeader(
      fc.oneof(
        fc.constantFrom(
          'application/json, text/event-stream',
          'application/json',
          'text/event-stream',
          '*/*',
        ),
        headerText,
      ),
    ),
    session: optionalHeader(fc.oneof(fc.constant('REAL'), headerText, fc.uuid())),
    version: optionalHeader(
      fc.oneof(
        fc.constantFrom(MODERN_VERSION, '2025-11-25', '2025-06-18', '2024-11-05', '2099-01-01'),
        headerText,
      ),
    ),
    mcpMethod: optionalHeader(
      fc.oneof(fc.constantFrom('tools/call', 'tools/list', 'server/discover'), headerText),
    ),
    mcpName: optionalHeader(
      fc.oneof(fc.constantFrom('workspace__read_file', 'workspace://file/a.txt'), headerText),
    ),
    lastEventId: optionalHeader(headerText),
  })
  .map((r) => {
    const headers: Record<string, string> = {};
    if (r.contentType !== undefined) headers['content-type'] = r.contentType;
    if (r.accept !== undefined) headers.accept = r.accept;
    if (r.session !== undefined) headers['mcp-session-id'] = r.session;
    if (r.version !== undefined) headers['mcp-protocol-version'] = r.version;
    if (r.mcpMethod !== undefined) headers['mcp-method'] = r.mcpMethod;
    if (r.mcpName !== undefined) headers['mcp-name'] = r.mcpName;
    if (r.lastEventId !== undefined) headers['last-event-id'] = r.lastEventId;
    return { method: r.method, headers, body: r.method === 'GET' ? '' : r.body };
  });

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Sends one request and reads its answer. An event stream (a GET's, or a POST's that stays open) is read for a
 * moment and then closed: what arrived is the answer. No answer at all within ANSWER_TIMEOUT_MS is a hang.
 */
function send(s: Shot): Promise<Answer> {
  const headers = { ...s.headers };
  if (headers['mcp-session-id'] === 'REAL') headers['mcp-session-id'] = sessionId;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      server.url,
      { method: s.method, headers: { ...headers, 'content-length': String(Buffer.byteLength(s.body)) } },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        const done = () => resolve({ status: res.statusCode ?? 0, contentType, text });
        // A stream may legitimately stay open (a GET's standalone stream): give it a moment, then hang up.
        const streamTimer = contentType.startsWith('text/event-stream')
          ? setTimeout(() => {
              res.destroy();
              done();
            }, 300)
          : undefined;
        res.on('end', () => {
          clearTimeout(streamTimer);
          done();
        });
        res.on('error', () => undefined);
      },
    );
    req.setTimeout(ANSWER_TIMEOUT_MS, () =>
      req.destroy(
        new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms to ${s.method} ${s.body.slice(0, 200)}`),
      ),
    );
    req.on('error', reject);
    req.end(s.body);
  });
}

/** The JSON-RPC messages of an answer's body: one JSON body, or each `data:` of an event stream. */
function messagesOf(answer: Answer): { messages: unknown[]; problem?: string } {
  if (answer.text.trim() === '') return { messages: [] };
  if (answer.contentType.startsWith('text/event-stream')) {
    const messages: unknown[] = [];
    for (const event of answer.text.split(/\r?\n\r?\n/)) {
      const data = eventData(event);
      if (data === '') continue;
      try {
        messages.push(JSON.parse(data));
      } catch {
        return { messages, problem: `event data is not JSON: ${data.slice(0, 200)}` };
      }
    }
    return { messages };
  }
  if (!answer.contentType.startsWith('application/json')) return { messages: [] };
  try {
    const parsed: unknown = JSON.parse(answer.text);
    return { messages: Array.isArray(parsed) ? parsed : [parsed] };
  } catch {
    return { messages: [], problem: `a JSON body that does not parse: ${answer.text.slice(0, 200)}` };
  }
}

function problemsOf(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500 && answer.status !== 503) problems.push(`status ${answer.status}`);
  if (answer.status < 100) problems.push(`status ${answer.status}`);
  const { messages, problem } = messagesOf(answer);
  if (problem) problems.push(problem);
  for (const message of messages) {
    const bad = wireProblem(message) ?? unclearAnswer(message as Record<string, unknown>);
    if (bad) problems.push(`${bad}: ${JSON.stringify(message).slice(0, 300)}`);
  }
  const leak = leakIn(rig, answer.text);
  if (leak) problems.push(leak);
  return problems;
}

/** A real SDK client (2025 session) connects, pings and reads a file; a modern request is answered too. */
async function expectServing(): Promise<void> {
  const { client, transport } = await connectHttp(server.url);
  try {
    await client.ping();
    const read = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'a.txt' } });
    expect(JSON.stringify(read)).toContain('alpha line one');
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
  const modern = await modernPost(server.url.href, 'server/discover');
  expect(modern.response?.result, JSON.stringify(modern)).toBeDefined();
}

describe('fuzz: random requests over Streamable HTTP', () => {
  it('each gets a sane HTTP answer with well-formed JSON-RPC, no secret; the server keeps serving', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(shot, { minLength: 1, maxLength: 4 }), async (shots) => {
        for (const s of shots) {
          const answer = await send(s);
          expect(
            problemsOf(answer),
            `${s.method} ${JSON.stringify(s.headers)} ${s.body.slice(0, 300)}`,
          ).toEqual([]);
        }
        // A full SDK handshake every few runs (each opens and ends a session); a bare answer every run.
        if (run++ % 10 === 0) await expectServing();
        else expect((await modernPost(server.url.href, 'server/discover')).response?.result).toBeDefined();
        expect(server.child.exitCode).toBeNull();
      }),
      { seed: fuzzSeed(170_201), numRuns: fuzzRuns(150), endOnFailure: true },
    );
    await expectServing();
    expect(leakIn(rig, server.stderr())).toBeUndefined();
  });
});
