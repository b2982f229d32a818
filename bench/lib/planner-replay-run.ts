// One run of the planner replay, as a worker thread does it: a session in one mode and one protocol era against
// its own GitLab (fresh data, counted and reference servers), its own host under test and its own reference host.
import { PerformanceObserver } from 'node:perf_hooks';
import { type SessionScript, WORKSPACE_PREFIX } from './corpus-sessions.js';
import type { BenchEra } from './endpoint.js';
import { type AgentWorld, type ChoiceRule, runAgent, runMeta } from './planner-replay-agent.js';
import { startReplayGitLab } from './planner-replay-gitlab.js';
import {
  type ClusterJob,
  type HostsUnderTest,
  singleHost,
  startClusterHosts,
} from './planner-replay-cluster-hosts.js';
import { type ReplayHostOptions, startReplayHost } from './planner-replay-host.js';
import { callKey, createCallLog, latencyFor, sleep } from './planner-replay-plugins.js';
import type { Mode, SessionRun } from './planner-replay-report.js';
import type { PlannerReplaySettings } from './planner-replay-settings.js';

/** Everything a worker needs for one run; plain data, posted from the main thread. */
export interface RunJob {
  script: SessionScript;
  rule: ChoiceRule;
  mode: Mode;
  /** The protocol era of both hosts' clients, so the off/on comparison stays within one era. */
  era: BenchEra;
  /** Which mode of this session starts first. */
  first: Mode;
  settings: PlannerReplaySettings;
  /** Temp dir for TOML and state files. */
  dir: string;
  workspaceRoot: string;
  world: AgentWorld;
  /**
   * The planner's state file for a run with it on: a training run shares one across runs (they merge on
   * save); a measured run starts from a copy of the trained one, so it learns from no other measured run.
   */
  state?: { shared: string } | { startFrom: string };
  /**
   * The cluster replay's `three` mode: the host under test is that many hosts in this worker, members of one
   * cluster on Redis, the agent's calls sent to them in turn. Absent: one host, no Redis.
   */
  cluster?: ClusterJob;
}

/** How long to wait for speculative calls still running after the last agent call. */
const QUIESCE_TIMEOUT_MS = 5000;
const METADATA_TIMEOUT_MS = 3000;

/** Polls until `busy()` is 0 or `timeoutMs` passes: speculative calls still running count toward the run. */
async function quiesce(busy: () => number, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (busy() > 0 && performance.now() < until) await sleep(5);
}

export interface RunHooks {
  /** Called once the hosts are up and the start-up reads are done. */
  ready(): void;
  /** Resolves when the agent may start. */
  start(): Promise<void>;
}

/** One session in one mode. Start-up reads (project metadata, the tool list) are left out of every count. */
export async function runSession(job: RunJob, hooks: RunHooks): Promise<SessionRun> {
  const { settings, script, mode } = job;
  const [low, high] = settings.latencyMs;
  const gitlab = await startReplayGitLab({
    seed: settings.seed,
    latencyMs: settings.latencyMs,
    timeScale: settings.timeScale,
  });
  const logs = { workspace: createCallLog(), gitlab: createCallLog() };
  const name = `${job.rule.name.replaceAll(' ', '-')}-s${script.index}-${mode}-${job.era}`;
  // One trace for the run: the reads checked on the reference host belong to the same agent run.
  const requestMeta = runMeta(name);
  const hosts: { close(): Promise<void> }[] = [];
  try {
    const options: ReplayHostOptions = {
      dir: job.dir,
      name,
      era: job.era,
      plannerEnabled: mode === 'on',
      learning: settings.learning,
      ...(mode === 'on' && settings.plannerToml ? { plannerToml: settings.plannerToml } : {}),
      ...(mode === 'on' && job.state ? { state: job.state } : {}),
      workspaceRoot: job.workspaceRoot,
      gitlabUrl: gitlab.counted.url,
      logs,
      workspaceLatencyMs: (tool, args) =>
        latencyFor(settings.seed, callKey(tool, args), low, high, settings.timeScale),
    };
    // Every member's plugins count into the same logs and ask the same GitLab: their counts are the sums.
    const tested: HostsUnderTest = job.cluster
      ? await startClusterHosts(options, job.cluster)
      : singleHost(await startReplayHost(options));
    hosts.push(tested);
    const reference = await startReplayHost({
      dir: job.dir,
      name: `${name}-reference`,
      era: job.era,
      plannerEnabled: false,
      learning: false,
      workspaceRoot: job.workspaceRoot,
      gitlabUrl: gitlab.reference.url,
    });
    hosts.push(reference);
    await gitlab.metadataLoaded(METADATA_TIMEOUT_MS);
    await Promise.all([
      ...tested.clients.map((client) => client.listTools({ _meta: requestMeta })),
      reference.client.listTools({ _meta: requestMeta }),
    ]);
    const before = {
      requests: gitlab.counted.requests.length,
      unmatched: gitlab.counted.unmatched.length,
      redisRoundTrips: tested.redisRoundTrips(),
    };
    hooks.ready();
    await hooks.start();
    const started = performance.now();
    const loop = performance.eventLoopUtilization();
    let gcMs = 0;
    const collections = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcMs += entry.duration;
    });
    collections.observe({ entryTypes: ['gc'] });
    const calls = await runAgent(script, {
      client: tested.client,
      reference: reference.client,
      world: job.world,
      rule: job.rule,
      timeScale: settings.timeScale,
      requestMeta,
      reachedPlugin: (tool) => {
        const local = tool.startsWith(`${WORKSPACE_PREFIX}__`)
          ? tool.slice(WORKSPACE_PREFIX.length + 2)
          : undefined;
        return local === undefined ? 0 : (logs.workspace.agentCalls[local] ?? 0);
      },
    });
    const wallMs = performance.now() - started;
    await quiesce(
      () => gitlab.inFlight() + logs.workspace.inFlight + logs.gitlab.inFlight,
      QUIESCE_TIMEOUT_MS,
    );
    const busyMs = performance.eventLoopUtilization(loop).active;
    collections.disconnect();
    const redisRoundTrips = tested.redisRoundTrips();
    await Promise.all(tested.clients.map((client) => client.close()));
    const stats = await tested.readStats();
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    const requests = gitlab.counted.requests.slice(before.requests);
    return {
      index: script.index,
      kind: script.kind,
      mode,
      era: job.era,
      first: job.first,
      calls,
      wallMs,
      busyMs,
      gcMs,
      upstream: {
        gitlabRequests: requests.length,
        gitlabWrites: requests.filter((r) => r.method !== 'GET').length,
        gitlabUnmatched: gitlab.counted.unmatched.length - before.unmatched,
        workspaceCalls: logs.workspace.calls,
      },
      speculative: {
        calls: logs.workspace.speculative + logs.gitlab.speculative,
        writes: logs.workspace.speculativeWrites + logs.gitlab.speculativeWrites,
        list: [...logs.workspace.speculativeCalls, ...logs.gitlab.speculativeCalls],
      },
      stats,
      ...(job.cluster ? { processes: job.cluster.processes } : {}),
      ...(redisRoundTrips === undefined || before.redisRoundTrips === undefined
        ? {}
        : { redisRoundTrips: redisRoundTrips - before.redisRoundTrips }),
      droppedKeys: [...new Set([...tested.droppedKeys, ...reference.droppedKeys])],
      problems: [...new Set([...tested.problems, ...reference.logs.problems])],
    };
  } finally {
    await Promise.allSettled(hosts.map((host) => host.close()));
    await gitlab.close();
  }
}

/**
 * One unmeasured pass over every kind of call in each era the replay runs, so no run pays for module loading,
 * the JIT and a cold file cache (nor, in the modern era, for the first HTTP listener and fetch); a worker does
 * it once before its first run.
 */
export async function warmUp(
  settings: PlannerReplaySettings,
  dir: string,
  workspaceRoot: string,
  world: AgentWorld,
): Promise<void> {
  for (const era of settings.eras) await warmUpEra(settings, dir, workspaceRoot, world, era);
}

async function warmUpEra(
  settings: PlannerReplaySettings,
  dir: string,
  workspaceRoot: string,
  world: AgentWorld,
  era: BenchEra,
): Promise<void> {
  const gitlab = await startReplayGitLab({
    seed: settings.seed,
    latencyMs: settings.latencyMs,
    timeScale: settings.timeScale,
  });
  const host = await startReplayHost({
    dir,
    name: `warm-up-${era}-${Math.random().toString(36).slice(2)}`,
    era,
    plannerEnabled: false,
    learning: false,
    workspaceRoot,
    gitlabUrl: gitlab.reference.url,
  });
  try {
    await host.client.listTools();
    const calls: [string, Record<string, unknown>][] = [
      ['workspace__glob', { pattern: world.globPatterns[0] ?? '**/*.ts' }],
      ['workspace__grep', { pattern: world.grepTargets[0]?.pattern ?? 'TODO' }],
      ['workspace__read_file', { path: world.files[0] ?? 'README.md' }],
      ['gl__get_merge_requests', {}],
      ['gl__get_merge_request_discussions', { key: '!1' }],
      ['gl__get_issues', {}],
      ['gl__get_issue', { key: '#1' }],
      ['gl__get_pipeline', {}],
    ];
    for (const [name, args] of calls) await host.client.callTool({ name, arguments: args });
  } finally {
    await host.close();
    await gitlab.close();
  }
}
