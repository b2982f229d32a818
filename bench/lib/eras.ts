// The eras bench: tools/call echo against a raw SDK v2 server and Foresight side by side, in 8 cells
// ({stdio, Streamable HTTP} × {2026-07-28, 2025-11-25} × {sequential, calls in flight}). Each transport × era
// starts one pair of servers and measures its two cells on it, each after its own warm-up.
import type { BenchEra, Endpoint } from './endpoint.js';
import { type ErasCell, type ErasReport, cellVerdicts, erasVersions } from './eras-report.js';
import { type PairStarter, startBaseline, startForesight, startRaw } from './eras-servers.js';
import {
  ERAS,
  type ErasBenchSettings,
  TRANSPORTS,
  type Transport,
  cellId,
  selected,
} from './eras-settings.js';
import { runCallRounds } from './measure.js';
import { callRatios, callSide } from './report.js';
import type { BenchSettings } from './settings.js';
import type { BenchWorkspace } from './workspace.js';

type Log = (line: string) => void;

const TOOL = 'echo__echo';

/** The version both sides negotiated; a cell whose sides disagree would compare two protocols. */
function negotiatedVersion(raw: Endpoint, foresight: Endpoint): string {
  const versions = [raw, foresight].map((side) => side.client.getNegotiatedProtocolVersion() ?? 'unknown');
  if (versions[0] !== versions[1])
    throw new Error(`the sides negotiated different versions: ${versions.join(' and ')}`);
  return versions[0] ?? 'unknown';
}

/** Starts the raw server and Foresight for one transport and era, measures the cells selected, stops both. */
async function measurePair(
  starter: PairStarter,
  settings: ErasBenchSettings,
  transport: Transport,
  era: BenchEra,
  log: Log,
): Promise<ErasCell[]> {
  const levels = [1, settings.inFlight].filter(
    (inFlight, i, all) => all.indexOf(inFlight) === i && selected(settings, cellId(transport, era, inFlight)),
  );
  if (levels.length === 0) return [];
  const started: Endpoint[] = [];
  try {
    const raw =
      settings.baselineCli === undefined
        ? await startRaw(starter, transport, era, 'A raw v2 Server')
        : await startBaseline(starter, settings.baselineCli, transport, era);
    started.push(raw);
    const foresight = await startForesight(starter, transport, era, 'B Foresight');
    started.push(foresight);
    const protocolVersion = negotiatedVersion(raw, foresight);
    const calls = transport === 'stdio' ? settings.stdioCalls : settings.httpCalls;
    const cells: ErasCell[] = [];
    for (const inFlight of levels) {
      const id = cellId(transport, era, inFlight);
      log(`eras ${id} (${protocolVersion}): ${settings.warmupCalls} warm-up + ${settings.rounds} × ${calls}`);
      const samples = await runCallRounds(
        { endpoint: raw, tool: TOOL },
        { endpoint: foresight, tool: TOOL },
        {
          rounds: settings.rounds,
          calls,
          warmupCalls: settings.warmupCalls,
          inFlight,
          onRound: (round, msA, msB) =>
            log(
              `eras ${id} round ${round + 1}/${settings.rounds}: ` +
                `raw ${msA.toFixed(0)} ms, Foresight ${msB.toFixed(0)} ms`,
            ),
        },
      );
      const rawSide = callSide(raw.label, samples.a, raw.connectMs);
      const foresightSide = callSide(foresight.label, samples.b, foresight.connectMs);
      const ratios = callRatios(rawSide, foresightSide);
      cells.push({
        id,
        transport,
        era,
        protocolVersion,
        inFlight,
        callsPerRound: calls,
        raw: rawSide,
        foresight: foresightSide,
        ...ratios,
        ...cellVerdicts(ratios, settings.targets),
      });
    }
    return cells;
  } finally {
    // stdio servers exit when their stdin closes, HTTP ones on SIGTERM; both write their CPU profiles then.
    await Promise.allSettled(started.map((endpoint) => endpoint.close()));
  }
}

export async function measureEras(
  workspace: BenchWorkspace,
  bench: BenchSettings,
  settings: ErasBenchSettings,
  log: Log,
): Promise<ErasReport> {
  const cells: ErasCell[] = [];
  for (const transport of TRANSPORTS) {
    for (const era of ERAS) {
      // A config per pair: each Foresight learns (planner state) from its own calls only.
      const config = await workspace.writeConfig(`foresight-eras-${transport}-${era}.toml`, ['echo'], 1);
      const starter: PairStarter = { workspace, settings: bench, config };
      cells.push(...(await measurePair(starter, settings, transport, era, log)));
    }
  }
  if (cells.length === 0) throw new Error(`BENCH_ERAS_CELLS selects no cell: ${settings.cells.join(',')}`);
  return { settings, versions: erasVersions(), foresightCli: bench.foresightCli, cells };
}
