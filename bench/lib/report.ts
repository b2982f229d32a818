// Turns raw samples into the report: the printed tables and the JSON written to bench/results/latest.json.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { CallSamples, ListSamples } from './measure.js';
import type { BenchSettings } from './settings.js';
import { type LatencySummary, callsPerSecond, median, summarize } from './stats.js';
import { ROOT } from './root.js';

export interface CallSideReport {
  label: string;
  calls: number;
  elapsedMs: number;
  callsPerSec: number;
  /** calls/s of each round, in round order. */
  roundCallsPerSec: number[];
  latency: LatencySummary;
  /** The server's own CPU time per call (all threads), from /proc; undefined off Linux. */
  serverCpuUsPerCall: number | undefined;
  /** Spawn + MCP initialize, as the client saw it. */
  connectMs: number;
  /** The first tools/call after connecting (during warm-up). */
  firstCallMs: number;
  stderrBytesWhileMeasured: number;
}

export interface ListSideReport {
  label: string;
  tools: number;
  payloadBytes: number;
  latency: LatencySummary;
  /** The server's own CPU time per tools/list (all threads), from /proc; undefined off Linux. */
  serverCpuMsPerList: number | undefined;
}

export interface BenchReport {
  generatedAt: string;
  machine: Record<string, string | number>;
  settings: BenchSettings;
  toolsList: {
    raw: ListSideReport;
    foresight: ListSideReport;
    /** Foresight's median tools/list time over the raw server's. */
    medianRatio: number;
    sameToolNames: boolean;
  };
}

export function version(pkg: string): string {
  const text = readFileSync(join(ROOT, pkg, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

function gitRevision(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} (uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

export function describeMachine(): Record<string, string | number> {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
    sdk: `server ${version('node_modules/@modelcontextprotocol/server')}, client ${version('node_modules/@modelcontextprotocol/client')}`,
    foresight: version('.'),
    revision: gitRevision(),
  };
}

export function callSide(label: string, samples: CallSamples, connectMs: number): CallSideReport {
  const elapsedMs = samples.roundMs.reduce((sum, ms) => sum + ms, 0);
  const calls = samples.latenciesMs.length;
  const perRound = calls / Math.max(1, samples.roundMs.length);
  return {
    label,
    calls,
    elapsedMs,
    callsPerSec: callsPerSecond(calls, elapsedMs),
    roundCallsPerSec: samples.roundMs.map((ms) => callsPerSecond(perRound, ms)),
    latency: summarize(samples.latenciesMs),
    serverCpuUsPerCall: samples.serverCpuNs === undefined ? undefined : samples.serverCpuNs / 1000 / calls,
    connectMs,
    firstCallMs: samples.firstCallMs,
    stderrBytesWhileMeasured: samples.stderrBytes,
  };
}

export function listSide(label: string, samples: ListSamples): ListSideReport {
  return {
    label,
    tools: samples.tools,
    payloadBytes: samples.payloadBytes,
    latency: summarize(samples.latenciesMs),
    serverCpuMsPerList:
      samples.serverCpuNs === undefined ? undefined : samples.serverCpuNs / 1e6 / samples.latenciesMs.length,
  };
}

/** How one side's calls compare with a baseline's, measured side by side (see BenchReport['calls']). */
export interface CallRatios {
  /** The side's calls/s over the baseline's, from the totals. */
  ratio: number;
  /** The same ratio per round, in round order. */
  roundRatios: number[];
  /** Median of roundRatios: less swayed than `ratio` by a burst of outside load in one batch. */
  medianRoundRatio: number;
  /** The baseline's p50 latency over the side's: the throughput ratio a typical call implies. */
  p50Ratio: number;
  /** The side's server CPU per call over the baseline's; undefined off Linux. */
  serverCpuRatio: number | undefined;
}

export function callRatios(baseline: CallSideReport, side: CallSideReport): CallRatios {
  const roundRatios = side.roundCallsPerSec.map(
    (cps, i) => cps / (baseline.roundCallsPerSec[i] ?? Number.NaN),
  );
  const cpu = [baseline.serverCpuUsPerCall, side.serverCpuUsPerCall] as const;
  return {
    ratio: side.callsPerSec / baseline.callsPerSec,
    roundRatios,
    medianRoundRatio: median(roundRatios),
    p50Ratio: baseline.latency.p50Ms / side.latency.p50Ms,
    serverCpuRatio: cpu[0] === undefined || cpu[1] === undefined ? undefined : cpu[1] / cpu[0],
  };
}

export function listComparison(
  raw: ListSideReport,
  foresight: ListSideReport,
  names: { raw: readonly string[]; foresight: readonly string[] },
): BenchReport['toolsList'] {
  const sorted = (list: readonly string[]) => JSON.stringify([...list].sort());
  return {
    raw,
    foresight,
    medianRatio: foresight.latency.p50Ms / raw.latency.p50Ms,
    sameToolNames: sorted(names.raw) === sorted(names.foresight),
  };
}

export const fixed = (value: number, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** Columns padded to their widest cell: the first left-aligned, the rest right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const cpuCell = (value: number | undefined, digits: number) =>
  value === undefined ? 'n/a' : value.toFixed(digits);

/** The one-line description of the machine the tables were measured on. */
export function formatMachine(machine: BenchReport['machine']): string {
  return `machine: ${machine.nproc} cpus (${machine.cpu}), node ${machine.node}, SDK ${machine.sdk}, rev ${machine.revision}`;
}

export function formatToolsList(report: BenchReport): string {
  const { toolsList, settings } = report;
  return [
    `tools/list, ${settings.listPlugins} plugins × ${settings.listToolsPerPlugin} tools: ` +
      `${settings.listCalls} round trips per side, alternating (2025-11-25 over stdio)`,
    table(
      ['side', 'tools', 'bytes', 'median ms', 'min ms', 'p90 ms', 'max ms', 'server CPU ms'],
      [toolsList.raw, toolsList.foresight].map((side) => [
        side.label,
        String(side.tools),
        String(side.payloadBytes),
        fixed(side.latency.p50Ms, 2),
        fixed(side.latency.minMs, 2),
        fixed(side.latency.p90Ms, 2),
        fixed(side.latency.maxMs, 2),
        cpuCell(side.serverCpuMsPerList, 2),
      ]),
    ),
    `ratio Foresight/raw median: ${toolsList.medianRatio.toFixed(3)}; ` +
      `same tool names: ${toolsList.sameToolNames ? 'yes' : 'NO'}`,
  ].join('\n');
}
