// The upstream proxy bench's knobs: defaults that finish in a few minutes on 2 cores, each overridable by an
// environment variable. Which Foresight build runs, and CPU profiling, come from the bench's own settings.
import type { BenchEra } from './endpoint.js';
import { positiveInt } from './settings.js';

export interface UpstreamBenchSettings {
  /** Rounds of tools/call over all sides, rotating which side goes first. BENCH_UPSTREAM_ROUNDS, default 20. */
  rounds: number;
  /** Sequential tools/call per side per round. BENCH_UPSTREAM_CALLS, default 200. */
  calls: number;
  /** Unmeasured tools/call per side before the rounds. BENCH_UPSTREAM_WARMUP, default 500. */
  warmupCalls: number;
  /**
   * The client eras whose sides run (a side runs in each era its server speaks): BENCH_UPSTREAM_ERAS, a
   * comma-separated list of `legacy` (2025-11-25) and `modern` (2026-07-28); default both.
   */
  eras: BenchEra[];
  /** Measured tools/list per side in the hung-upstream comparison, alternating. BENCH_UPSTREAM_LIST_CALLS, default 50. */
  listCalls: number;
  /** Fresh starts of each Foresight in the hung-upstream comparison (connect and first listing). BENCH_UPSTREAM_HUNG_STARTS, default 3. */
  hungStarts: number;
  /** Adds a side: Foresight over stdio with `[planner] enabled = false`. BENCH_UPSTREAM_PLANNER_OFF=1. */
  plannerOffSide: boolean;
  /** Adds a side: the SDK 1.x naive bridge of earlier runs (2025 only). BENCH_UPSTREAM_BRIDGE_V1=1. */
  bridgeV1Side: boolean;
  /** The bridged MRTR round trip (an upstream tool that asks one elicitation per call). */
  mrtr: {
    /** Rounds over the MRTR sides, rotating. BENCH_UPSTREAM_MRTR_ROUNDS, default 10. */
    rounds: number;
    /** Sequential calls per side per round. BENCH_UPSTREAM_MRTR_CALLS, default 20. */
    calls: number;
    /** Unmeasured calls per side first. BENCH_UPSTREAM_MRTR_WARMUP, default 50. */
    warmupCalls: number;
  };
  /**
   * Targets, each within one client era: Foresight over stdio against the naive bridge (both eras), and
   * Foresight over HTTP against mcp-proxy (2025-11-25).
   */
  targets: { foresightOverBridge: number; foresightHttpOverMcpProxy: number };
}

const ERA_NAMES: readonly BenchEra[] = ['legacy', 'modern'];

function readEras(): BenchEra[] {
  const text = process.env.BENCH_UPSTREAM_ERAS;
  if (text === undefined || text.trim() === '') return [...ERA_NAMES];
  const eras = text.split(',').map((name) => name.trim());
  const unknown = eras.filter((name) => !(ERA_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`BENCH_UPSTREAM_ERAS takes legacy and/or modern, got "${unknown.join(', ')}"`);
  return ERA_NAMES.filter((era) => eras.includes(era));
}

export function readUpstreamSettings(): UpstreamBenchSettings {
  return {
    rounds: positiveInt('BENCH_UPSTREAM_ROUNDS', 20),
    calls: positiveInt('BENCH_UPSTREAM_CALLS', 200),
    warmupCalls: positiveInt('BENCH_UPSTREAM_WARMUP', 500),
    eras: readEras(),
    listCalls: positiveInt('BENCH_UPSTREAM_LIST_CALLS', 50),
    hungStarts: positiveInt('BENCH_UPSTREAM_HUNG_STARTS', 3),
    plannerOffSide: process.env.BENCH_UPSTREAM_PLANNER_OFF === '1',
    bridgeV1Side: process.env.BENCH_UPSTREAM_BRIDGE_V1 === '1',
    mrtr: {
      rounds: positiveInt('BENCH_UPSTREAM_MRTR_ROUNDS', 10),
      calls: positiveInt('BENCH_UPSTREAM_MRTR_CALLS', 20),
      warmupCalls: positiveInt('BENCH_UPSTREAM_MRTR_WARMUP', 50),
    },
    targets: { foresightOverBridge: 0.9, foresightHttpOverMcpProxy: 1.1 },
  };
}
