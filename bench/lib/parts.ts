// The parts of `npm run bench`, run one after another. Each is printed and merged into the results file
// (bench/results/latest.json) as soon as it finishes, before the next starts, so a run stopped halfway keeps every
// part it completed.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { type Endpoint, startEndpoint } from './endpoint.js';
import { formatDiscoveryRetrieval, measureDiscoveryRetrieval } from './discovery-retrieval.js';
import { formatEnrichmentReport, measureEnrichment } from './enrichment.js';
import { measureEras } from './eras.js';
import { formatErasReport } from './eras-report.js';
import { type ErasBenchSettings, readErasSettings } from './eras-settings.js';
import type { BenchPart } from './inputs.js';
import { runListRounds } from './measure.js';
import { measureOAuth } from './oauth.js';
import { formatOAuthReport } from './oauth-report.js';
import { type OAuthBenchSettings, readOAuthSettings } from './oauth-settings.js';
import {
  type ClusterReplaySettings,
  formatClusterReplayReport,
  measureClusterReplay,
  readClusterReplaySettings,
} from './planner-replay-cluster.js';
import {
  type PlannerReplaySettings,
  formatPlannerReplayReport,
  measurePlannerReplay,
  readPlannerReplaySettings,
} from './planner-replay.js';
import {
  type BenchReport,
  describeMachine,
  formatMachine,
  formatToolsList,
  listComparison,
  listSide,
} from './report.js';
import { ROOT } from './root.js';
import { type BenchSettings, collectMainThreadProfiles, nodeFlags, resultsFile } from './settings.js';
import { formatTokenReport, measureTokenEfficiency } from './tokens.js';
import { formatUpstreamReport } from './upstream-report.js';
import { measureUpstreamProxy } from './upstream-proxy.js';
import { type UpstreamBenchSettings, readUpstreamSettings } from './upstream-settings.js';
import { type BenchWorkspace, createWorkspace } from './workspace.js';

const LIST_WARMUP = 5;

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/** Every part's own settings, read before the first part runs, so that a bad value fails at once. */
interface PartSettings {
  bench: BenchSettings;
  eras?: ErasBenchSettings;
  oauth?: OAuthBenchSettings;
  upstream?: UpstreamBenchSettings;
  planner?: PlannerReplaySettings;
  cluster?: ClusterReplaySettings;
}

/** What a finished part adds to the results file and prints. */
interface PartResult {
  /** The part's own key in the results file. */
  key: string;
  /** The top-level keys it writes: its own, and for `list` the run's header (machine, settings). */
  entries: Record<string, unknown>;
  text: string;
}

interface Pair {
  raw: Endpoint;
  foresight: Endpoint;
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

async function measureList(
  workspace: BenchWorkspace,
  settings: BenchSettings,
): Promise<BenchReport['toolsList']> {
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

/** Measures one part; `workspace` is there for the parts that start servers. */
async function runPart(
  part: BenchPart,
  settings: PartSettings,
  workspace: () => Promise<BenchWorkspace>,
  header: Omit<BenchReport, 'toolsList'>,
): Promise<PartResult> {
  const { bench } = settings;
  switch (part) {
    case 'eras': {
      const eras = settings.eras as ErasBenchSettings;
      log(
        `tools/call, 8 cells: ${eras.warmupCalls} warm-up + ${eras.rounds} rounds × ${eras.stdioCalls} (stdio) ` +
          `or ${eras.httpCalls} (HTTP) calls per side each (a few minutes)`,
      );
      const report = await measureEras(await workspace(), bench, eras, log);
      return { key: 'eras', entries: { eras: report }, text: formatErasReport(report) };
    }
    case 'oauth': {
      const oauth = settings.oauth as OAuthBenchSettings;
      log(
        `oauth: tools/call over HTTP, static token vs OAuth JWT, 2 eras × {seq, x${oauth.inFlight}}: ` +
          `${oauth.warmupCalls} warm-up + ${oauth.rounds} rounds × ${oauth.calls} calls per side each`,
      );
      const report = await measureOAuth(await workspace(), bench, oauth, log);
      return { key: 'oauth', entries: { oauth: report }, text: formatOAuthReport(report) };
    }
    case 'list': {
      const report: BenchReport = { ...header, toolsList: await measureList(await workspace(), bench) };
      return { key: 'toolsList', entries: { ...report }, text: formatToolsList(report) };
    }
    case 'upstream': {
      const upstream = settings.upstream as UpstreamBenchSettings;
      const report = await measureUpstreamProxy(
        { workspace: await workspace(), settings: bench },
        upstream,
        log,
      );
      return { key: 'upstreamProxy', entries: { upstreamProxy: report }, text: formatUpstreamReport(report) };
    }
    case 'enrichment': {
      log('enrichment: tools/list with 500 tools and 6 enrichers, cold build and cached');
      const report = await measureEnrichment();
      return { key: 'enrichment', entries: { enrichment: report }, text: formatEnrichmentReport(report) };
    }
    case 'tokens': {
      log('tokens: recorded GitHub issue payloads in each format');
      const report = measureTokenEfficiency();
      return { key: 'tokens', entries: { tokens: report }, text: formatTokenReport(report) };
    }
    case 'discovery': {
      log(
        'discovery: the tool index against plain BM25 on MetaTool, and search latency for 1,000 and 5,000 tools',
      );
      const report = measureDiscoveryRetrieval();
      return { key: 'discovery', entries: { discovery: report }, text: formatDiscoveryRetrieval(report) };
    }
    case 'planner': {
      log(
        'planner replay: generated agent sessions, the planner off and on side by side, after training, in each ' +
          'protocol era (about 8 minutes for both)',
      );
      const report = await measurePlannerReplay(settings.planner, log);
      return {
        key: 'plannerReplay',
        entries: { plannerReplay: report },
        text: formatPlannerReplayReport(report),
      };
    }
    case 'cluster': {
      const cluster = settings.cluster as ClusterReplaySettings;
      log(
        `cluster replay: generated agent sessions in the 2026-07-28 era, the planner off, on one host and on ` +
          `${cluster.processes} hosts sharing Redis, side by side, after training (about 9 minutes)`,
      );
      const report = await measureClusterReplay(cluster, log);
      return {
        key: 'clusterReplay',
        entries: { clusterReplay: report },
        text: formatClusterReplayReport(report),
      };
    }
  }
}

/**
 * Merges a finished part's keys into the results file, keeping the other parts' (from this run or an earlier
 * one); `writtenAt` says when each part was last written, so a file that mixes runs says which is which.
 */
async function mergeResults(file: string, { key, entries }: PartResult): Promise<void> {
  const previous = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, unknown>,
    () => ({}) as Record<string, unknown>,
  );
  const writtenAt = {
    ...(previous.writtenAt as Record<string, string> | undefined),
    [key]: new Date().toISOString(),
  };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ ...previous, ...entries, writtenAt }, null, 2)}\n`);
}

export async function runParts(parts: readonly BenchPart[], bench: BenchSettings): Promise<void> {
  const settings: PartSettings = {
    bench,
    ...(parts.includes('eras') ? { eras: readErasSettings() } : {}),
    ...(parts.includes('oauth') ? { oauth: readOAuthSettings() } : {}),
    ...(parts.includes('upstream') ? { upstream: readUpstreamSettings() } : {}),
    ...(parts.includes('planner') ? { planner: readPlannerReplaySettings() } : {}),
    ...(parts.includes('cluster') ? { cluster: readClusterReplaySettings() } : {}),
  };
  const header = { generatedAt: new Date().toISOString(), machine: describeMachine(), settings: bench };
  const file = resultsFile();
  const shown = relative(ROOT, file).startsWith('..') ? file : relative(ROOT, file);
  console.log(formatMachine(header.machine));
  let created: Promise<BenchWorkspace> | undefined;
  const workspace = () => (created ??= createWorkspace());
  try {
    for (const part of parts) {
      const result = await runPart(part, settings, workspace, header);
      console.log(`\n${result.text}`);
      await mergeResults(file, result);
      console.log(`\nwritten: ${shown} (${result.key})`);
    }
    if (bench.cpuProfileDir) {
      await collectMainThreadProfiles(bench.cpuProfileDir);
      console.log(`\nCPU profiles (timings above are not representative): ${bench.cpuProfileDir}`);
    }
  } finally {
    if (created) await (await created).remove();
  }
}
