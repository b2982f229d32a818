// The planner replay: generated agent sessions run through a real MCP client against Foresight with the
// planner off and on, in each protocol era, each session's two runs side by side (the one to start first
// alternating), each run on its own worker thread with its own host and its own upstream and request log, with
// think time and injected upstream latency, all times scaled.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type SessionPlan,
  type SessionScript,
  generateSessions,
  loadCorpusChain,
  sessionStatistics,
} from './corpus-sessions.js';
import type { BenchEra } from './endpoint.js';
import type { AgentWorld, ChoiceRule } from './planner-replay-agent.js';
import { ISSUES, MERGE_REQUESTS } from './planner-replay-gitlab.js';
import { sleep } from './planner-replay-plugins.js';
import { ReplayWorker } from './planner-replay-pool.js';
import {
  type Mode,
  type PlannerReplayReport,
  type SessionRun,
  type VariantReport,
  variantReport,
} from './planner-replay-report.js';
import type { RunJob } from './planner-replay-run.js';
import { type PlannerReplaySettings, readPlannerReplaySettings } from './planner-replay-settings.js';
import { createReplayWorkspace } from './planner-replay-workspace.js';

export { formatPlannerReplayReport } from './planner-replay-format.js';
export type { PlannerReplayReport } from './planner-replay-report.js';
export { readPlannerReplaySettings, type PlannerReplaySettings } from './planner-replay-settings.js';

interface Slot {
  /** Two workers: one per mode of the session in hand. */
  workers: [ReplayWorker, ReplayWorker];
}

export interface VariantContext {
  settings: PlannerReplaySettings;
  dir: string;
  workspaceRoot: string;
  world: AgentWorld;
  log(line: string): void;
  /** The state the planner learned in training, each measured run with it on starting from a copy. */
  trained?: string;
}

/**
 * Training: sessions of another seed, the planner on, all sharing one state file (runs merge what they
 * learned on save), so the measured runs start from what a user's planner has learned before. It runs once,
 * in the first era: what the planner learns is what the agent does, the same in every era, so the eras'
 * measured runs all start from the same state.
 */
export async function train(
  workers: readonly ReplayWorker[],
  context: VariantContext,
  scripts: readonly SessionScript[],
  rule: ChoiceRule,
): Promise<string> {
  const shared = join(context.dir, `trained-${rule.name.replaceAll(' ', '-')}.json`);
  let next = 0;
  const drain = async (worker: ReplayWorker) => {
    for (let script = scripts[next++]; script !== undefined; script = scripts[next++]) {
      const run = worker.run({
        script: { ...script, index: 1000 + script.index },
        rule,
        mode: 'on',
        era: context.settings.eras[0] ?? 'legacy',
        first: 'on',
        settings: context.settings,
        dir: context.dir,
        workspaceRoot: context.workspaceRoot,
        world: context.world,
        state: { shared },
      });
      await run.ready;
      run.start();
      await run.done;
    }
  };
  await Promise.all(workers.map(drain));
  return shared;
}

/**
 * A session's off and on runs side by side, so both meet the same load on the machine. Once both hosts are
 * up, the one to go first starts, the other half a mean think later (so their calls interleave rather than
 * land together): off first for even sessions, on first for odd ones.
 */
async function runPair(
  slot: Slot,
  context: VariantContext,
  script: SessionScript,
  era: BenchEra,
  rule: ChoiceRule,
): Promise<SessionRun[]> {
  const { settings } = context;
  const order: [Mode, Mode] = script.index % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
  const job = (mode: Mode): RunJob => ({
    script,
    rule,
    mode,
    era,
    first: order[0],
    settings,
    dir: context.dir,
    workspaceRoot: context.workspaceRoot,
    world: context.world,
    ...(mode === 'on' && context.trained ? { state: { startFrom: context.trained } } : {}),
  });
  const runs = [slot.workers[0].run(job(order[0])), slot.workers[1].run(job(order[1]))] as const;
  await Promise.all(runs.map((run) => run.ready));
  const staggerMs = ((settings.thinkMs[0] + settings.thinkMs[1]) / 4) * settings.timeScale;
  runs[0].start();
  await sleep(staggerMs);
  runs[1].start();
  return Promise.all(runs.map((run) => run.done));
}

/** Every session in every era, one report per era. */
async function runVariant(
  slots: readonly Slot[],
  context: VariantContext,
  scripts: readonly SessionScript[],
  rule: ChoiceRule,
): Promise<{ reports: VariantReport[]; runs: SessionRun[] }> {
  const { eras } = context.settings;
  // Session by session with the eras in turn (the first alternating), so both eras meet the machine's load
  // alike rather than one era the quiet start and the other the busy end.
  const queue = scripts.flatMap((script) =>
    (script.index % 2 === 0 ? eras : [...eras].reverse()).map((era) => ({ script, era })),
  );
  const runs: SessionRun[] = [];
  let next = 0;
  const drain = async (slot: Slot) => {
    for (let item = queue[next++]; item !== undefined; item = queue[next++]) {
      const { script, era } = item;
      const pair = await runPair(slot, context, script, era, rule);
      runs.push(...pair);
      const wait = (run: SessionRun) => run.calls.reduce((total, c) => total + c.waitMs, 0).toFixed(0);
      context.log(
        `  session ${script.index} (${script.kind}, ${script.steps.length} calls, ${era}), wait: ` +
          pair.map((run) => `${run.mode} ${wait(run)} ms`).join(', '),
      );
    }
  };
  await Promise.all(slots.map(drain));
  return {
    reports: eras.map((era) =>
      variantReport(
        rule,
        era,
        runs.filter((run) => run.era === era),
      ),
    ),
    runs,
  };
}

/** What every replay of the generated sessions starts from: the scripts, the workspace tree, a temp dir, the agent's world. */
export async function prepareReplay(
  settings: PlannerReplaySettings,
  dirPrefix: string,
): Promise<{
  chain: ReturnType<typeof loadCorpusChain>;
  scripts: ReturnType<typeof generateSessions>;
  /** What the planner learns from before each variant is measured (seed + 1); none without learning. */
  training: ReturnType<typeof generateSessions>;
  workspace: Awaited<ReturnType<typeof createReplayWorkspace>>;
  dir: string;
  world: AgentWorld;
}> {
  const plan: SessionPlan = {
    sessions: settings.sessions,
    seed: settings.seed,
    length: settings.sessionLength,
    thinkMs: settings.thinkMs,
  };
  const chain = loadCorpusChain();
  const scripts = generateSessions(chain, plan);
  const training =
    settings.learning && settings.trainingSessions > 0
      ? generateSessions(chain, { ...plan, sessions: settings.trainingSessions, seed: settings.seed + 1 })
      : [];
  const workspace = await createReplayWorkspace(settings.seed);
  const dir = await mkdtemp(join(tmpdir(), dirPrefix));
  const world: AgentWorld = {
    files: workspace.files,
    globPatterns: workspace.globPatterns,
    grepTargets: workspace.grepTargets,
    importsOf: workspace.importsOf,
    mergeRequests: MERGE_REQUESTS,
    issues: ISSUES,
  };
  return { chain, scripts, training, workspace, dir, world };
}

export async function measurePlannerReplay(
  settings: PlannerReplaySettings = readPlannerReplaySettings(),
  log: (line: string) => void = () => {},
): Promise<PlannerReplayReport> {
  const startedAt = performance.now();
  const { chain, scripts, training, workspace, dir, world } = await prepareReplay(
    settings,
    'foresight-replay-',
  );
  const context: VariantContext = { settings, dir, workspaceRoot: workspace.root, world, log };
  const workers: ReplayWorker[] = [];
  try {
    const slotCount = Math.min(settings.concurrency, scripts.length * settings.eras.length);
    log(`planner replay: starting ${slotCount * 2} worker threads (one per run in progress)`);
    const init = { settings, dir, workspaceRoot: workspace.root, world };
    const slots: Slot[] = Array.from({ length: slotCount }, () => {
      const pair: [ReplayWorker, ReplayWorker] = [new ReplayWorker(init), new ReplayWorker(init)];
      workers.push(...pair);
      return { workers: pair };
    });
    await Promise.all(workers.map((worker) => worker.warm));
    const variants: VariantReport[] = [];
    const traces: { rule: string; runs: SessionRun[] }[] = [];
    for (const rule of settings.variants) {
      if (training.length > 0) {
        log(
          `planner replay, ${rule.name}: training on ${training.length} sessions of seed ${settings.seed + 1}`,
        );
        context.trained = await train(workers, context, training, rule);
      }
      log(
        `planner replay, ${rule.name}: ${scripts.length} sessions × off/on × ${settings.eras.join('/')}, ` +
          `${slotCount} at a time`,
      );
      const { reports, runs } = await runVariant(slots, context, scripts, rule);
      variants.push(...reports);
      traces.push({ rule: rule.name, runs });
    }
    if (settings.traceFile) await writeFile(settings.traceFile, `${JSON.stringify(traces, null, 1)}\n`);
    const allRuns = traces.flatMap((trace) => trace.runs);
    return {
      settings: { ...settings, workspaceFiles: workspace.files.length },
      sessions: sessionStatistics(scripts),
      corpusKeptShare: Object.fromEntries(
        Object.entries(chain.keptShare).map(([state, share]) => [
          state,
          Math.round((share ?? 0) * 1000) / 1000,
        ]),
      ),
      variants,
      droppedPlannerKeys: [...new Set(allRuns.flatMap((run) => run.droppedKeys))],
      hostProblems: [...new Set(allRuns.flatMap((run) => run.problems))],
      runMs: performance.now() - startedAt,
    };
  } finally {
    await Promise.allSettled(workers.map((worker) => worker.close()));
    await workspace.remove();
    await rm(dir, { recursive: true, force: true });
  }
}
