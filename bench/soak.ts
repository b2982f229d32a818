// Soak run (issue 17, `npm run soak`, not part of `npm test`): `foresight serve --http` with the workspace plugin
// and server-everything as a stdio upstream, mixed load from many SDK clients of both protocol eras for a set
// time, the upstream killed a few times along the way. Reports calls, errors by kind, p50/p99 latency, the
// server's RSS at start, peak and end, and the upstream-unavailable errors inside and outside the restart window.
//
// Settings (env): SOAK_SECONDS (300), SOAK_CLIENTS (50), SOAK_KILLS (3), SOAK_RESTART_WINDOW_MS (5000: the
// upstream's first restart delay of 500 ms doubling per quick re-kill, plus its start), SOAK_SEED (17),
// SOAK_SETTLE_SECONDS (30: how long after the load the end RSS is read), SOAK_OUT (a path for the JSON report).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { EVERYTHING_ENTRY, EVERYTHING_INPUT, exitIfMissing, foresightCliInput } from './lib/inputs.js';
import { findDescendant } from './lib/process-tree.js';
import { percentile } from './lib/stats.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const EVERYTHING = EVERYTHING_ENTRY;
const MODERN_VERSION = '2026-07-28';

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? '');
  return process.env[name] !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
}

const settings = {
  seconds: envNumber('SOAK_SECONDS', 300),
  clients: Math.max(1, Math.round(envNumber('SOAK_CLIENTS', 50))),
  kills: Math.round(envNumber('SOAK_KILLS', 3)),
  restartWindowMs: envNumber('SOAK_RESTART_WINDOW_MS', 5_000),
  seed: Math.round(envNumber('SOAK_SEED', 17)),
  settleSeconds: envNumber('SOAK_SETTLE_SECONDS', 30),
  /** Per-call limit: a call still unanswered after this counts as an error of kind "timeout (client)". */
  callTimeoutMs: 30_000,
};

/** mulberry32: the load mix is repeatable for a seed (timings are not). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// --- the server under load ---------------------------------------------------------------------------------

async function makeRig(): Promise<{ dir: string; config: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'foresight-soak-'));
  const root = path.join(dir, 'root');
  for (let i = 0; i < 60; i++) {
    const file = path.join(root, `pkg${i % 6}`, `file${i}.ts`);
    await mkdir(path.dirname(file), { recursive: true });
    const lines = Array.from(
      { length: 40 },
      (_, n) => `export const value${n} = ${i * n}; // TODO item ${n}`,
    );
    await writeFile(file, `${lines.join('\n')}\n`);
  }
  await writeFile(path.join(root, 'README.md'), '# Soak\n\nA workspace for the soak run.\n');
  const config = path.join(dir, 'foresight.toml');
  await writeFile(
    config,
    [
      '[plugins.workspace]',
      `root = ${JSON.stringify(root)}`,
      '',
      '[plugins.ev]',
      'use = "upstream"',
      `command = [${JSON.stringify(process.execPath)}, ${JSON.stringify(EVERYTHING)}, "stdio"]`,
      '',
    ].join('\n'),
  );
  return { dir, config };
}

async function startServer(cwd: string, config: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '127.0.0.1:0', '--config', config], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line within 30 s:\n${stderr}`)), 30_000);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-20_000);
      const match = /serving Streamable HTTP on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(new URL(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before serving:\n${stderr}`)));
  });
  return { child, url };
}

function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

// --- the load ------------------------------------------------------------------------------------------------

/** The i-th file of the soak workspace (file i sits in pkg<i mod 6>). */
const fileOf = (i: number) => `pkg${i % 6}/file${i}.ts`;

interface Op {
  name: string;
  upstream: boolean;
  /** Only for clients of this era (the 2026-07-28 revision has no ping). */
  era?: 'legacy' | 'modern';
  run(client: Client, random: () => number): Promise<unknown>;
}

const OPS: readonly Op[] = [
  { name: 'tools/list', upstream: false, run: (c) => c.listTools() },
  {
    name: 'workspace read_file',
    upstream: false,
    run: (c, r) =>
      c.callTool({
        name: 'workspace__read_file',
        arguments: { path: fileOf(Math.floor(r() * 60)) },
      }),
  },
  {
    name: 'workspace grep',
    upstream: false,
    run: (c) => c.callTool({ name: 'workspace__grep', arguments: { pattern: 'value3\\d', glob: '*.ts' } }),
  },
  {
    name: 'workspace glob',
    upstream: false,
    run: (c) => c.callTool({ name: 'workspace__glob', arguments: { pattern: '**/*.ts' } }),
  },
  {
    name: 'resources/read',
    upstream: false,
    run: (c) => c.readResource({ uri: 'workspace://file/README.md' }),
  },
  {
    name: 'upstream echo',
    upstream: true,
    run: (c, r) => c.callTool({ name: 'ev__echo', arguments: { message: `m${r()}` } }),
  },
  {
    name: 'upstream get-sum',
    upstream: true,
    run: (c, r) => c.callTool({ name: 'ev__get-sum', arguments: { a: Math.floor(r() * 100), b: 2 } }),
  },
  { name: 'ping', upstream: false, era: 'legacy', run: (c) => c.ping() },
];

interface CallRecord {
  op: string;
  era: 'legacy' | 'modern';
  startMs: number;
  latencyMs: number;
  /** undefined for a success. */
  kind?: string;
}

/** The kind of a failure: the E_* code when the server named one, else the JSON-RPC code or the error's name. */
function kindOf(error: unknown): string {
  if (error instanceof ProtocolError) {
    const data = error.data as { code?: unknown } | undefined;
    const code = typeof data?.code === 'string' ? data.code : /\bE_[A-Z_]+\b/.exec(error.message)?.[0];
    return code ?? `jsonrpc ${error.code}`;
  }
  if (error instanceof Error && /timed? ?out/i.test(error.message)) return 'timeout (client)';
  return error instanceof Error ? `transport: ${error.name}: ${error.message.slice(0, 60)}` : 'unknown';
}

/** The kind of a tool result marked isError (from `_meta['foresight/error']`), or undefined for a success. */
function resultKind(result: unknown): string | undefined {
  const r = result as {
    isError?: boolean;
    _meta?: Record<string, { code?: string }>;
    content?: { text?: string }[];
  };
  if (r?.isError !== true) return undefined;
  return (
    r._meta?.['foresight/error']?.code ?? /\bE_[A-Z_]+\b/.exec(r.content?.[0]?.text ?? '')?.[0] ?? 'isError'
  );
}

async function connect(url: URL, era: 'legacy' | 'modern', index: number): Promise<Client> {
  const client = new Client(
    { name: `soak-${era}-${index}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : undefined,
  );
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  // A client that leaves ends its session, as a well-behaved one does (closing alone leaves it to expire).
  const close = client.close.bind(client);
  client.close = async () => {
    if (era === 'legacy') await transport.terminateSession().catch(() => {});
    await close();
  };
  return client;
}

async function drive(
  client: Client,
  era: 'legacy' | 'modern',
  random: () => number,
  t0: number,
  until: number,
  records: CallRecord[],
): Promise<void> {
  const ops = OPS.filter((op) => op.era === undefined || op.era === era);
  while (performance.now() < until) {
    const op = ops[Math.floor(random() * ops.length)] as Op;
    const start = performance.now();
    let kind: string | undefined;
    try {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timed out (client)')), settings.callTimeoutMs).unref(),
      );
      kind = resultKind(await Promise.race([op.run(client, random), timeout]));
    } catch (error) {
      kind = kindOf(error);
    }
    records.push({ op: op.name, era, startMs: start - t0, latencyMs: performance.now() - start, kind });
  }
}

// --- the report ----------------------------------------------------------------------------------------------

const round = (n: number) => Math.round(n * 10) / 10;

interface Kill {
  atMs: number;
  pid: number;
  /** ms from the kill to the first successful upstream call that started after it. */
  recoveredAfterMs?: number;
}

function report(records: CallRecord[], kills: Kill[], rss: { start: number; peak: number; end: number }) {
  for (const kill of kills) {
    const first = records
      .filter(
        (r) => OPS.find((o) => o.name === r.op)?.upstream && r.kind === undefined && r.startMs > kill.atMs,
      )
      .sort((a, b) => a.startMs - b.startMs)[0];
    if (first) kill.recoveredAfterMs = Math.round(first.startMs + first.latencyMs - kill.atMs);
  }
  const inWindow = (r: CallRecord) =>
    kills.some((k) => r.startMs + r.latencyMs >= k.atMs && r.startMs <= k.atMs + settings.restartWindowMs);
  const errors: Record<string, number> = {};
  let unavailableInWindow = 0;
  let unavailableOutside = 0;
  for (const r of records) {
    if (r.kind === undefined) continue;
    errors[r.kind] = (errors[r.kind] ?? 0) + 1;
    if (r.kind === 'E_UPSTREAM_UNAVAILABLE') {
      if (inWindow(r)) unavailableInWindow++;
      else unavailableOutside++;
    }
  }
  const latencies = records.map((r) => r.latencyMs).sort((a, b) => a - b);
  const byOp: Record<string, { calls: number; errors: number; p50Ms: number; p99Ms: number }> = {};
  for (const op of OPS) {
    const mine = records.filter((r) => r.op === op.name);
    const sorted = mine.map((r) => r.latencyMs).sort((a, b) => a - b);
    byOp[op.name] = {
      calls: mine.length,
      errors: mine.filter((r) => r.kind !== undefined).length,
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
    };
  }
  const failed = records.filter((r) => r.kind !== undefined).length;
  const otherErrors = failed - unavailableInWindow;
  return {
    settings,
    calls: records.length,
    successes: records.length - failed,
    errors: failed,
    errorsByKind: errors,
    callsPerSecond: round(records.length / settings.seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    byOp,
    byEra: Object.fromEntries(
      (['legacy', 'modern'] as const).map((era) => {
        const mine = records.filter((r) => r.era === era);
        return [era, { calls: mine.length, errors: mine.filter((r) => r.kind !== undefined).length }];
      }),
    ),
    kills,
    upstreamUnavailableInWindow: unavailableInWindow,
    upstreamUnavailableOutsideWindow: unavailableOutside,
    /** Calls that failed for any reason but the upstream being down inside a restart window. */
    lost: otherErrors,
    rssMb: { start: round(rss.start / 1024), peak: round(rss.peak / 1024), end: round(rss.end / 1024) },
    rssEndOverStart: Number((rss.end / rss.start).toFixed(2)),
  };
}

function formatReport(r: ReturnType<typeof report>): string {
  const lines = [
    `soak: ${settings.clients} clients for ${settings.seconds} s, ${r.kills.length} upstream kills (restart window ${settings.restartWindowMs} ms)`,
    `calls ${r.calls} (${r.callsPerSecond}/s), successes ${r.successes}, errors ${r.errors}`,
    `latency p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`,
    `errors by kind: ${
      Object.entries(r.errorsByKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
    `upstream unavailable: ${r.upstreamUnavailableInWindow} inside restart windows, ${r.upstreamUnavailableOutsideWindow} outside`,
    `lost (errors other than upstream-unavailable inside a window): ${r.lost}`,
    `kills: ${r.kills.map((k) => `at ${Math.round(k.atMs / 1000)} s (pid ${k.pid}) recovered after ${k.recoveredAfterMs ?? '?'} ms`).join('; ') || 'none'}`,
    `RSS: start ${r.rssMb.start} MB, peak ${r.rssMb.peak} MB, end ${r.rssMb.end} MB (end/start ${r.rssEndOverStart})`,
    `by era: legacy ${r.byEra.legacy?.calls} calls / ${r.byEra.legacy?.errors} errors, modern ${r.byEra.modern?.calls} calls / ${r.byEra.modern?.errors} errors`,
    'by operation:',
    ...Object.entries(r.byOp).map(
      ([op, s]) =>
        `  ${op.padEnd(20)} ${String(s.calls).padStart(7)} calls ${String(s.errors).padStart(6)} errors  p50 ${s.p50Ms} ms  p99 ${s.p99Ms} ms`,
    ),
  ];
  return lines.join('\n');
}

// --- the run -------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  exitIfMissing('soak', [foresightCliInput(CLI, undefined), EVERYTHING_INPUT]);
  const rig = await makeRig();
  const { child, url } = await startServer(rig.dir, rig.config);
  const pid = child.pid ?? 0;
  try {
    // Wait for the upstream to be connected: its tools show in the list.
    const probe = await connect(url, 'legacy', -1);
    for (let tries = 0; ; tries++) {
      const names = (await probe.listTools()).tools.map((t) => t.name);
      if (names.includes('ev__echo')) break;
      if (tries > 150) throw new Error('the upstream never connected');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await probe.close();

    const random = seeded(settings.seed);
    const clients = await Promise.all(
      Array.from({ length: settings.clients }, (_, i) => {
        const era = i % 2 === 0 ? 'legacy' : 'modern';
        return connect(url, era, i).then(
          (client) => ({ client, era, random: seeded(settings.seed * 1000 + i) }) as const,
        );
      }),
    );
    const rss = { start: rssKb(pid) ?? 0, peak: 0, end: 0 };
    rss.peak = rss.start;
    const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, rssKb(pid) ?? 0)), 1_000);

    const t0 = performance.now();
    const until = t0 + settings.seconds * 1_000;
    const records: CallRecord[] = [];
    const kills: Kill[] = [];
    const killTimers = Array.from({ length: settings.kills }, (_, k) =>
      setTimeout(
        () => {
          const upstream = findDescendant(pid, EVERYTHING);
          if (upstream === undefined) return;
          process.kill(upstream, 'SIGKILL');
          kills.push({ atMs: performance.now() - t0, pid: upstream });
        },
        ((k + 1) * settings.seconds * 1_000) / (settings.kills + 1) + random() * 500,
      ),
    );
    const progress = setInterval(
      () =>
        process.stderr.write(
          `soak: ${Math.round((performance.now() - t0) / 1000)} s, ${records.length} calls\n`,
        ),
      10_000,
    );
    await Promise.all(clients.map((c) => drive(c.client, c.era, c.random, t0, until, records)));
    clearInterval(progress);
    killTimers.forEach(clearTimeout);
    await Promise.allSettled(clients.map((c) => c.client.close()));
    // Let the server settle (closed sessions, timers, garbage collected) before the end reading.
    await new Promise((resolve) => setTimeout(resolve, settings.settleSeconds * 1_000));
    clearInterval(sampler);
    rss.end = rssKb(pid) ?? 0;
    rss.peak = Math.max(rss.peak, rss.end);

    const result = report(records, kills, rss);
    console.log(formatReport(result));
    if (process.env.SOAK_OUT) {
      await writeFile(process.env.SOAK_OUT, `${JSON.stringify(result, null, 2)}\n`);
      console.log(`\nwritten: ${process.env.SOAK_OUT}`);
    }
  } finally {
    child.kill('SIGTERM');
    await rm(rig.dir, { recursive: true, force: true });
  }
}

await main();
