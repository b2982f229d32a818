// The planner replay's numbers: per-session runs summed per mode, and the off/on comparison of each variant in
// each protocol era with its targets.
import type { SessionKind, SessionStatistics } from './corpus-sessions.js';
import type { BenchEra } from './endpoint.js';
import type { CallRecord, ChoiceRule } from './planner-replay-agent.js';
import type { PlannerCounters } from '../../src/planner/index.js';
import { percentile } from './stats.js';

export type Mode = 'off' | 'on';

/** One session run against its own host and upstream. */
export interface SessionRun {
  index: number;
  kind: SessionKind;
  mode: Mode;
  era: BenchEra;
  /** Which mode ran first for this session. */
  first: Mode;
  calls: CallRecord[];
  wallMs: number;
  /**
   * How long the run's thread was busy (event loop active) from the agent's first call until the calls run ahead
   * were done: the tested hosts, the reference host and the fake upstreams together. Absent in older traces.
   */
  busyMs?: number;
  /** Of that time, garbage collection in the run's thread (PerformanceObserver 'gc' entries). */
  gcMs?: number;
  upstream: {
    /** Requests the counted GitLab server received during the session (start-up metadata excluded). */
    gitlabRequests: number;
    /** Of those, writes (POST, PUT, DELETE). */
    gitlabWrites: number;
    /** Requests no route answered: should stay 0. */
    gitlabUnmatched: number;
    /** Calls the workspace plugin served (each paid the injected latency). */
    workspaceCalls: number;
  };
  /** Speculative calls as they reached the plugins, and those of writing tools among them. */
  speculative: { calls: number; writes: number; list: string[] };
  stats: { counters: PlannerCounters } | { unavailable: string };
  /** The cluster replay: how many hosts (cluster members) served the agent; absent for one host of its own. */
  processes?: number;
  /** The cluster replay: Redis commands the members sent during the session (start-up left out). */
  redisRoundTrips?: number;
  /** [planner] keys the build refused (see planner-replay-host.ts). */
  droppedKeys: string[];
  /** Distinct warnings and errors the run's hosts logged. */
  problems: string[];
}

export interface ModeReport {
  mode: Mode;
  sessions: number;
  agentCalls: number;
  reads: number;
  errors: number;
  /** Sum of every call's client-measured wait, ms. */
  totalWaitMs: number;
  perCallMs: { mean: number; p50: number; p95: number };
  /** What the client saw in `_meta["foresight/prefetch"]`. */
  served: { cache: number; inFlight: number };
  /** Summed counters of the stats resource; undefined when no session could read them. */
  counters: PlannerCounters | undefined;
  countersUnavailable: string | undefined;
  /** Speculative calls that reached a plugin and were not served to the agent (as the client saw it). */
  unservedObserved: number;
  /** The larger of the counters' `wasted` and `unservedObserved`: what the wasted targets use. */
  wasted: number;
  /** Hits and joins: the counters' when read, else the client's. */
  hitsAndJoins: number;
  wastedPerHit: number;
  wastedPerAgentCall: number;
  upstream: {
    requests: number;
    gitlabRequests: number;
    workspaceCalls: number;
    writes: number;
    unmatched: number;
  };
  speculative: { calls: number; writes: number };
  staleAnswers: number;
  wallMs: number;
}

export interface Target {
  what: string;
  value: number;
  limit: string;
  /** undefined when the value is not available. */
  pass: boolean | undefined;
}

export interface VariantReport {
  rule: ChoiceRule;
  /** Both modes ran in this era, against hosts (tested and reference) served in it. */
  era: BenchEra;
  off: ModeReport;
  on: ModeReport;
  /** (off − on) / off total wait, percent. */
  waitReductionPercent: number;
  extraUpstreamRequests: number;
  extraUpstreamPercent: number;
  /** Writes upstream with the planner on minus off, plus speculative calls of writing tools. */
  mutatingSpeculativeCalls: number;
  /** Calls whose tool and arguments differed between the off and on runs of a session (should be 0). */
  divergentCalls: number;
  targets: Target[];
  /** Per session: calls, wait off and on, served, for the JSON. */
  sessions: {
    index: number;
    kind: SessionKind;
    first: Mode;
    calls: number;
    waitOffMs: number;
    waitOnMs: number;
    served: number;
    stale: number;
  }[];
  /** Wait per tool in each mode. */
  byTool: { tool: string; calls: number; waitOffMs: number; waitOnMs: number; served: number }[];
}

const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0);

function summedCounters(runs: readonly SessionRun[]): PlannerCounters | undefined {
  const read = runs.flatMap((run) => ('counters' in run.stats ? [run.stats.counters] : []));
  if (read.length === 0) return undefined;
  const total = { ...read[0] } as PlannerCounters;
  for (const counters of read.slice(1))
    for (const name of Object.keys(total) as (keyof PlannerCounters)[]) total[name] += counters[name];
  return total;
}

export function modeReport(mode: Mode, runs: readonly SessionRun[]): ModeReport {
  const calls = runs.flatMap((run) => run.calls);
  const waits = calls.map((c) => c.waitMs).sort((a, b) => a - b);
  const served = {
    cache: calls.filter((c) => c.prefetch === 'cache').length,
    inFlight: calls.filter((c) => c.prefetch === 'in_flight').length,
  };
  const counters = summedCounters(runs);
  const unavailable = runs.find((run) => 'unavailable' in run.stats)?.stats as
    { unavailable: string } | undefined;
  const speculative = {
    calls: sum(runs.map((r) => r.speculative.calls)),
    writes: sum(runs.map((r) => r.speculative.writes)),
  };
  const unservedObserved = Math.max(0, speculative.calls - served.cache - served.inFlight);
  const wasted = Math.max(counters?.wasted ?? 0, unservedObserved);
  const hitsAndJoins = counters ? counters.hits + counters.joins : served.cache + served.inFlight;
  const gitlabRequests = sum(runs.map((r) => r.upstream.gitlabRequests));
  const workspaceCalls = sum(runs.map((r) => r.upstream.workspaceCalls));
  return {
    mode,
    sessions: runs.length,
    agentCalls: calls.length,
    reads: calls.filter((c) => c.stale !== undefined).length,
    errors: calls.filter((c) => c.isError).length,
    totalWaitMs: sum(waits),
    perCallMs: {
      mean: sum(waits) / Math.max(1, waits.length),
      p50: percentile(waits, 50),
      p95: percentile(waits, 95),
    },
    served,
    counters,
    countersUnavailable: unavailable?.unavailable,
    unservedObserved,
    wasted,
    hitsAndJoins,
    wastedPerHit: hitsAndJoins > 0 ? wasted / hitsAndJoins : wasted > 0 ? Number.POSITIVE_INFINITY : 0,
    wastedPerAgentCall: wasted / Math.max(1, calls.length),
    upstream: {
      requests: gitlabRequests + workspaceCalls,
      gitlabRequests,
      workspaceCalls,
      writes: sum(runs.map((r) => r.upstream.gitlabWrites)),
      unmatched: sum(runs.map((r) => r.upstream.gitlabUnmatched)),
    },
    speculative,
    staleAnswers: calls.filter((c) => c.stale === true).length,
    wallMs: sum(runs.map((r) => r.wallMs)),
  };
}

/** The targets: ≥ 25% less wait, ≤ 1 wasted per hit, no mutating speculative call, no stale answer. */
export const TARGETS = { waitReductionPercent: 25, wastedPerHit: 1 } as const;

export function variantReport(rule: ChoiceRule, era: BenchEra, runs: readonly SessionRun[]): VariantReport {
  const offRuns = runs.filter((r) => r.mode === 'off').sort((a, b) => a.index - b.index);
  const onRuns = runs.filter((r) => r.mode === 'on').sort((a, b) => a.index - b.index);
  const off = modeReport('off', offRuns);
  const on = modeReport('on', onRuns);
  const waitReductionPercent = ((off.totalWaitMs - on.totalWaitMs) / off.totalWaitMs) * 100;
  const extraUpstreamRequests = on.upstream.requests - off.upstream.requests;
  const mutatingSpeculativeCalls =
    Math.max(0, on.upstream.writes - off.upstream.writes) + on.speculative.writes;
  let divergentCalls = 0;
  const sessions: VariantReport['sessions'] = [];
  const tools = new Map<string, { calls: number; waitOffMs: number; waitOnMs: number; served: number }>();
  for (const offRun of offRuns) {
    const onRun = onRuns.find((r) => r.index === offRun.index);
    if (!onRun) continue;
    const length = Math.max(offRun.calls.length, onRun.calls.length);
    for (let i = 0; i < length; i++) {
      const a = offRun.calls[i];
      const b = onRun.calls[i];
      if (!a || !b || a.tool !== b.tool || a.args !== b.args) divergentCalls += 1;
      if (a && b) {
        const entry = tools.get(a.tool) ?? { calls: 0, waitOffMs: 0, waitOnMs: 0, served: 0 };
        entry.calls += 1;
        entry.waitOffMs += a.waitMs;
        entry.waitOnMs += b.waitMs;
        if (b.prefetch) entry.served += 1;
        tools.set(a.tool, entry);
      }
    }
    sessions.push({
      index: offRun.index,
      kind: offRun.kind,
      first: offRun.first,
      calls: offRun.calls.length,
      waitOffMs: Math.round(sum(offRun.calls.map((c) => c.waitMs))),
      waitOnMs: Math.round(sum(onRun.calls.map((c) => c.waitMs))),
      served: onRun.calls.filter((c) => c.prefetch).length,
      stale: onRun.calls.filter((c) => c.stale).length + offRun.calls.filter((c) => c.stale).length,
    });
  }
  const countersKnown = on.counters !== undefined || on.speculative.calls > 0 || on.hitsAndJoins > 0;
  const targets: Target[] = [
    {
      what: 'total agent-visible wait, less with the planner on',
      value: waitReductionPercent,
      limit: `≥ ${TARGETS.waitReductionPercent}%`,
      pass: waitReductionPercent >= TARGETS.waitReductionPercent,
    },
    {
      what: 'wasted speculative calls per hit (hits + joins)',
      value: on.wastedPerHit,
      limit: `≤ ${TARGETS.wastedPerHit}`,
      pass: countersKnown ? on.wastedPerHit <= TARGETS.wastedPerHit : undefined,
    },
    {
      what: 'mutating speculative calls',
      value: mutatingSpeculativeCalls,
      limit: '= 0',
      pass: mutatingSpeculativeCalls === 0,
    },
    {
      what: 'stale answers (planner on)',
      value: on.staleAnswers,
      limit: '= 0',
      pass: on.staleAnswers === 0,
    },
  ];
  return {
    rule,
    era,
    off,
    on,
    waitReductionPercent,
    extraUpstreamRequests,
    extraUpstreamPercent: (extraUpstreamRequests / Math.max(1, off.upstream.requests)) * 100,
    mutatingSpeculativeCalls,
    divergentCalls,
    targets,
    sessions,
    byTool: [...tools.entries()]
      .sort((a, b) => b[1].calls - a[1].calls)
      .map(([tool, t]) => ({
        tool,
        calls: t.calls,
        waitOffMs: Math.round(t.waitOffMs),
        waitOnMs: Math.round(t.waitOnMs),
        served: t.served,
      })),
  };
}

export interface PlannerReplayReport {
  settings: Record<string, unknown>;
  sessions: SessionStatistics;
  /** Share of each mapped corpus tool's calls followed by a mapped tool (before renormalising). */
  corpusKeptShare: Record<string, number>;
  /** One per variant and era, the eras of a variant next to each other. */
  variants: VariantReport[];
  /** [planner] keys this build refused (the bench ran without them). */
  droppedPlannerKeys: string[];
  /** Distinct warnings and errors the hosts logged. */
  hostProblems: string[];
  runMs: number;
}
