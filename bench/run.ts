// `npm run bench`: Foresight's host overhead against a raw SDK v2 server — echo tools/call in 8 cells (stdio and
// Streamable HTTP × 2026-07-28 and 2025-11-25 × sequential and calls in flight, A/B interleaved), and tools/list
// with many tools — then the upstream proxy overhead (a mounted MCP server called directly, through a naive
// bridge, through Foresight and through mcp-proxy; tools/list with a hung upstream), the enrichment pipeline
// (tools/list with 500 tools and 6 enrichers, cold and cached), the format layer's token efficiency on recorded
// GitHub payloads and the planner replay (agent sessions with the planner off and on, in both protocol eras);
// printed and written to bench/results/latest.json.
// BENCH_ONLY=eras runs the 8 tools/call cells alone, BENCH_ONLY=planner the replay (`npm run bench:planner`),
// BENCH_ONLY=upstream the upstream proxy bench; BENCH_SKIP_PLANNER=1 runs everything but the replay.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Endpoint, startEndpoint } from './lib/endpoint.js';
import { formatEnrichmentReport, measureEnrichment } from './lib/enrichment.js';
import { measureEras } from './lib/eras.js';
import { type ErasReport, formatErasReport } from './lib/eras-report.js';
import { readErasSettings } from './lib/eras-settings.js';
import { runListRounds } from './lib/measure.js';
import {
  type PlannerReplayReport,
  formatPlannerReplayReport,
  measurePlannerReplay,
  readPlannerReplaySettings,
} from './lib/planner-replay.js';
import {
  type BenchReport,
  describeMachine,
  formatMachine,
  formatReport,
  listComparison,
  listSide,
} from './lib/report.js';
import { ROOT } from './lib/root.js';
import { type BenchSettings, nodeFlags, readSettings } from './lib/settings.js';
import { formatTokenReport, measureTokenEfficiency } from './lib/tokens.js';
import { type UpstreamProxyReport, formatUpstreamReport } from './lib/upstream-report.js';
import { measureUpstreamProxy } from './lib/upstream-proxy.js';
import { readUpstreamSettings } from './lib/upstream-settings.js';
import { type BenchWorkspace, createWorkspace } from './lib/workspace.js';

const LIST_WARMUP = 5;

interface Pair {
  raw: Endpoint;
  foresight: Endpoint;
}

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/** Runs `measure` against the raw server and Foresight serving the same tools (`count` per prefix), then stops both. */
async function withPair<T>(
  workspace: BenchWorkspace,
  settings: BenchSettings,
  tables: readonly string[],
  count: number,
  measure: (pair: Pair) => Promise<T>,
): Promise<{ pair: Pair; result: T }> {
  const phase = `${tables.length}x${count}`;
  const config = await workspace.writeConfig(`foresight-${phase}.toml`, tables, count);
  const rawArgs = [...nodeFlags(settings, `raw-${phase}`), workspace.rawServer, String(count), ...tables];
  const cliArgs = [
    ...nodeFlags(settings, `foresight-${phase}`),
    settings.foresightCli,
    'serve',
    '--config',
    config,
  ];
  const started: Endpoint[] = [];
  try {
    const raw = await startEndpoint('A raw v2 Server', rawArgs, workspace.dir);
    started.push(raw);
    const foresight = await startEndpoint('B Foresight', cliArgs, workspace.dir);
    started.push(foresight);
    const pair = { raw, foresight };
    return { pair, result: await measure(pair) };
  } finally {
    // Both exit when their stdin closes, which also writes their CPU profiles.
    await Promise.allSettled(started.map((endpoint) => endpoint.close()));
  }
}

async function measureCalls(workspace: BenchWorkspace, settings: BenchSettings): Promise<ErasReport> {
  const eras = readErasSettings();
  log(
    `tools/call, 8 cells: ${eras.warmupCalls} warm-up + ${eras.rounds} rounds × ${eras.stdioCalls} (stdio) ` +
      `or ${eras.httpCalls} (HTTP) calls per side each (a few minutes)`,
  );
  return measureEras(workspace, settings, eras, log);
}

async function measureList(workspace: BenchWorkspace, settings: BenchSettings) {
  const tables = Array.from({ length: settings.listPlugins }, (_, i) => `p${i}`);
  log(
    `tools/list: ${tables.length} plugins × ${settings.listToolsPerPlugin} tools, ${settings.listCalls} per side`,
  );
  const { pair, result: samples } = await withPair(
    workspace,
    settings,
    tables,
    settings.listToolsPerPlugin,
    ({ raw, foresight }) => runListRounds(raw, foresight, settings.listCalls, LIST_WARMUP),
  );
  return listComparison(listSide(pair.raw.label, samples.a), listSide(pair.foresight.label, samples.b), {
    raw: samples.a.names,
    foresight: samples.b.names,
  });
}

const RESULTS_FILE = join(ROOT, 'bench/results/latest.json');

async function measurePlanner(): Promise<PlannerReplayReport> {
  log(
    'planner replay: generated agent sessions, the planner off and on side by side, after training, in each ' +
      'protocol era (about 8 minutes for both)',
  );
  return measurePlannerReplay(readPlannerReplaySettings(), log);
}

/** Replaces one key of latest.json, keeping the other parts' results. */
async function replaceResult(key: string, value: unknown): Promise<void> {
  const previous = await readFile(RESULTS_FILE, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, unknown>,
    () => ({}),
  );
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify({ ...previous, [key]: value }, null, 2)}\n`);
  console.log(`\nwritten: bench/results/latest.json (${key})`);
}

/** The replay alone (`BENCH_ONLY=planner`): only the `plannerReplay` key of latest.json is replaced. */
async function plannerOnly(): Promise<void> {
  const plannerReplay = await measurePlanner();
  console.log(formatPlannerReplayReport(plannerReplay));
  await replaceResult('plannerReplay', plannerReplay);
}

async function measureUpstream(
  workspace: BenchWorkspace,
  settings: BenchSettings,
): Promise<UpstreamProxyReport> {
  return measureUpstreamProxy({ workspace, settings }, readUpstreamSettings(), log);
}

/** The upstream proxy bench alone (`BENCH_ONLY=upstream`): only the `upstreamProxy` key of latest.json is replaced. */
async function upstreamOnly(): Promise<void> {
  const settings = readSettings();
  const workspace = await createWorkspace();
  try {
    const upstreamProxy = await measureUpstream(workspace, settings);
    console.log(`${formatMachine(describeMachine())}\n`);
    console.log(formatUpstreamReport(upstreamProxy));
    if (settings.cpuProfileDir)
      console.log(`\nCPU profiles (timings above are not representative): ${settings.cpuProfileDir}`);
    await replaceResult('upstreamProxy', upstreamProxy);
  } finally {
    await workspace.remove();
  }
}

/** The tools/call cells alone (`BENCH_ONLY=eras`): only the `eras` key of latest.json is replaced. */
async function erasOnly(): Promise<void> {
  const settings = readSettings();
  const workspace = await createWorkspace();
  try {
    const eras = await measureCalls(workspace, settings);
    console.log(`${formatMachine(describeMachine())}\n`);
    console.log(formatErasReport(eras));
    if (settings.cpuProfileDir)
      console.log(`\nCPU profiles (timings above are not representative): ${settings.cpuProfileDir}`);
    await replaceResult('eras', eras);
  } finally {
    await workspace.remove();
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only === 'planner') return plannerOnly();
  if (only === 'upstream') return upstreamOnly();
  if (only === 'eras') return erasOnly();
  if (only !== undefined && only !== '')
    throw new Error(`BENCH_ONLY must be "eras", "planner" or "upstream", got "${only}"`);
  const settings = readSettings();
  const workspace = await createWorkspace();
  try {
    const eras = await measureCalls(workspace, settings);
    const report: BenchReport = {
      generatedAt: new Date().toISOString(),
      machine: describeMachine(),
      settings,
      toolsList: await measureList(workspace, settings),
    };
    const upstreamProxy = await measureUpstream(workspace, settings);
    log('enrichment: tools/list with 500 tools and 6 enrichers, cold build and cached');
    const enrichment = await measureEnrichment();
    log('tokens: recorded GitHub issue payloads in each format');
    const tokens = measureTokenEfficiency();
    const plannerReplay = process.env.BENCH_SKIP_PLANNER === '1' ? undefined : await measurePlanner();
    const resultsDir = join(ROOT, 'bench/results');
    await mkdir(resultsDir, { recursive: true });
    await writeFile(
      join(resultsDir, 'latest.json'),
      `${JSON.stringify({ ...report, eras, upstreamProxy, enrichment, tokens, ...(plannerReplay ? { plannerReplay } : {}) }, null, 2)}\n`,
    );
    console.log(formatReport(report));
    console.log(`\n${formatErasReport(eras)}`);
    console.log(`\n${formatUpstreamReport(upstreamProxy)}`);
    console.log(`\n${formatEnrichmentReport(enrichment)}`);
    console.log(`\n${formatTokenReport(tokens)}`);
    if (plannerReplay) console.log(`\n${formatPlannerReplayReport(plannerReplay)}`);
    if (settings.cpuProfileDir)
      console.log(`\nCPU profiles (timings above are not representative): ${settings.cpuProfileDir}`);
    console.log('\nwritten: bench/results/latest.json');
  } finally {
    await workspace.remove();
  }
}

await main();
