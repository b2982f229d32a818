// The upstream proxy bench's knobs: defaults that finish in about a minute on 2 cores, each overridable by an
// environment variable. Which Foresight build runs, and CPU profiling, come from the bench's own settings.
import { positiveInt } from './settings.js';

export interface UpstreamBenchSettings {
  /** Rounds of tools/call over all sides, rotating which side goes first. BENCH_UPSTREAM_ROUNDS, default 20. */
  rounds: number;
  /** Sequential tools/call per side per round. BENCH_UPSTREAM_CALLS, default 200. */
  calls: number;
  /** Unmeasured tools/call per side before the rounds. BENCH_UPSTREAM_WARMUP, default 500. */
  warmupCalls: number;
  /** Measured tools/list per side in the hung-upstream comparison, alternating. BENCH_UPSTREAM_LIST_CALLS, default 50. */
  listCalls: number;
  /** Fresh starts of each Foresight in the hung-upstream comparison (connect and first listing). BENCH_UPSTREAM_HUNG_STARTS, default 3. */
  hungStarts: number;
  /** Adds a side: Foresight over stdio with `[planner] enabled = false`. BENCH_UPSTREAM_PLANNER_OFF=1. */
  plannerOffSide: boolean;
  /** Targets: Foresight over stdio against the naive bridge, and Foresight over HTTP against mcp-proxy. */
  targets: { foresightOverBridge: number; foresightHttpOverMcpProxy: number };
}

export function readUpstreamSettings(): UpstreamBenchSettings {
  return {
    rounds: positiveInt('BENCH_UPSTREAM_ROUNDS', 20),
    calls: positiveInt('BENCH_UPSTREAM_CALLS', 200),
    warmupCalls: positiveInt('BENCH_UPSTREAM_WARMUP', 500),
    listCalls: positiveInt('BENCH_UPSTREAM_LIST_CALLS', 50),
    hungStarts: positiveInt('BENCH_UPSTREAM_HUNG_STARTS', 3),
    plannerOffSide: process.env.BENCH_UPSTREAM_PLANNER_OFF === '1',
    targets: { foresightOverBridge: 0.9, foresightHttpOverMcpProxy: 1.0 },
  };
}
