// How long a proxied 2025 HTTP call waits for its answer, through Foresight and through mcp-proxy, both mounting
// server-everything over stdio: the SDK client's time a call, and, on the same session, a plain node:http client's
// time to the answer's headers and to its end, with the answer's content type. It shows where a 2025 answer
// waits: a proxy answering through the SDK's web-standard streams sends its headers only with the whole answer.
// Sides alternate over rounds, so drift falls on both.
// Usage: npm run build && node --import tsx bench/http-answer-latency.ts [calls per side per round] [rounds]
//   (default 300 and 4, after 200 unmeasured calls per side)
import { request as httpRequest } from 'node:http';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Endpoint } from './lib/endpoint.js';
import { exitIfMissing, foresightCliInput, partInputs } from './lib/inputs.js';
import { table } from './lib/report.js';
import { readSettings } from './lib/settings.js';
import { summarize } from './lib/stats.js';
import {
  FORESIGHT_ECHO_TOOL,
  startForesightHttp,
  startMcpProxy,
  waitForTool,
} from './lib/upstream-servers.js';
import { createWorkspace } from './lib/workspace.js';

const WARMUP = 200;
const [callsArg, roundsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 300);
const rounds = Number(roundsArg ?? 4);
if (!Number.isInteger(calls) || calls < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: http-answer-latency [calls per side per round >= 1] [rounds >= 1]');
  process.exit(2);
}

interface Side {
  endpoint: Endpoint;
  tool: string;
  sdkMs: number[];
  headersMs: number[];
  endMs: number[];
  contentTypes: Set<string>;
}

interface Timed {
  headersMs: number;
  endMs: number;
  contentType: string;
  body: string;
}

/** One raw POST of `body` on the session; times to the response's headers and to its end. */
function rawPost(url: URL, sessionId: string, body: string): Promise<Timed> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
      },
      (res) => {
        const headersMs = performance.now() - start;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () =>
          resolve({
            headersMs,
            endMs: performance.now() - start,
            contentType: String(res.headers['content-type']),
            body: text,
          }),
        );
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

async function measure(side: Side, id: { next: number }, count: number, record: boolean): Promise<void> {
  const { client, url } = side.endpoint;
  const args = { name: side.tool, arguments: { message: 'ping' } };
  const started = performance.now();
  for (let i = 0; i < count; i++) await client.callTool(args);
  if (record) side.sdkMs.push((performance.now() - started) / count);
  const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId;
  if (url === undefined || sessionId === undefined)
    throw new Error(`${side.endpoint.label}: no HTTP session`);
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: `raw-${id.next++}`,
      method: 'tools/call',
      params: args,
    });
    const timed = await rawPost(url, sessionId, body);
    if (!timed.body.includes('Echo: ping'))
      throw new Error(`${side.endpoint.label}: unexpected answer ${timed.body}`);
    if (!record) continue;
    side.headersMs.push(timed.headersMs);
    side.endMs.push(timed.endMs);
    side.contentTypes.add(timed.contentType.split(';')[0]!);
  }
}

const settings = readSettings();
const cli = process.env.BENCH_FORESIGHT_CLI ? 'BENCH_FORESIGHT_CLI' : undefined;
exitIfMissing('http-answer-latency', partInputs('upstream', foresightCliInput(settings.foresightCli, cli)));
const workspace = await createWorkspace();
const sides: Side[] = [];
try {
  const starter = { workspace, settings };
  const foresight = await startForesightHttp(starter, 'Foresight', 'latency-foresight', 'legacy');
  sides.push({
    endpoint: foresight,
    tool: FORESIGHT_ECHO_TOOL,
    sdkMs: [],
    headersMs: [],
    endMs: [],
    contentTypes: new Set(),
  });
  await waitForTool(foresight, FORESIGHT_ECHO_TOOL);
  const proxy = await startMcpProxy(starter, 'mcp-proxy', 'legacy');
  sides.push({ endpoint: proxy, tool: 'echo', sdkMs: [], headersMs: [], endMs: [], contentTypes: new Set() });
  const id = { next: 1 };
  for (const side of sides) await measure(side, id, WARMUP, false);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) await measure(side, id, calls, true);
    console.error(`http-answer-latency: round ${round + 1}/${rounds}`);
  }
  console.log(
    `\n2025 HTTP answer latency: server-everything echo through each proxy, ${rounds} rounds × ${calls} calls per side ` +
      `and client, sides alternating, after ${WARMUP} unmeasured calls per side`,
  );
  console.log(
    table(
      [
        'side',
        'SDK client ms/call',
        'raw: headers p50 ms',
        'raw: end p50 ms',
        'raw: end p90 ms',
        'answered as',
      ],
      sides.map((side) => {
        const end = summarize(side.endMs);
        return [
          side.endpoint.label,
          summarize(side.sdkMs).meanMs.toFixed(3),
          summarize(side.headersMs).p50Ms.toFixed(3),
          end.p50Ms.toFixed(3),
          end.p90Ms.toFixed(3),
          [...side.contentTypes].join(', '),
        ];
      }),
    ),
  );
  console.log("(raw: a node:http client with keep-alive on the SDK client's session, one POST at a time)");
} finally {
  await Promise.allSettled(sides.map((side) => side.endpoint.close()));
  await workspace.remove();
}
