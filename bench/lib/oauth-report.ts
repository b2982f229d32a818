// The oauth bench's report: per cell, each side's calls/s, latency and server CPU per call, the JWT/static ratio
// with its spread over the rounds, and the target (the JSON under `oauth` in bench/results/latest.json).
import type { BenchEra } from './endpoint.js';
import type { OAuthBenchSettings } from './oauth-settings.js';
import { type CallRatios, type CallSideReport, cpuCell, fixed, table } from './report.js';

export interface OAuthCell extends CallRatios {
  /** `http-modern-seq`, `http-legacy-x8`, … */
  id: string;
  era: BenchEra;
  protocolVersion: string;
  /** Calls kept in flight per side; 1 is sequential. */
  inFlight: number;
  callsPerRound: number;
  static: CallSideReport;
  jwt: CallSideReport;
  /** ratio ≥ settings.targetRatio. */
  ratioMet: boolean;
}

export interface OAuthReport {
  settings: OAuthBenchSettings;
  foresightCli: string;
  /** How often the local issuer's key set was fetched over the whole part. */
  jwksFetches: number;
  cells: OAuthCell[];
}

const pair = (a: number, b: number, digits: number) => `${fixed(a, digits)} / ${fixed(b, digits)}`;

export function formatOAuthReport(report: OAuthReport): string {
  const { settings, cells } = report;
  const spread = (cell: OAuthCell) => {
    const sorted = [...cell.roundRatios].sort((x, y) => x - y);
    return `${fixed(sorted[0] ?? Number.NaN)}–${fixed(sorted[sorted.length - 1] ?? Number.NaN)}`;
  };
  return [
    `tools/call echo over Streamable HTTP: Foresight with the static bearer token (A) and with OAuth JWT ` +
      `verification (B) side by side, ${settings.rounds} rounds per cell of ${settings.calls} calls per side, ` +
      `A/B interleaved, order flipped each round, after ${settings.warmupCalls} warm-up calls per side; ` +
      `target: JWT/static calls/s ≥ ${settings.targetRatio}; Foresight: ${report.foresightCli}`,
    table(
      [
        'cell',
        'version',
        'static calls/s',
        'JWT calls/s',
        'ratio',
        'median round',
        'round spread',
        'CPU µs/call static / JWT',
        'p50 ms static / JWT',
        'p99 ms static / JWT',
        'target',
      ],
      cells.map((cell) => [
        cell.id,
        cell.protocolVersion,
        cell.static.callsPerSec.toFixed(0),
        cell.jwt.callsPerSec.toFixed(0),
        cell.ratio.toFixed(3),
        cell.medianRoundRatio.toFixed(3),
        spread(cell),
        `${cpuCell(cell.static.serverCpuUsPerCall, 1)} / ${cpuCell(cell.jwt.serverCpuUsPerCall, 1)}`,
        pair(cell.static.latency.p50Ms, cell.jwt.latency.p50Ms, 3),
        pair(cell.static.latency.p99Ms, cell.jwt.latency.p99Ms, 3),
        cell.ratioMet ? 'met' : 'MISSED',
      ]),
    ),
    `(seq: one call at a time; x${settings.inFlight}: ${settings.inFlight} calls in flight; round spread: the ` +
      `lowest and highest per-round ratio; the issuer's key set was fetched ${report.jwksFetches} times in all)`,
  ].join('\n');
}
