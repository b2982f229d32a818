// The upstream proxy bench's report: the ratios between its sides (the JSON under `upstreamProxy` in
// bench/results/latest.json) and the printed tables.
import {
  type CallRatios,
  type CallSideReport,
  type ListSideReport,
  callRatios,
  cpuCell,
  fixed,
  table,
  version,
} from './report.js';
import type { BenchEra } from './endpoint.js';
import { median } from './stats.js';
import { type MrtrReport, formatMrtrReport } from './upstream-mrtr-report.js';
import { EVERYTHING_PACKAGE } from './upstream-servers.js';
import type { UpstreamBenchSettings } from './upstream-settings.js';

export type UpstreamSideKey =
  'direct' | 'bridgeV1' | 'bridge' | 'foresight' | 'foresightPlannerOff' | 'foresightHttp' | 'mcpProxy';

export interface UpstreamCallSide extends CallSideReport {
  key: UpstreamSideKey;
  /** The bench client's era on this side; a side is measured once per era its server speaks. */
  era: BenchEra;
  /** The version the bench client negotiated with the side. */
  protocolVersion: string;
  /** From the end of initialize until the echo tool was listed (Foresight connects upstreams in the background). */
  toolListedMs: number;
  /**
   * server-everything's own CPU per call (all threads), from /proc; undefined off Linux. `serverCpuUsPerCall`
   * is the process the client talks to: the proxy, or server-everything itself on the direct side.
   */
  upstreamCpuUsPerCall: number | undefined;
}

/** One fresh start of Foresight in the hung-upstream comparison. */
export interface UpstreamStartSample {
  /** Spawn + MCP initialize. */
  connectMs: number;
  /** The first tools/list, sent right after initialize. */
  firstListMs: number;
  /** From the first tools/list until server-everything's echo was listed. */
  echoListedMs: number;
}

export interface HungListingReport {
  starts: { without: UpstreamStartSample[]; with: UpstreamStartSample[] };
  /** Interleaved tools/list on the last pair started. */
  list: { without: ListSideReport; with: ListSideReport };
  /** With the hung upstream over without, median tools/list time. */
  medianListRatio: number;
  /** With over without, median of the first tools/list after each start. */
  medianFirstListRatio: number;
  sameToolNames: boolean;
  /** The hung upstream was still running, never having answered, when the lists were done (Linux only). */
  hungRunning: boolean;
}

export interface UpstreamRatio extends CallRatios {
  /** Both sides are in this client era. */
  era: BenchEra;
  side: UpstreamSideKey;
  baseline: UpstreamSideKey;
  /** Where the issue sets one: the least `ratio` to meet. */
  target?: number;
  targetMet?: boolean;
}

export interface UpstreamProxyReport {
  settings: UpstreamBenchSettings;
  versions: { serverEverything: string; mcpProxy: string };
  /** In rotation order: the 2025-11-25 sides, then the 2026-07-28 ones. */
  sides: UpstreamCallSide[];
  /** Each between two sides of the same client era. */
  ratios: UpstreamRatio[];
  hungListing: HungListingReport;
  /** The bridged MRTR round trip: an upstream tool that asks one elicitation per call. */
  mrtr: MrtrReport;
}

/** The pairs compared in `era`: [side, baseline, target], each only when both sides ran. */
function ratioPairs(
  settings: UpstreamBenchSettings,
  era: BenchEra,
): [UpstreamSideKey, UpstreamSideKey, number?][] {
  const { foresightOverBridge, foresightHttpOverMcpProxy } = settings.targets;
  return [
    ['bridge', 'direct'],
    ['bridgeV1', 'direct'],
    ['bridge', 'bridgeV1'],
    ['foresight', 'bridge', foresightOverBridge],
    ['foresight', 'direct'],
    ['foresightPlannerOff', 'bridge', foresightOverBridge],
    // The issue sets the HTTP target for the 2025 era, where mcp-proxy has always been measured.
    ['foresightHttp', 'mcpProxy', era === 'legacy' ? foresightHttpOverMcpProxy : undefined],
    ['foresightHttp', 'foresight'],
  ];
}

export function compareUpstreamSides(
  settings: UpstreamBenchSettings,
  sides: UpstreamCallSide[],
  hungListing: HungListingReport,
  mrtr: MrtrReport,
): UpstreamProxyReport {
  const byKey = new Map(sides.map((side) => [`${side.era}:${side.key}`, side]));
  const ratios: UpstreamRatio[] = [];
  for (const era of settings.eras) {
    for (const [key, baselineKey, target] of ratioPairs(settings, era)) {
      const side = byKey.get(`${era}:${key}`);
      const baseline = byKey.get(`${era}:${baselineKey}`);
      if (!side || !baseline) continue;
      const ratio = callRatios(baseline, side);
      ratios.push({
        era,
        side: key,
        baseline: baselineKey,
        ...ratio,
        ...(target === undefined ? {} : { target, targetMet: ratio.ratio >= target }),
      });
    }
  }
  return {
    settings,
    versions: {
      serverEverything: version(EVERYTHING_PACKAGE),
      mcpProxy: version('node_modules/mcp-proxy'),
    },
    sides,
    ratios,
    hungListing,
    mrtr,
  };
}

export function formatUpstreamReport(report: UpstreamProxyReport): string {
  const { settings, sides, ratios, hungListing } = report;
  const labelOf = new Map(sides.map((side) => [side.key, side.label.replace(/ \((legacy|modern)\)$/, '')]));
  const range = (values: readonly number[]) =>
    `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  const startRow = (label: string, samples: readonly UpstreamStartSample[]) => [
    label,
    fixed(median(samples.map((s) => s.connectMs)), 0),
    samples.map((s) => s.firstListMs.toFixed(2)).join(' / '),
    fixed(median(samples.map((s) => s.echoListedMs)), 0),
  ];
  const { without, with: withHung } = hungListing.list;
  return [
    `upstream proxy overhead: server-everything ${report.versions.serverEverything} echo over stdio, ` +
      `${settings.rounds} rounds × ${settings.calls} sequential calls per side, sides rotating, ` +
      `after ${settings.warmupCalls} warm-up calls per side`,
    table(
      ['side', 'version', 'calls/s', 'per round', 'p50 ms', 'p99 ms', 'CPU µs/call', 'upstream CPU µs/call'],
      sides.map((side) => [
        side.label,
        side.protocolVersion,
        side.callsPerSec.toFixed(0),
        range(side.roundCallsPerSec),
        fixed(side.latency.p50Ms),
        fixed(side.latency.p99Ms),
        cpuCell(side.serverCpuUsPerCall, 1),
        side.key === 'direct' ? '(same)' : cpuCell(side.upstreamCpuUsPerCall, 1),
      ]),
    ),
    '(CPU: the process the client talks to; upstream: server-everything behind it. Each side runs in every ' +
      'client era its server speaks: server-everything itself (a) only 2025-11-25; behind a proxy it is always ' +
      'spoken to on 2025-11-25)',
    '',
    table(
      ['ratio', 'era', 'calls/s', 'median round', 'from p50s', 'CPU', 'target'],
      ratios.map((r) => [
        `${labelOf.get(r.side)} / ${labelOf.get(r.baseline)}`,
        r.era,
        r.ratio.toFixed(3),
        r.medianRoundRatio.toFixed(3),
        r.p50Ratio.toFixed(3),
        `×${cpuCell(r.serverCpuRatio, 2)}`,
        r.target === undefined ? '' : `≥ ${r.target}: ${r.targetMet ? 'met' : 'MISSED'}`,
      ]),
    ),
    '',
    `tools/list through Foresight with a second upstream that never answers: ` +
      `${hungListing.starts.with.length} fresh starts each, then ${settings.listCalls} lists per side, alternating`,
    table(
      ['side', 'connect ms (median)', 'first tools/list ms', 'echo listed after ms (median)'],
      [
        startRow(without.label, hungListing.starts.without),
        startRow(withHung.label, hungListing.starts.with),
      ],
    ),
    table(
      ['side', 'tools', 'median ms', 'p90 ms', 'max ms'],
      [without, withHung].map((side) => [
        side.label,
        String(side.tools),
        fixed(side.latency.p50Ms, 2),
        fixed(side.latency.p90Ms, 2),
        fixed(side.latency.maxMs, 2),
      ]),
    ),
    `ratio with/without: tools/list median ${hungListing.medianListRatio.toFixed(3)}, ` +
      `first tools/list median ${hungListing.medianFirstListRatio.toFixed(3)}; ` +
      `same tool names: ${hungListing.sameToolNames ? 'yes' : 'NO'}; ` +
      `hung upstream still running: ${hungListing.hungRunning ? 'yes' : 'NO'}`,
    '',
    formatMrtrReport(report.mrtr),
  ].join('\n');
}
