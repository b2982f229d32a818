// The planner replay across a cluster (issue 21): each generated session replayed three times side by side in the
// 2026-07-28 era, the planner off (the reference "saved" is measured from), on with one host, and on with three
// hosts sharing one Redis, the agent sending call i to host i % 3. Each run has its own worker thread; the three
// hosts of the cluster run share theirs (see docs/benchmarks.md, "Planner replay across a cluster").
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { probeRedis } from '../../src/cluster/index.js';
import { redisEndpoint } from '../../src/config/index.js';
import type { SessionScript } from './corpus-sessions.js';
import type { ChoiceRule } from './planner-replay-agent.js';
import {
  type ClusterMode,
  type ClusterReplayReport,
  type ClusterVariantReport,
  clusterVariantReport,
} from './planner-replay-cluster-report.js';
import type { ClusterReplaySettings } from './planner-replay-cluster-settings.js';
import { sleep } from './planner-replay-plugins.js';
import { ReplayWorker } from './planner-replay-pool.js';
import type { SessionRun } from './planner-replay-report.js';
import type { RunJob } from './planner-replay-run.js';
import { type VariantContext, prepareReplay, train } from './planner-replay.js';

export { formatClusterReplayReport, type ClusterReplayReport } from './planner-replay-cluster-report.js';
export { readClusterReplaySettings, type ClusterReplaySettings } from './planner-replay-cluster-settings.js';

const MODES: readonly ClusterMode[] = ['off', 'single', 'three'];

/** Each key prefix is the run's own, so no run reads what another stored; its keys are deleted after it. */
const KEY_PREFIX_ROOT = 'foresight-bench-cluster';

/**
 * A session's three runs side by side, so all meet the same load. Once every host is up they start a third of a
 * mean think apart (their calls interleave rather than land together), the first rotating with the session.
 */
async function runTriple(
  workers: readonly ReplayWorker[],
  context: VariantContext,
  cluster: ClusterReplaySettings,
  script: SessionScript,
  rule: ChoiceRule,
): Promise<SessionRun[]> {
  const { settings } = context;
  const shift = script.index % MODES.length;
  const order = [...MODES.slice(shift), ...MODES.slice(0, shift)] as ClusterMode[];
  const job = (mode: ClusterMode): RunJob => ({
    script,
    rule,
    mode: mode === 'off' ? 'off' : 'on',
    era: 'modern',
    first: order[0] === 'off' ? 'off' : 'on',
    settings,
    dir: context.dir,
    workspaceRoot: context.workspaceRoot,
    world: context.world,
    ...(mode !== 'off' && context.trained ? { state: { startFrom: context.trained } } : {}),
    ...(mode === 'three'
      ? {
          cluster: {
            redisUrl: cluster.redisUrl,
            keyPrefix: `${KEY_PREFIX_ROOT}:${randomUUID()}:`,
            processes: cluster.processes,
          },
        }
      : {}),
  });
  const runs = order.map((mode, i) => (workers[i] as ReplayWorker).run(job(mode)));
  await Promise.all(runs.map((run) => run.ready));
  const staggerMs = ((settings.thinkMs[0] + settings.thinkMs[1]) / 2 / MODES.length) * settings.timeScale;
  for (const [i, run] of runs.entries()) {
    if (i > 0) await sleep(staggerMs);
    run.start();
  }
  return Promise.all(runs.map((run) => run.done));
}

async function runVariant(
  slots: readonly ReplayWorker[][],
  context: VariantContext,
  cluster: ClusterReplaySettings,
  scripts: readonly SessionScript[],
  rule: ChoiceRule,
): Promise<{ report: ClusterVariantReport; runs: SessionRun[] }> {
  const runs: SessionRun[] = [];
  let next = 0;
  const drain = async (slot: readonly ReplayWorker[]) => {
    for (let script = scripts[next++]; script !== undefined; script = scripts[next++]) {
      const triple = await runTriple(slot, context, cluster, script, rule);
      runs.push(...triple);
      const wait = (run: SessionRun) => run.calls.reduce((total, c) => total + c.waitMs, 0).toFixed(0);
      const name = (run: SessionRun) =>
        run.mode === 'off' ? 'off' : run.processes === undefined ? 'single' : 'three';
      context.log(
        `  session ${script.index} (${script.kind}, ${script.steps.length} calls), wait: ` +
          triple.map((run) => `${name(run)} ${wait(run)} ms`).join(', '),
      );
    }
  };
  await Promise.all(slots.map(drain));
  return { report: clusterVariantReport(rule, runs), runs };
}

export async function measureClusterReplay(
  cluster: ClusterReplaySettings,
  log: (line: string) => void = () => {},
): Promise<ClusterReplayReport> {
  const startedAt = performance.now();
  const settings = cluster.replay;
  const probe = await probeRedis(cluster.redisUrl);
  if (!probe.ok)
    throw new Error(
      `the cluster replay needs Redis: unreachable at ${redisEndpoint(cluster.redisUrl)} (${probe.reason}); ` +
        'start one or set BENCH_REDIS_URL',
    );
  const { scripts, training, workspace, dir, world } = await prepareReplay(
    settings,
    'foresight-cluster-replay-',
  );
  const context: VariantContext = { settings, dir, workspaceRoot: workspace.root, world, log };
  const workers: ReplayWorker[] = [];
  try {
    const slotCount = Math.min(settings.concurrency, scripts.length);
    log(`cluster replay: starting ${slotCount * MODES.length} worker threads (one per run in progress)`);
    const init = { settings, dir, workspaceRoot: workspace.root, world };
    const slots = Array.from({ length: slotCount }, () => {
      const slot = MODES.map(() => new ReplayWorker(init));
      workers.push(...slot);
      return slot;
    });
    await Promise.all(workers.map((worker) => worker.warm));
    const variants: ClusterVariantReport[] = [];
    const problems = new Set<string>();
    const traces: { rule: string; runs: SessionRun[] }[] = [];
    for (const rule of settings.variants) {
      if (training.length > 0) {
        log(
          `cluster replay, ${rule.name}: training on ${training.length} sessions of seed ${settings.seed + 1}`,
        );
        context.trained = await train(workers, context, training, rule);
      }
      log(
        `cluster replay, ${rule.name}: ${scripts.length} sessions × off/single/${cluster.processes} hosts, ` +
          `${slotCount} at a time`,
      );
      const { report, runs } = await runVariant(slots, context, cluster, scripts, rule);
      variants.push(report);
      traces.push({ rule: rule.name, runs });
      for (const line of runs.flatMap((run) => run.problems)) problems.add(line);
    }
    // BENCH_PLANNER_TRACE: every run's call records (a run of the cluster has `processes` set).
    if (settings.traceFile) await writeFile(settings.traceFile, `${JSON.stringify(traces, null, 1)}\n`);
    return {
      settings: {
        ...settings,
        variants: settings.variants.map((rule) => rule.name),
        processes: cluster.processes,
        redis: redisEndpoint(cluster.redisUrl),
        workspaceFiles: workspace.files.length,
      },
      variants,
      hostProblems: [...problems],
      runMs: performance.now() - startedAt,
    };
  } finally {
    await Promise.allSettled(workers.map((worker) => worker.close()));
    await workspace.remove();
    await rm(dir, { recursive: true, force: true });
  }
}
