// The upstream proxy bench: what a hop through a proxy costs on server-everything's echo, every side side by
// side in one rotation, and whether a hung upstream delays Foresight's tools/list.
import { addCpuNs, processCpuNs } from './cpu.js';
import type { BenchEra, Endpoint } from './endpoint.js';
import { type CallTarget, runCallRotation, runListRounds } from './measure.js';
import { findDescendant } from './process-tree.js';
import { measureMrtr } from './upstream-mrtr.js';
import { callSide, listSide } from './report.js';
import { median } from './stats.js';
import {
  EVERYTHING_ECHO,
  EVERYTHING_NEEDLE,
  FORESIGHT_ECHO_TOOL,
  HUNG_NEEDLE,
  type SideStarter,
  startBridge,
  startBridgeV1,
  startDirect,
  startForesightHttp,
  startForesightStdio,
  startMcpProxy,
  waitForTool,
} from './upstream-servers.js';
import {
  type HungListingReport,
  type UpstreamCallSide,
  type UpstreamSideKey,
  type UpstreamStartSample,
  compareUpstreamSides,
  type UpstreamProxyReport,
} from './upstream-report.js';
import type { UpstreamBenchSettings } from './upstream-settings.js';

const LIST_WARMUP = 5;

interface SideSpec {
  key: UpstreamSideKey;
  label: string;
  tool: string;
  /** The client eras its server speaks: server-everything (side a) and the SDK 1.x bridge are 2025 only. */
  eras: readonly BenchEra[];
  start(starter: SideStarter, label: string, era: BenchEra): Promise<Endpoint>;
}

const BOTH: readonly BenchEra[] = ['legacy', 'modern'];
const LEGACY: readonly BenchEra[] = ['legacy'];

/** The kinds of side in rotation order; the planner-off and SDK 1.x bridge sides only when asked for. */
function sideSpecs(settings: UpstreamBenchSettings): SideSpec[] {
  const optional = (wanted: boolean, spec: SideSpec) => (wanted ? [spec] : []);
  return [
    { key: 'direct', label: 'a direct', tool: 'echo', eras: LEGACY, start: startDirect },
    ...optional(settings.bridgeV1Side, {
      key: 'bridgeV1',
      label: 'b naive bridge, SDK 1.x',
      tool: 'echo',
      eras: LEGACY,
      start: startBridgeV1,
    }),
    { key: 'bridge', label: 'b naive bridge', tool: 'echo', eras: BOTH, start: startBridge },
    {
      key: 'foresight',
      label: 'c Foresight',
      tool: FORESIGHT_ECHO_TOOL,
      eras: BOTH,
      start: (starter, label, era) =>
        startForesightStdio(starter, label, `upstream-foresight-${era}`, { era }),
    },
    ...optional(settings.plannerOffSide, {
      key: 'foresightPlannerOff',
      label: 'c Foresight, planner off',
      tool: FORESIGHT_ECHO_TOOL,
      eras: BOTH,
      start: (starter, label, era) =>
        startForesightStdio(starter, label, `upstream-foresight-planner-off-${era}`, {
          era,
          plannerOff: true,
        }),
    }),
    {
      key: 'foresightHttp',
      label: 'd Foresight HTTP',
      tool: FORESIGHT_ECHO_TOOL,
      eras: BOTH,
      start: (starter, label, era) =>
        startForesightHttp(starter, label, `upstream-foresight-http-${era}`, era),
    },
    { key: 'mcpProxy', label: 'd mcp-proxy HTTP', tool: 'echo', eras: BOTH, start: startMcpProxy },
  ];
}

/** One measured side: a kind of side in one client era. */
interface EraSide {
  spec: SideSpec;
  era: BenchEra;
  label: string;
}

/** Every side in rotation order: the 2025-11-25 sides, then the 2026-07-28 ones. */
function eraSides(settings: UpstreamBenchSettings): EraSide[] {
  const specs = sideSpecs(settings);
  return settings.eras.flatMap((era) =>
    specs
      .filter((spec) => spec.eras.includes(era))
      .map((spec) => ({ spec, era, label: `${spec.label} (${era})` })),
  );
}

type Log = (line: string) => void;

/** Starts every side, runs the call rotation, and reports each side with the upstream's own CPU per call. */
async function measureCalls(
  starter: SideStarter,
  settings: UpstreamBenchSettings,
  log: Log,
): Promise<UpstreamCallSide[]> {
  const started: (EraSide & { endpoint: Endpoint; toolListedMs: number })[] = [];
  try {
    for (const side of eraSides(settings)) {
      const endpoint = await side.spec.start(starter, side.label, side.era);
      const running = { ...side, endpoint, toolListedMs: 0 };
      started.push(running);
      running.toolListedMs = await waitForTool(endpoint, side.spec.tool);
    }
    // server-everything's own process on each side: the endpoint itself when called directly, else the
    // proxy's child; its CPU per call shows whether a proxy makes the upstream work more.
    const upstreamPids = started.map(({ spec, endpoint }) =>
      spec.key === 'direct' ? endpoint.pid : findDescendant(endpoint.pid, EVERYTHING_NEEDLE),
    );
    const targets: CallTarget[] = started.map(({ spec, endpoint }) => ({
      endpoint,
      tool: spec.tool,
      echo: EVERYTHING_ECHO,
    }));
    let upstreamCpuBefore: (number | undefined)[] = [];
    const samples = await runCallRotation(targets, {
      rounds: settings.rounds,
      calls: settings.calls,
      warmupCalls: settings.warmupCalls,
      onRoundsStart: () => {
        upstreamCpuBefore = upstreamPids.map(processCpuNs);
      },
      onRound: (round, roundMs) =>
        log(
          `round ${round + 1}/${settings.rounds}: ` +
            started
              .map(({ spec, era }, i) => `${spec.key}/${era} ${(roundMs[i] ?? Number.NaN).toFixed(0)}`)
              .join(', ') +
            ' ms',
        ),
    });
    const upstreamCpuAfter = upstreamPids.map(processCpuNs);
    return started.map(({ spec, era, label, endpoint, toolListedMs }, i) => {
      const sideSamples = samples[i];
      if (sideSamples === undefined) throw new Error(`no samples for ${label}`);
      const report = callSide(label, sideSamples, endpoint.connectMs);
      const upstreamCpuNs = addCpuNs(0, upstreamCpuBefore[i], upstreamCpuAfter[i]);
      return {
        ...report,
        key: spec.key,
        era,
        protocolVersion: endpoint.client.getNegotiatedProtocolVersion() ?? 'unknown',
        toolListedMs,
        upstreamCpuUsPerCall: upstreamCpuNs === undefined ? undefined : upstreamCpuNs / 1000 / report.calls,
      };
    });
  } finally {
    await Promise.allSettled(started.map(({ endpoint }) => endpoint.close()));
  }
}

/** One fresh start: spawn + initialize, the first tools/list right after, and when the echo tool is listed. */
async function startForListing(
  starter: SideStarter,
  label: string,
  hung: boolean,
): Promise<{ endpoint: Endpoint; sample: UpstreamStartSample }> {
  const name = hung ? 'upstream-listing-hung' : 'upstream-listing';
  const endpoint = await startForesightStdio(starter, label, name, { hung });
  try {
    const start = performance.now();
    await endpoint.client.listTools();
    const firstListMs = performance.now() - start;
    const echoListedMs = firstListMs + (await waitForTool(endpoint, FORESIGHT_ECHO_TOOL));
    return { endpoint, sample: { connectMs: endpoint.connectMs, firstListMs, echoListedMs } };
  } catch (error) {
    await endpoint.close();
    throw error;
  }
}

/**
 * Foresight mounting server-everything, with and without a second upstream that never answers: fresh starts
 * (alternating which goes first) for the first listing, then interleaved tools/list on the last pair.
 */
async function measureHungListing(
  starter: SideStarter,
  settings: UpstreamBenchSettings,
  log: Log,
): Promise<HungListingReport> {
  const labels = { without: 'Foresight, ev only', with: 'Foresight, ev + hung' };
  const starts = { without: [] as UpstreamStartSample[], with: [] as UpstreamStartSample[] };
  let last: { without?: Endpoint; with?: Endpoint } = {};
  try {
    for (let i = 0; i < settings.hungStarts; i += 1) {
      await Promise.allSettled([last.without?.close(), last.with?.close()]);
      last = {};
      const order = i % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const);
      for (const key of order) {
        const { endpoint, sample } = await startForListing(starter, labels[key], key === 'with');
        last[key] = endpoint;
        starts[key].push(sample);
      }
      log(
        `hung upstream, start ${i + 1}/${settings.hungStarts}: first tools/list ` +
          `${starts.without.at(-1)?.firstListMs.toFixed(1)} ms without, ${starts.with.at(-1)?.firstListMs.toFixed(1)} ms with`,
      );
    }
    const { without, with: withHung } = last;
    if (!without || !withHung) throw new Error('BENCH_UPSTREAM_HUNG_STARTS must be at least 1');
    const lists = await runListRounds(without, withHung, settings.listCalls, LIST_WARMUP);
    // Still there, never having answered: what was measured is a hung upstream, not one that failed fast.
    const hungRunning = findDescendant(withHung.pid, HUNG_NEEDLE) !== undefined;
    const sorted = (names: readonly string[]) => JSON.stringify([...names].sort());
    const sides = { without: listSide(labels.without, lists.a), with: listSide(labels.with, lists.b) };
    const firstList = (samples: UpstreamStartSample[]) => median(samples.map((s) => s.firstListMs));
    return {
      starts,
      list: sides,
      medianListRatio: sides.with.latency.p50Ms / sides.without.latency.p50Ms,
      medianFirstListRatio: firstList(starts.with) / firstList(starts.without),
      sameToolNames: sorted(lists.a.names) === sorted(lists.b.names),
      hungRunning,
    };
  } finally {
    await Promise.allSettled([last.without?.close(), last.with?.close()]);
  }
}

export async function measureUpstreamProxy(
  starter: SideStarter,
  settings: UpstreamBenchSettings,
  log: Log,
): Promise<UpstreamProxyReport> {
  log(
    `upstream proxy: server-everything echo, ${settings.warmupCalls} warm-up + ${settings.rounds} × ` +
      `${settings.calls} calls per side, sides rotating, client eras ${settings.eras.join(' and ')}`,
  );
  const sides = await measureCalls(starter, settings, log);
  log(
    `upstream proxy: tools/list with a hung upstream, ${settings.hungStarts} starts + ${settings.listCalls} lists`,
  );
  const hungListing = await measureHungListing(starter, settings, log);
  const mrtr = await measureMrtr(starter, settings.mrtr, log);
  return compareUpstreamSides(settings, sides, hungListing, mrtr);
}
