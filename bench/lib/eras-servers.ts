// The two sides of each eras cell, started the way their users run them: the raw SDK v2 echo server
// (bench/servers/raw-echo*.ts) and the built Foresight CLI with the echo plugin, over stdio or Streamable HTTP,
// each with an SDK v2 client in the cell's era.
import { type BenchEra, type Endpoint, startEndpoint } from './endpoint.js';
import type { Transport } from './eras-settings.js';
import { startHttpEndpoint } from './http-endpoint.js';
import { type BenchSettings, nodeFlags } from './settings.js';
import type { BenchWorkspace } from './workspace.js';

/** Both servers print this line on stderr once they listen (Foresight's CLI, and raw-echo-http.ts). */
const URL_LINE = /serving Streamable HTTP on ([^\s"]+)/;

function urlFromOutput(output: string): URL | undefined {
  const url = URL_LINE.exec(output)?.[1];
  return url === undefined ? undefined : new URL(url);
}

export interface PairStarter {
  workspace: BenchWorkspace;
  settings: BenchSettings;
  /** The foresight.toml Foresight serves: the echo plugin, planner on (as users run it). */
  config: string;
}

/** The raw side: one `echo__echo` tool, as Foresight publishes the plugin's. */
export function startRaw(
  { workspace, settings }: PairStarter,
  transport: Transport,
  era: BenchEra,
  label: string,
): Promise<Endpoint> {
  const flags = nodeFlags(settings, `eras-raw-${transport}-${era}`);
  if (transport === 'stdio')
    return startEndpoint(label, [...flags, workspace.rawServer, '1', 'echo'], workspace.dir, era);
  return startHttpEndpoint({
    label,
    args: [...flags, workspace.rawHttpServer, '1', 'echo'],
    cwd: workspace.dir,
    urlFromOutput,
    era,
  });
}

/** Foresight on the pair's config: the build in `settings.foresightCli`, or `cli` (a baseline build on side A). */
export function startForesight(
  { workspace, settings, config }: PairStarter,
  transport: Transport,
  era: BenchEra,
  label: string,
  cli: { path: string; profileName: string } = { path: settings.foresightCli, profileName: 'eras-foresight' },
): Promise<Endpoint> {
  const args = [
    ...nodeFlags(settings, `${cli.profileName}-${transport}-${era}`),
    cli.path,
    'serve',
    '--config',
    config,
  ];
  if (transport === 'stdio') return startEndpoint(label, args, workspace.dir, era);
  return startHttpEndpoint({
    label,
    args: [...args, '--http', '127.0.0.1:0'],
    cwd: workspace.dir,
    urlFromOutput,
    era,
  });
}

/**
 * Another Foresight build on side A in place of the raw server (BENCH_ERAS_BASELINE_CLI), on a config of its own so
 * that its planner state file is its own too: neither build reads what the other learned.
 */
export async function startBaseline(
  starter: PairStarter,
  cli: string,
  transport: Transport,
  era: BenchEra,
): Promise<Endpoint> {
  const config = await starter.workspace.writeConfig(
    `foresight-eras-${transport}-${era}-baseline.toml`,
    ['echo'],
    1,
  );
  return startForesight({ ...starter, config }, transport, era, 'A Foresight baseline', {
    path: cli,
    profileName: 'eras-baseline',
  });
}
