// The eras bench's knobs (tools/call in 8 cells: stdio and Streamable HTTP × 2026-07-28 and 2025-11-25 ×
// sequential and calls in flight): defaults that finish in a few minutes on 2 cores, each overridable by an
// environment variable. Which Foresight build runs, and CPU profiling, come from the bench's own settings.
import { resolve } from 'node:path';
import { positiveInt } from './settings.js';

export const TRANSPORTS = ['stdio', 'http'] as const;
export type Transport = (typeof TRANSPORTS)[number];
export const ERAS = ['modern', 'legacy'] as const;

export interface ErasBenchSettings {
  /** A/B rounds per cell; the order flips every round. BENCH_ERAS_ROUNDS, default 10. */
  rounds: number;
  /** Calls per side per round over stdio. BENCH_ERAS_CALLS, default 500. */
  stdioCalls: number;
  /** Calls per side per round over Streamable HTTP (each a POST). BENCH_ERAS_HTTP_CALLS, default 200. */
  httpCalls: number;
  /** Unmeasured calls per side before each cell's rounds. BENCH_ERAS_WARMUP, default 500. */
  warmupCalls: number;
  /** Calls kept in flight in the concurrent cells. BENCH_ERAS_IN_FLIGHT, default 8. */
  inFlight: number;
  /**
   * Cells to run, comma-separated, each an id (`stdio-modern-seq`, `http-legacy-x8`) or a prefix of one
   * (`http`, `stdio-modern`). BENCH_ERAS_CELLS, default all 8.
   */
  cells: string[];
  /** Foresight's calls/s over the raw server's: at least `ratio`; its CPU per call over the raw's: at most `cpuRatio`. */
  targets: { ratio: number; cpuRatio: number };
  /**
   * Another Foresight CLI to serve side A in place of the raw server (BENCH_ERAS_BASELINE_CLI): each cell's ratio is
   * then one build's calls/s over the other's, measured in the same rounds (what `bench:ab`'s direct mode reads).
   */
  baselineCli?: string;
}

export function readErasSettings(): ErasBenchSettings {
  const cells = (process.env.BENCH_ERAS_CELLS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return {
    rounds: positiveInt('BENCH_ERAS_ROUNDS', 10),
    stdioCalls: positiveInt('BENCH_ERAS_CALLS', 500),
    httpCalls: positiveInt('BENCH_ERAS_HTTP_CALLS', 200),
    warmupCalls: positiveInt('BENCH_ERAS_WARMUP', 500),
    inFlight: positiveInt('BENCH_ERAS_IN_FLIGHT', 8),
    cells,
    targets: { ratio: 0.9, cpuRatio: 1.2 },
    ...(process.env.BENCH_ERAS_BASELINE_CLI
      ? { baselineCli: resolve(process.env.BENCH_ERAS_BASELINE_CLI) }
      : {}),
  };
}

/** The id of a cell: `<transport>-<era>-seq`, or `-x<n>` with n calls in flight. */
export function cellId(transport: Transport, era: string, inFlight: number): string {
  return `${transport}-${era}-${inFlight === 1 ? 'seq' : `x${inFlight}`}`;
}

/** Whether BENCH_ERAS_CELLS selects the cell (all are, when it is unset). */
export function selected(settings: ErasBenchSettings, id: string): boolean {
  return (
    settings.cells.length === 0 || settings.cells.some((item) => id === item || id.startsWith(`${item}-`))
  );
}
