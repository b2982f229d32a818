// The cluster replay's knobs: the planner replay's (BENCH_PLANNER_*: seed, time scale, training, learning, TOML),
// in the 2026-07-28 era only, with its own session count, concurrency, variants and Redis; defaults that finish in
// about five minutes on 2 cores.
import { IN_ORDER, MODERATE, PREDICTABLE } from './planner-replay-agent.js';
import {
  type PlannerReplaySettings,
  envNumber,
  readPlannerReplaySettings,
} from './planner-replay-settings.js';

export interface ClusterReplaySettings {
  /**
   * The replay's settings, `eras` always ["modern"] (a 2025 session is pinned to one process, so only the
   * 2026-07-28 era spreads one agent's calls over several). `sessions`: BENCH_CLUSTER_SESSIONS, default 12;
   * `concurrency` (sessions at a time, each three runs side by side): BENCH_CLUSTER_CONCURRENCY, default 1 (two
   * at a time put six busy threads on a 2-core machine, and the scheduler's share then falls hardest on the thread
   * that holds three hosts);
   * `variants`: BENCH_CLUSTER_VARIANTS, names comma-separated, default "in order,predictable,moderate".
   */
  replay: PlannerReplaySettings;
  /** The Redis the `three` mode's hosts share. BENCH_REDIS_URL, default redis://127.0.0.1:6379. */
  redisUrl: string;
  /** Hosts in the `three` mode. BENCH_CLUSTER_PROCESSES, default 3. */
  processes: number;
}

/** The variants the cluster replay can run: those where the planner saves something to share. */
const RULES = [IN_ORDER, PREDICTABLE, MODERATE];

function envVariants(name: string): PlannerReplaySettings['variants'] {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return [...RULES];
  const names = text.split(',').map((rule) => rule.trim());
  const rules = names.map((rule) => RULES.find((known) => known.name === rule));
  if (rules.some((rule) => rule === undefined) || new Set(names).size !== names.length)
    throw new Error(
      `${name} must list variants among ${RULES.map((rule) => `"${rule.name}"`).join(', ')}, comma-separated, got "${text}"`,
    );
  return rules.filter((rule) => rule !== undefined);
}

export function readClusterReplaySettings(): ClusterReplaySettings {
  const positiveInt = (n: number) => Number.isInteger(n) && n >= 1;
  return {
    replay: {
      ...readPlannerReplaySettings(),
      eras: ['modern'],
      sessions: envNumber('BENCH_CLUSTER_SESSIONS', 12, positiveInt, 'a positive integer'),
      concurrency: envNumber('BENCH_CLUSTER_CONCURRENCY', 1, positiveInt, 'a positive integer'),
      variants: envVariants('BENCH_CLUSTER_VARIANTS'),
    },
    redisUrl: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
    processes: envNumber(
      'BENCH_CLUSTER_PROCESSES',
      3,
      (n) => Number.isInteger(n) && n >= 2,
      'an integer ≥ 2',
    ),
  };
}
