// The cluster replay's numbers: per variant, the planner replay's off/on comparison made twice over the same off
// runs (`single`: one host; `three`: the cluster), and the ratios between the two, printed as one table.
import type { ChoiceRule } from './planner-replay-agent.js';
import {
  type ModeReport,
  type SessionRun,
  type VariantReport,
  variantReport,
} from './planner-replay-report.js';
import { table } from './report.js';

export type ClusterMode = 'off' | 'single' | 'three';

/** A mode's figures beyond the replay's ModeReport. */
export interface ClusterModeFigures {
  /** The planner-off reference's total wait minus this mode's, ms (the replay's "saved"). */
  savedMs: number;
  savedPercent: number;
  upstreamPerCall: number;
  /** Redis commands per agent call, summed over the members; undefined without Redis (off, single). */
  redisRoundTripsPerCall: number | undefined;
  /** Agent calls ÷ the sessions' summed wall time: the agent's pace (think time included), not a capacity. */
  callsPerSecond: number;
  /**
   * The run's thread busy per agent call, ms (SessionRun.busyMs): the same agent, reference and fake upstreams in
   * every mode, so the differences are the hosts' own work (the cluster's three hosts share one thread).
   */
  busyMsPerCall: number | undefined;
  /** Of that, garbage collection per agent call, ms. */
  gcMsPerCall: number | undefined;
  /**
   * Agent calls that waited STALL_MS or more, and their summed wait, ms: no call of the replay takes that long
   * upstream, so these waited on something else (in a cluster, another member's claim).
   */
  stalls: { calls: number; waitMs: number };
}

/** A call this slow waited on something besides its upstream (a few hundred ms at most at the default scale). */
export const STALL_MS = 1000;

export interface ClusterVariantReport {
  rule: ChoiceRule;
  processes: number;
  /** The replay's comparison, off vs one host. */
  single: VariantReport;
  /** The replay's comparison, off vs the cluster (same off runs). */
  three: VariantReport;
  figures: Record<ClusterMode, ClusterModeFigures>;
  /** saved(three) ÷ saved(single): target ≥ 0.90. */
  savedRatio: number;
  /** upstream per call (three) ÷ (single): target 1.00 ± 0.05. */
  upstreamRatio: number;
  targets: { what: string; value: number; limit: string; pass: boolean }[];
  /** Per tool: calls, wait and calls served by the planner, one host against the cluster. */
  byTool: {
    tool: string;
    calls: number;
    waitOffMs: number;
    waitSingleMs: number;
    waitThreeMs: number;
    servedSingle: number;
    servedThree: number;
  }[];
}

export interface ClusterReplayReport {
  settings: Record<string, unknown>;
  variants: ClusterVariantReport[];
  hostProblems: string[];
  runMs: number;
}

export const CLUSTER_TARGETS = { savedRatio: 0.9, upstreamTolerance: 0.05 } as const;

const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0);

function figures(mode: ModeReport, off: ModeReport, runs: readonly SessionRun[]): ClusterModeFigures {
  // Undefined when a run lacks the figure (a trace from before it was measured).
  const perCall = (values: readonly (number | undefined)[]) =>
    values.every((value) => value !== undefined) ? sum(values) / Math.max(1, mode.agentCalls) : undefined;
  const trips = runs.flatMap((run) => (run.redisRoundTrips === undefined ? [] : [run.redisRoundTrips]));
  const savedMs = off.totalWaitMs - mode.totalWaitMs;
  const stalled = runs.flatMap((run) => run.calls).filter((call) => call.waitMs >= STALL_MS);
  return {
    stalls: { calls: stalled.length, waitMs: sum(stalled.map((call) => call.waitMs)) },
    savedMs,
    savedPercent: (savedMs / off.totalWaitMs) * 100,
    upstreamPerCall: mode.upstream.requests / Math.max(1, mode.agentCalls),
    redisRoundTripsPerCall: trips.length > 0 ? sum(trips) / Math.max(1, mode.agentCalls) : undefined,
    callsPerSecond: mode.agentCalls / Math.max(0.001, mode.wallMs / 1000),
    busyMsPerCall: perCall(runs.map((run) => run.busyMs)),
    gcMsPerCall: perCall(runs.map((run) => run.gcMs)),
  };
}

/** `runs` holds each session's three runs: off, single (mode "on", no processes) and three (processes set). */
export function clusterVariantReport(rule: ChoiceRule, runs: readonly SessionRun[]): ClusterVariantReport {
  const off = runs.filter((run) => run.mode === 'off');
  const single = runs.filter((run) => run.mode === 'on' && run.processes === undefined);
  const three = runs.filter((run) => run.mode === 'on' && run.processes !== undefined);
  const singleReport = variantReport(rule, 'modern', [...off, ...single]);
  const threeReport = variantReport(rule, 'modern', [...off, ...three]);
  const fig: Record<ClusterMode, ClusterModeFigures> = {
    off: figures(singleReport.off, singleReport.off, off),
    single: figures(singleReport.on, singleReport.off, single),
    three: figures(threeReport.on, threeReport.off, three),
  };
  const savedRatio = fig.three.savedMs / fig.single.savedMs;
  const upstreamRatio = fig.three.upstreamPerCall / fig.single.upstreamPerCall;
  const stale = singleReport.on.staleAnswers + threeReport.on.staleAnswers;
  const mutating = singleReport.mutatingSpeculativeCalls + threeReport.mutatingSpeculativeCalls;
  const divergent = singleReport.divergentCalls + threeReport.divergentCalls;
  const byTool = singleReport.byTool.map((entry) => {
    const other = threeReport.byTool.find((t) => t.tool === entry.tool);
    return {
      tool: entry.tool,
      calls: entry.calls,
      waitOffMs: entry.waitOffMs,
      waitSingleMs: entry.waitOnMs,
      waitThreeMs: other?.waitOnMs ?? 0,
      servedSingle: entry.served,
      servedThree: other?.served ?? 0,
    };
  });
  return {
    rule,
    processes: three[0]?.processes ?? 0,
    single: singleReport,
    three: threeReport,
    figures: fig,
    savedRatio,
    upstreamRatio,
    targets: [
      {
        what: 'wait saved, three ÷ single',
        value: savedRatio,
        limit: `≥ ${CLUSTER_TARGETS.savedRatio.toFixed(2)}`,
        pass: savedRatio >= CLUSTER_TARGETS.savedRatio,
      },
      {
        what: 'upstream requests per agent call, three ÷ single',
        value: upstreamRatio,
        limit: `1.00 ± ${CLUSTER_TARGETS.upstreamTolerance.toFixed(2)}`,
        pass: Math.abs(upstreamRatio - 1) <= CLUSTER_TARGETS.upstreamTolerance,
      },
      { what: 'stale answers (single + three)', value: stale, limit: '= 0', pass: stale === 0 },
      { what: 'mutating speculative calls', value: mutating, limit: '= 0', pass: mutating === 0 },
      { what: 'calls that differed from the off run', value: divergent, limit: '= 0', pass: divergent === 0 },
    ],
    byTool,
  };
}

const fixed = (value: number | undefined, digits = 0) =>
  value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : '–';
const shortTool = (tool: string) => tool.replace(/^[a-z]+__/, '');

const HEADER = [
  'mode',
  'calls',
  'wait s',
  'saved s',
  'saved %',
  'p50 ms',
  'p95 ms',
  'hits+joins',
  'dispatched',
  'wasted',
  'upstream req',
  'upstream/call',
  'redis rt/call',
  'calls/s',
  'busy ms/call',
  'gc ms/call',
  'stalls',
  'stale/reads',
];

function rows(variant: ClusterVariantReport): string[][] {
  const modes: [ClusterMode, ModeReport][] = [
    ['off', variant.single.off],
    ['single', variant.single.on],
    ['three', variant.three.on],
  ];
  return modes.map(([name, m]) => {
    const f = variant.figures[name];
    const planner = name !== 'off';
    return [
      name === 'three' ? `${variant.processes} hosts` : name,
      String(m.agentCalls),
      fixed(m.totalWaitMs / 1000, 2),
      planner ? fixed(f.savedMs / 1000, 2) : '–',
      planner ? fixed(f.savedPercent, 1) : '–',
      fixed(m.perCallMs.p50, 1),
      fixed(m.perCallMs.p95, 1),
      !planner
        ? '–'
        : m.counters
          ? `${m.counters.hits}+${m.counters.joins}`
          : `${m.served.cache}+${m.served.inFlight}*`,
      !planner ? '–' : m.counters ? String(m.counters.dispatched) : `${m.speculative.calls}*`,
      planner ? String(m.wasted) : '–',
      String(m.upstream.requests),
      fixed(f.upstreamPerCall, 3),
      fixed(f.redisRoundTripsPerCall, 2),
      fixed(f.callsPerSecond, 2),
      fixed(f.busyMsPerCall, 1),
      fixed(f.gcMsPerCall, 1),
      f.stalls.calls === 0 ? '0' : `${f.stalls.calls} (${fixed(f.stalls.waitMs / 1000, 1)} s)`,
      `${m.staleAnswers}/${m.reads}`,
    ];
  });
}

export function formatClusterReplayReport(report: ClusterReplayReport): string {
  const lines = [
    `Planner replay across a cluster (2026-07-28 era; the planner off, on one host, and on ${
      report.variants[0]?.processes ?? 3
    } hosts sharing one Redis, the agent's calls sent to them in turn), ${(report.runMs / 1000).toFixed(0)} s`,
  ];
  for (const variant of report.variants) {
    lines.push('', `${variant.rule.name}:`, table(HEADER, rows(variant)));
    for (const target of variant.targets)
      lines.push(
        `  ${target.pass ? 'PASS' : 'MISS'}  ${target.what}: ${fixed(target.value, 3)} (target ${target.limit})`,
      );
    lines.push(
      '  wait by tool, off → single → three (served single/three): ' +
        variant.byTool
          .map(
            (t) =>
              `${shortTool(t.tool)} ×${t.calls} ${fixed(t.waitOffMs / 1000, 2)}→${fixed(t.waitSingleMs / 1000, 2)}→` +
              `${fixed(t.waitThreeMs / 1000, 2)} s (${t.servedSingle}/${t.servedThree})`,
          )
          .join(', '),
    );
  }
  if (report.hostProblems.length > 0)
    lines.push('', 'the hosts logged:', ...report.hostProblems.slice(0, 20).map((line) => `  ${line}`));
  return lines.join('\n');
}
