// The bridged MRTR round trip's report: each side's round trip of a call that asks one elicitation, and what
// Foresight in between adds to it over the direct 2026-07-28 server (JSON under `upstreamProxy.mrtr`).
import type { BenchEra } from './endpoint.js';
import { type CallSideReport, cpuCell, fixed, table } from './report.js';

/** direct: 2026-07-28 client → the asking server; foresight*: through Foresight over stdio, in that client era. */
export type MrtrSideKey = 'direct' | 'foresight' | 'foresightLegacy';

export interface MrtrSide extends CallSideReport {
  key: MrtrSideKey;
  era: BenchEra;
  /** The version the bench client negotiated with the side. */
  protocolVersion: string;
  /** Elicitations the bench client answered per call, warm-up included: 1 when each call asked exactly once. */
  elicitationsPerCall: number;
  /** This side's p50 round trip minus the direct side's; undefined on the direct side. */
  extraP50Ms: number | undefined;
  /** This side's p90 round trip minus the direct side's; undefined on the direct side. */
  extraP90Ms: number | undefined;
}

export interface MrtrReport {
  rounds: number;
  calls: number;
  warmupCalls: number;
  /** In rotation order, the direct side first. */
  sides: MrtrSide[];
}

/** Adds the extra over the direct side to each side. */
export function compareMrtrSides(
  settings: { rounds: number; calls: number; warmupCalls: number },
  sides: Omit<MrtrSide, 'extraP50Ms' | 'extraP90Ms'>[],
): MrtrReport {
  const direct = sides.find((side) => side.key === 'direct');
  return {
    ...settings,
    sides: sides.map((side) => ({
      ...side,
      extraP50Ms: side === direct || !direct ? undefined : side.latency.p50Ms - direct.latency.p50Ms,
      extraP90Ms: side === direct || !direct ? undefined : side.latency.p90Ms - direct.latency.p90Ms,
    })),
  };
}

const signed = (ms: number | undefined) => (ms === undefined ? '' : `${ms >= 0 ? '+' : ''}${fixed(ms, 3)}`);

export function formatMrtrReport(report: MrtrReport): string {
  return [
    `MRTR round trip: a tool that asks one elicitation per call (bench/servers/ask-once.ts), ` +
      `${report.rounds} rounds × ${report.calls} sequential calls per side, sides rotating, ` +
      `after ${report.warmupCalls} warm-up calls per side`,
    table(
      [
        'side',
        'version',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'extra p50 ms',
        'extra p90 ms',
        'elicitations/call',
        'CPU µs/call',
      ],
      report.sides.map((side) => [
        side.label,
        side.protocolVersion,
        fixed(side.latency.p50Ms, 3),
        fixed(side.latency.p90Ms, 3),
        fixed(side.latency.p99Ms, 3),
        signed(side.extraP50Ms),
        signed(side.extraP90Ms),
        side.elicitationsPerCall.toFixed(2),
        cpuCell(side.serverCpuUsPerCall, 1),
      ]),
    ),
    '(extra: over the direct 2026-07-28 server, per call and so per elicitation; CPU: the process the ' +
      'client talks to, Foresight without the server behind it)',
  ].join('\n');
}
