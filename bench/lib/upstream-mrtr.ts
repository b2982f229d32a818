// The bridged MRTR round trip: a tool that asks one elicitation per call, called on a 2026-07-28 SDK v2 server
// directly and through Foresight over stdio (by a 2026-07-28 client, which fulfils the input_required result
// and retries; and by a 2025 client, which Foresight asks with elicitation/create), sides rotating.
import {
  type BenchClientOptions,
  type BenchEra,
  type Endpoint,
  MODERN_VERSION,
  startEndpoint,
} from './endpoint.js';
import { runCallRotation } from './measure.js';
import { callSide } from './report.js';
import { nodeFlags } from './settings.js';
import {
  type MrtrReport,
  type MrtrSide,
  type MrtrSideKey,
  compareMrtrSides,
} from './upstream-mrtr-report.js';
import { type SideStarter, startForesightCli, waitForTool, writeUpstreamConfig } from './upstream-servers.js';
import type { UpstreamBenchSettings } from './upstream-settings.js';

type Log = (line: string) => void;

/** The table Foresight mounts the asking server under; its tool is published as `mr__ask`. */
const MR_TABLE = 'mr';

interface MrtrSideSpec {
  key: MrtrSideKey;
  label: string;
  era: BenchEra;
  tool: string;
  start(starter: SideStarter, label: string, client: BenchClientOptions): Promise<Endpoint>;
}

/** Foresight over stdio mounting the asking server, pinned to 2026-07-28 so that it answers input_required. */
async function startForesightAsking(
  starter: SideStarter,
  label: string,
  era: BenchEra,
  client: BenchClientOptions,
): Promise<Endpoint> {
  const name = `mrtr-foresight-${era}`;
  const command = [process.execPath, starter.workspace.askServer];
  const mount = { table: MR_TABLE, command, protocol: MODERN_VERSION };
  const config = await writeUpstreamConfig(starter.workspace, name, [mount]);
  return startForesightCli(starter, label, name, config, era, client);
}

const SIDES: readonly MrtrSideSpec[] = [
  {
    key: 'direct',
    label: 'm direct (modern)',
    era: 'modern',
    tool: 'ask',
    start: ({ workspace, settings }, label, client) =>
      startEndpoint(
        label,
        [...nodeFlags(settings, 'mrtr-direct'), workspace.askServer],
        workspace.dir,
        'modern',
        client,
      ),
  },
  {
    key: 'foresight',
    label: 'm Foresight (modern)',
    era: 'modern',
    tool: `${MR_TABLE}__ask`,
    start: (starter, label, client) => startForesightAsking(starter, label, 'modern', client),
  },
  {
    key: 'foresightLegacy',
    label: 'm Foresight (legacy)',
    era: 'legacy',
    tool: `${MR_TABLE}__ask`,
    start: (starter, label, client) => startForesightAsking(starter, label, 'legacy', client),
  },
];

export async function measureMrtr(
  starter: SideStarter,
  settings: UpstreamBenchSettings['mrtr'],
  log: Log,
): Promise<MrtrReport> {
  log(
    `upstream proxy: MRTR round trip, ${settings.warmupCalls} warm-up + ${settings.rounds} × ` +
      `${settings.calls} calls per side, sides rotating`,
  );
  const started: { spec: MrtrSideSpec; endpoint: Endpoint; asked: { count: number } }[] = [];
  try {
    for (const spec of SIDES) {
      const asked = { count: 0 };
      const endpoint = await spec.start(starter, spec.label, { elicitation: { asked } });
      started.push({ spec, endpoint, asked });
      await waitForTool(endpoint, spec.tool);
    }
    const samples = await runCallRotation(
      started.map(({ spec, endpoint }) => ({ endpoint, tool: spec.tool })),
      {
        ...settings,
        onRound: (round, roundMs) =>
          log(
            `MRTR round ${round + 1}/${settings.rounds}: ` +
              started
                .map(({ spec }, i) => `${spec.key} ${(roundMs[i] ?? Number.NaN).toFixed(0)}`)
                .join(', ') +
              ' ms',
          ),
      },
    );
    const callsPerSide = settings.warmupCalls + settings.rounds * settings.calls;
    const sides: Omit<MrtrSide, 'extraP50Ms' | 'extraP90Ms'>[] = started.map(
      ({ spec, endpoint, asked }, i) => {
        const sideSamples = samples[i];
        if (sideSamples === undefined) throw new Error(`no samples for ${spec.label}`);
        return {
          ...callSide(spec.label, sideSamples, endpoint.connectMs),
          key: spec.key,
          era: spec.era,
          protocolVersion: endpoint.client.getNegotiatedProtocolVersion() ?? 'unknown',
          elicitationsPerCall: asked.count / callsPerSide,
        };
      },
    );
    return compareMrtrSides(settings, sides);
  } finally {
    await Promise.allSettled(started.map(({ endpoint }) => endpoint.close()));
  }
}
