// The eras bench's report: per cell, each side's calls/s, latency and server CPU per call, the ratios and
// the targets (the JSON under `eras` in bench/results/latest.json), and the printed table.
import type { BenchEra } from './endpoint.js';
import type { ErasBenchSettings, Transport } from './eras-settings.js';
import { type CallRatios, type CallSideReport, cpuCell, fixed, table, version } from './report.js';

export interface ErasCell extends CallRatios {
  /** `stdio-modern-seq`, `http-legacy-x8`, … (see BENCH_ERAS_CELLS). */
  id: string;
  transport: Transport;
  era: BenchEra;
  /** The protocol version both sides' connections negotiated. */
  protocolVersion: string;
  /** Calls kept in flight per side; 1 is sequential. */
  inFlight: number;
  callsPerRound: number;
  raw: CallSideReport;
  foresight: CallSideReport;
  /** ratio ≥ targets.ratio. */
  ratioMet: boolean;
  /** serverCpuRatio ≤ targets.cpuRatio; undefined off Linux. */
  cpuRatioMet: boolean | undefined;
}

export interface ErasReport {
  settings: ErasBenchSettings;
  versions: { server: string; client: string; node: string };
  /** The Foresight CLI side B ran (BENCH_FORESIGHT_CLI). */
  foresightCli: string;
  cells: ErasCell[];
}

export function erasVersions(): ErasReport['versions'] {
  const sdk = (name: string) => version(`node_modules/@modelcontextprotocol/${name}`);
  return { server: sdk('server'), client: sdk('client'), node: sdk('node') };
}

export function cellVerdicts(
  ratios: CallRatios,
  targets: ErasBenchSettings['targets'],
): Pick<ErasCell, 'ratioMet' | 'cpuRatioMet'> {
  return {
    ratioMet: ratios.ratio >= targets.ratio,
    cpuRatioMet: ratios.serverCpuRatio === undefined ? undefined : ratios.serverCpuRatio <= targets.cpuRatio,
  };
}

/** A pair of servers serves its transport × era cells one after another; only the first saw a fresh start. */
const firstOfEachPair = (cells: readonly ErasCell[]) =>
  cells.filter(
    (cell, i) => cells.findIndex((c) => c.transport === cell.transport && c.era === cell.era) === i,
  );

const verdict = (met: boolean | undefined) => (met === undefined ? 'n/a' : met ? 'met' : 'MISSED');
const pair = (raw: number, foresight: number, digits: number) =>
  `${fixed(raw, digits)} / ${fixed(foresight, digits)}`;

export function formatErasReport(report: ErasReport): string {
  const { settings, versions, cells, foresightCli } = report;
  const { ratio, cpuRatio } = settings.targets;
  const sideA = settings.baselineCli === undefined ? 'raw v2 Server' : `Foresight ${settings.baselineCli}`;
  return [
    `tools/call echo on SDK v2 (server ${versions.server}, client ${versions.client}, node ${versions.node}): ` +
      `${sideA} (A) and Foresight (B) side by side, ${settings.rounds} rounds per cell ` +
      `(${settings.stdioCalls} calls per side per round over stdio, ${settings.httpCalls} over HTTP), ` +
      `A/B interleaved, order flipped each round, after ${settings.warmupCalls} warm-up calls per side; ` +
      `targets: calls/s ratio ≥ ${ratio}, CPU/call ratio ≤ ${cpuRatio}; Foresight: ${foresightCli}`,
    table(
      [
        'cell',
        'version',
        'raw calls/s',
        'F calls/s',
        'ratio',
        'median round',
        'CPU µs/call raw / F',
        'CPU ratio',
        'p50 ms raw / F',
        'p99 ms raw / F',
        'calls/s',
        'CPU',
      ],
      cells.map((cell) => [
        cell.id,
        cell.protocolVersion,
        cell.raw.callsPerSec.toFixed(0),
        cell.foresight.callsPerSec.toFixed(0),
        cell.ratio.toFixed(3),
        cell.medianRoundRatio.toFixed(3),
        `${cpuCell(cell.raw.serverCpuUsPerCall, 1)} / ${cpuCell(cell.foresight.serverCpuUsPerCall, 1)}`,
        `×${cpuCell(cell.serverCpuRatio, 2)}`,
        pair(cell.raw.latency.p50Ms, cell.foresight.latency.p50Ms, 3),
        pair(cell.raw.latency.p99Ms, cell.foresight.latency.p99Ms, 3),
        verdict(cell.ratioMet),
        verdict(cell.cpuRatioMet),
      ]),
    ),
    `(F: Foresight; seq: one call at a time; x${settings.inFlight}: ${settings.inFlight} calls in flight; ` +
      'CPU: the server process on CPU, all threads, from /proc/<pid>/task/*/schedstat)',
    '',
    'start-up, on the first cell measured on each pair of servers:',
    table(
      ['cell', 'connect ms raw / F', 'first call ms raw / F', 'F stderr bytes'],
      firstOfEachPair(cells).map((cell) => [
        cell.id,
        pair(cell.raw.connectMs, cell.foresight.connectMs, 0),
        pair(cell.raw.firstCallMs, cell.foresight.firstCallMs, 1),
        String(cell.foresight.stderrBytesWhileMeasured),
      ]),
    ),
  ].join('\n');
}
