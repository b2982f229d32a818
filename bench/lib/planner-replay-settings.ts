// The planner replay's knobs: defaults that finish in about eight minutes on 2 cores (both eras; about five for
// one), each overridable by an environment variable.
import { resolve } from 'node:path';
import { DEFAULT_SESSION_PLAN } from './corpus-sessions.js';
import type { BenchEra } from './endpoint.js';
import {
  type ChoiceRule,
  IN_ORDER,
  LESS_PREDICTABLE,
  MODERATE,
  PREDICTABLE,
} from './planner-replay-agent.js';

export interface PlannerReplaySettings {
  /** Sessions per variant. BENCH_PLANNER_SESSIONS, default 12. */
  sessions: number;
  /**
   * Sessions (of another seed) the planner learns from before each variant is measured, as a user's
   * planner has learned from earlier sessions; 0 = every measured run starts with nothing learned.
   * BENCH_PLANNER_TRAINING, default 12.
   */
  trainingSessions: number;
  /** Sessions (each an off and an on run, side by side) in progress at once. BENCH_PLANNER_CONCURRENCY, default 3. */
  concurrency: number;
  /** Every think time and injected latency is multiplied by this. BENCH_PLANNER_TIME_SCALE, default 0.2. */
  timeScale: number;
  /**
   * Seeds the sessions, the workspace, the GitLab data and the latencies. BENCH_PLANNER_SEED, default 30: of
   * seeds 1-30, the one whose 12 sessions use the most tools (13), all four writing tools, and a merge
   * request comment followed by a read of its threads.
   */
  seed: number;
  /** The planner's `learning` setting for the runs with it on. BENCH_PLANNER_LEARNING (0/1), default 1. */
  learning: boolean;
  /** Calls per session, uniform over this range. */
  sessionLength: readonly [number, number];
  /** Think time before each call, unscaled ms, uniform. */
  thinkMs: readonly [number, number];
  /** Injected upstream latency per GitLab request and per workspace call, unscaled ms, uniform. */
  latencyMs: readonly [number, number];
  variants: ChoiceRule[];
  /**
   * The protocol eras the sessions are replayed in, each with its own off/on comparison: legacy (a 2025 client,
   * in memory) and modern (2026-07-28 over Streamable HTTP on loopback). Training runs in the first.
   * BENCH_PLANNER_ERAS, comma-separated, default "legacy,modern".
   */
  eras: BenchEra[];
  /** When set, every run's call records are written to this JSON file. BENCH_PLANNER_TRACE. */
  traceFile?: string;
  /**
   * More `[planner]` settings for the runs with the planner on, as TOML lines ("; " separates them), e.g.
   * "token_budget = 12000; max_in_flight = 6". BENCH_PLANNER_TOML, default none (the planner's defaults).
   */
  plannerToml?: string;
}

export function envNumber(
  name: string,
  fallback: number,
  valid: (n: number) => boolean,
  what: string,
): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!valid(value)) throw new Error(`${name} must be ${what}, got "${text}"`);
  return value;
}

const ERAS: readonly BenchEra[] = ['legacy', 'modern'];

function envEras(name: string): BenchEra[] {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return [...ERAS];
  const eras = text.split(',').map((era) => era.trim());
  const valid = (era: string): era is BenchEra => (ERAS as readonly string[]).includes(era);
  if (!eras.every(valid) || new Set(eras).size !== eras.length)
    throw new Error(`${name} must list "legacy" and/or "modern", comma-separated, got "${text}"`);
  return eras.filter(valid);
}

export function readPlannerReplaySettings(): PlannerReplaySettings {
  const positiveInt = (n: number) => Number.isInteger(n) && n >= 1;
  return {
    sessions: envNumber('BENCH_PLANNER_SESSIONS', 12, positiveInt, 'a positive integer'),
    trainingSessions: envNumber(
      'BENCH_PLANNER_TRAINING',
      12,
      (n) => Number.isInteger(n) && n >= 0,
      'a whole number',
    ),
    concurrency: envNumber('BENCH_PLANNER_CONCURRENCY', 3, positiveInt, 'a positive integer'),
    timeScale: envNumber('BENCH_PLANNER_TIME_SCALE', 0.2, (n) => n > 0 && n <= 10, 'a number in (0, 10]'),
    seed: envNumber('BENCH_PLANNER_SEED', 30, (n) => Number.isInteger(n) && n >= 0, 'a whole number'),
    learning: envNumber('BENCH_PLANNER_LEARNING', 1, (n) => n === 0 || n === 1, '0 or 1') === 1,
    sessionLength: DEFAULT_SESSION_PLAN.length,
    thinkMs: DEFAULT_SESSION_PLAN.thinkMs,
    latencyMs: [150, 400],
    variants: [IN_ORDER, PREDICTABLE, MODERATE, LESS_PREDICTABLE],
    eras: envEras('BENCH_PLANNER_ERAS'),
    ...(process.env.BENCH_PLANNER_TRACE ? { traceFile: resolve(process.env.BENCH_PLANNER_TRACE) } : {}),
    ...(process.env.BENCH_PLANNER_TOML ? { plannerToml: process.env.BENCH_PLANNER_TOML } : {}),
  };
}
