// The CLI's commands: serve, tools, call, check (each loads the config and runs the full host), and stats.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type DevboyImport,
  type DevboyImportOptions,
  EMBEDDED_DEFAULT,
  type ForesightConfig,
  type ImportNote,
  importDevboyConfig,
  tomlSnippet,
  isAuthenticated,
  loadConfig,
  parseHttpAddress,
  redactSecrets,
  resolveAuth,
  resolveAuthToken,
} from '../config/index.js';
import { createHost, type ForesightHost } from '../create-host.js';
import { describeThrown, type Logger } from '../contract/index.js';
import { createLogger, type MountedPlugin } from '../host/index.js';
import { type LearnedState, PlannerStateStore, plannerStateFile } from '../planner/index.js';
import { checkExposure } from '../protocol/index.js';
import { CliError } from './cli-error.js';
import { checkCluster, clusterReadiness, joinConfiguredCluster } from './cluster.js';
import { DEFAULT_HEAP_RELEASE, type HeapReleaser, releaseHeapWhenQuiet } from './heap-release.js';
import { connectInMemoryClient } from './in-memory-client.js';
import { resolveLogLevel } from './log-level.js';
import type { RoundTripCounter } from '../ops/index.js';
import { progressLine } from './progress.js';
import {
  STATS_PRINCIPALS,
  combinedEdges,
  principalEdges,
  principalSummaries,
  principalText,
  statsText,
} from './stats-text.js';

export interface CommonOptions {
  config?: string;
  /** A devboy-tools pipeline_config.toml whose planner settings lie beneath the config's own. */
  plannerConfig?: string;
  debug?: boolean;
  /** --log-level: over FORESIGHT_LOG_LEVEL, over the command's default. */
  logLevel?: string;
}

export { CliError };

function pluginLabel(plugin: MountedPlugin): string {
  return `${plugin.name} (${plugin.id})`;
}

/**
 * What the commands print about plugins: their health and start errors come from providers, which may quote a
 * credential a server echoed back. Results and lists reach the commands already redacted by the protocol layer.
 */
function print(stream: NodeJS.WriteStream, text: string): void {
  stream.write(redactSecrets(text));
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Where what an import could not map (warn) or renamed (note) is said: a line each, as text or a log record. */
type ImportReport = (kind: 'note' | 'warn', line: string) => void;

const textReport: ImportReport = (kind, line) => process.stderr.write(`${kind}  ${line}\n`);

async function load(
  options: CommonOptions,
  checkSecrets = true,
  report: ImportReport = textReport,
): Promise<ForesightConfig> {
  const beneath =
    options.plannerConfig === undefined
      ? undefined
      : (await readDevboy(options.plannerConfig, {}, report)).table;
  return loadConfig({
    file: options.config,
    cwd: process.cwd(),
    checkSecrets,
    ...(beneath === undefined ? {} : { beneath }),
  });
}

/** Reads and maps a devboy-tools pipeline config, listing on stderr what it could not map and what it renamed. */
async function readDevboy(
  file: string,
  options: DevboyImportOptions,
  report: ImportReport = textReport,
): Promise<DevboyImport> {
  const path = resolve(process.cwd(), file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${describeThrown(error)}`, 1);
  }
  const imported = importDevboyConfig(text, path, options);
  const where = (note: ImportNote) => `${path}${note.line === undefined ? '' : `:${note.line}`}`;
  for (const note of imported.notes) report('note', `${where(note)}: ${note.key}: ${note.detail}`);
  for (const warning of imported.warnings)
    report('warn', `${where(warning)}: ${warning.key}: ${warning.detail}`);
  return imported;
}

/** Prints a devboy-tools pipeline config as foresight.toml [planner] and [tools."…"] tables; what it cannot map goes to stderr. */
export async function importDevboyCommand(
  file: string,
  options: { workspacePrefix?: string },
): Promise<void> {
  const imported = await readDevboy(
    file,
    options.workspacePrefix === undefined ? {} : { workspacePrefix: options.workspacePrefix },
  );
  const snippet = tomlSnippet(imported.table);
  process.stdout.write(snippet === '' ? `# nothing in ${file} maps onto Foresight's planner\n` : snippet);
  const unmapped = imported.warnings.length;
  process.stderr.write(
    `foresight: ${unmapped === 0 ? 'every key mapped' : `${count(unmapped, 'key')} not mapped (the warn lines above)`}\n`,
  );
}

/**
 * Runs `fn` against a started host and always shuts the host down. Its log is text at info by default (a plugin
 * retrying shows as a line of progress), else at --log-level or FORESIGHT_LOG_LEVEL. `reportsRules`: the command
 * prints the tool rules' report itself, so the host does not log it.
 */
async function withHost<T>(
  options: CommonOptions,
  fn: (host: ForesightHost, config: ForesightConfig) => Promise<T>,
  reportsRules = false,
): Promise<T> {
  const level = resolveLogLevel(options.logLevel, options.debug ? 'debug' : 'info');
  const config = await load(options);
  // Progress lines name a plugin as `check` does; its kind is known once the host has mounted it.
  let mounted: () => readonly MountedPlugin[] = () => [];
  const label = (name: string) => {
    const plugin = mounted().find((m) => m.name === name);
    return plugin ? pluginLabel(plugin) : name;
  };
  const logger = createLogger({
    level,
    redact: redactSecrets,
    format: 'text',
    // A plugin's retry shows as what the command waits for, named as `check` names plugins.
    describe: progressLine(label),
  });
  logProcessWarnings(logger);
  const host = createHost({
    config: { ...config, server: { ...config.server, logLevel: level } },
    // A person reads these commands' stderr: log records as text lines, like the commands' own.
    logger,
    debug: options.debug,
    // One-shot commands: a call run ahead would only be aborted at exit, a wasted upstream request.
    planner: { enabled: false },
    logRuleProblems: !reportsRules,
  });
  mounted = () => host.plugins.mountedPlugins();
  try {
    await host.start();
    // A plugin that connects in the background (an upstream server) has its tools once it is connected.
    await host.plugins.settle();
    return await fn(host, config);
  } finally {
    await host.close();
  }
}

/** Node's own warnings as records of the command's log, so stderr keeps one format (JSON for serve). */
function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    logger.warn({ warning: warning.name, detail: warning.message }, 'node warning'),
  );
}

function parseCliAddress(text: string) {
  const address = parseHttpAddress(text);
  if (!address)
    throw new CliError(
      `--http ${JSON.stringify(text)}: expected [host:]port, e.g. 3000 or 127.0.0.1:3000`,
      2,
    );
  return address;
}

const toMb = (bytes: number) => Math.round(bytes / 1_048_576);

export async function serveCommand(options: CommonOptions & { http?: string }): Promise<void> {
  // Before the config names its level: what a --planner-config import says is logged at the flag's or env's.
  const early = createLogger({ level: resolveLogLevel(options.logLevel, 'info'), redact: redactSecrets });
  const loaded = await load(options, true, (kind, line) =>
    kind === 'warn' ? early.warn(line) : early.info(line),
  );
  const config = {
    ...loaded,
    server: { ...loaded.server, logLevel: resolveLogLevel(options.logLevel, loaded.server.logLevel) },
  };
  // The host's own default logger, made here so the cluster's connections log as the host does.
  const logger = createLogger({ level: config.server.logLevel, redact: redactSecrets });
  // The host's metrics exist only once the host does; the cluster connects first, since the host takes its bus.
  const counted: { roundTrips?: RoundTripCounter | undefined } = {};
  const cluster = await joinConfiguredCluster(config, logger, () => counted.roundTrips?.inc());
  const host = createHost({
    config,
    debug: options.debug,
    logger,
    ...(cluster === undefined
      ? {}
      : { bus: cluster.bus, shared: cluster.shared, readiness: [clusterReadiness(cluster)] }),
  });
  counted.roundTrips = host.metrics?.redisRoundTrips;
  logProcessWarnings(host.logger);
  const address =
    options.http !== undefined
      ? parseCliAddress(options.http)
      : config.server.transport === 'http'
        ? config.server.http
        : undefined;
  // Refused before any plugin starts, naming the config keys that lift it.
  if (address !== undefined)
    checkExposure(
      address,
      { authenticated: isAuthenticated(config), allowUnauthenticated: config.server.allowUnauthenticated },
      {
        where: options.http === undefined ? (config.file ?? EMBEDDED_DEFAULT) : `--http ${options.http}`,
        auth: `server.auth_token_env or [auth]${config.file === undefined ? '' : ` in ${config.file}`}`,
        allow: 'server.allow_unauthenticated = true',
      },
    );
  let stopping = false;
  let heapRelease: HeapReleaser | undefined;
  const shutdown = async (why: string, drain = false) => {
    if (stopping) return;
    stopping = true;
    heapRelease?.stop();
    host.logger.info({ why }, 'shutting down');
    // SIGTERM is how an orchestrator or balancer retires a process: calls already taken get to finish.
    if (drain) {
      const drainTimeoutS = config.server.ops.drainTimeoutS;
      if (!(await host.drain(drainTimeoutS)))
        host.logger.warn({ drainTimeoutS }, 'drain deadline passed: ending the calls still in flight');
    }
    await host.close();
    await cluster?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM', true));

  await host.start();
  // The ready line shows at any level but silent: tools and people wait for it (the HTTP one names the URL).
  const announce = createLogger({
    level: config.server.logLevel === 'silent' ? 'silent' : 'info',
    redact: redactSecrets,
  });
  const mounted = host.plugins.mountedPlugins();
  const tools = host.tools.listTools().length;
  const summary = `${count(mounted.length, 'plugin')} mounted (${mounted.map((m) => m.name).join(', ')}), ${count(tools, 'tool')}`;
  try {
    if (address !== undefined) {
      const serving = await host.serveHttp({
        host: address.host,
        port: address.port,
        allowedHosts: config.server.allowedHosts,
        allowedOrigins: config.server.allowedOrigins,
        authToken: resolveAuthToken(config),
        oauth: resolveAuth(config),
        allowUnauthenticated: config.server.allowUnauthenticated,
      });
      announce.info({ url: serving.url }, `${summary}, serving Streamable HTTP on ${serving.url}`);
    } else {
      const serving = await host.serveStdio();
      announce.info(`${summary}, serving stdio`);
      void serving.closed.then(() => shutdown('stdin closed'));
    }
    heapRelease = releaseHeapWhenQuiet(DEFAULT_HEAP_RELEASE, {
      released: (before, after) =>
        host.logger.debug({ heapMbBefore: toMb(before), heapMbAfter: toMb(after) }, 'quiet: heap released'),
      failed: (error) =>
        host.logger.warn(
          { error: describeThrown(error) },
          'cannot give back heap when quiet; going on without',
        ),
    });
  } catch (error) {
    // The plugins are running (e.g. the port was taken): stop them in reverse order before reporting.
    stopping = true;
    await host.close();
    await cluster?.close();
    throw error;
  }
}

export async function toolsCommand(options: CommonOptions & { json?: boolean }): Promise<void> {
  await withHost(options, async (host) => {
    const client = await connectInMemoryClient(host);
    const { tools } = await client.listTools();
    // On stderr, so stdout stays the list (or the JSON) alone.
    for (const plugin of host.plugins.mountedPlugins())
      if (plugin.health.detail !== undefined)
        print(
          process.stderr,
          `foresight: ${pluginLabel(plugin)} ${plugin.health.state}: ${plugin.health.detail}\n`,
        );
    if (options.json) {
      process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
      return;
    }
    for (const tool of tools) {
      const summary = (tool.description ?? '').split('\n')[0];
      process.stdout.write(`${tool.name}${summary ? `  ${summary}` : ''}\n`);
    }
  });
}

export async function callCommand(
  tool: string,
  json: string | undefined,
  options: CommonOptions & { json?: boolean },
) {
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new CliError(`arguments must be a JSON object: ${describeThrown(error)}`, 2);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new CliError('arguments must be a JSON object, e.g. \'{"path": "README.md"}\'', 2);
    }
    args = parsed as Record<string, unknown>;
  }
  await withHost(options, async (host) => {
    const client = await connectInMemoryClient(host);
    const result = await client.callTool({ name: tool, arguments: args });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      for (const block of result.content as { type: string; text?: string }[]) {
        process.stdout.write(block.type === 'text' ? `${block.text ?? ''}\n` : `${JSON.stringify(block)}\n`);
      }
    }
    if (result.isError) throw new CliError(`tool ${tool} reported an error`, 1);
  });
}

const MARKS: Readonly<Record<MountedPlugin['health']['state'], string>> = {
  ready: 'ok',
  degraded: 'warn',
  starting: 'fail',
  down: 'fail',
};

export async function checkCommand(options: CommonOptions): Promise<void> {
  await withHost(
    options,
    async (host, config) => {
      const mounted = host.plugins.mountedPlugins();
      for (const m of mounted) {
        const { state, detail } = m.health;
        const mark = MARKS[state];
        // The tool rules and [[enrich]] drops may publish fewer tools than the plugin serves: both are shown.
        const published = host.tools.listedOf(m.name).length;
        const counted =
          published === m.tools ? `${m.tools} tools` : `${m.tools} tools, ${published} published`;
        const line = `${mark}  ${pluginLabel(m)}, prefix ${JSON.stringify(m.prefix)}, ${counted}`;
        const why =
          state === 'starting'
            ? `still starting after its start deadline: ${detail ?? ''}`
            : state === 'degraded'
              ? `degraded: ${detail ?? 'serving with less than it should'}`
              : detail;
        print(process.stdout, `${line}${why === undefined ? '' : ` (${why})`}\n`);
      }
      const unlisted = host.tools.unlisted();
      for (const { message } of unlisted.filter((u) => u.reason === 'hidden'))
        print(process.stdout, `note  ${message}\n`);
      for (const problem of host.planner.modelProblems())
        print(process.stdout, `warn  planner: ${problem}\n`);
      for (const note of host.planner.modelNotes()) print(process.stdout, `note  planner: ${note}\n`);
      const rules = host.checkRules();
      for (const line of rules.matched) print(process.stdout, `rule  ${line}\n`);
      for (const line of rules.unchecked) print(process.stdout, `note  ${line}\n`);
      for (const line of rules.problems) print(process.stdout, `fail  ${line}\n`);
      const cluster = await checkCluster(config);
      if (cluster) print(process.stdout, `${cluster.line}\n`);
      const failed = unlisted.filter((u) => u.reason === 'failed');
      for (const { message } of failed) print(process.stdout, `fail  ${message}\n`);
      // An [[enrich]] rule that cannot apply to a tool is a config mistake found only once tools exist.
      if (failed.length) throw new CliError(`${count(failed.length, 'tool')} failed enrichment`, 1);
      // A typo in a rule that drops or hides something must not pass as a valid config. Each is listed above.
      if (rules.problems.length)
        throw new CliError(
          `${count(rules.problems.length, 'tool rule')} ${rules.problems.length === 1 ? 'matches' : 'match'} nothing (the fail lines above)`,
          1,
        );
      // A degraded plugin serves (with plainer schemas): its warn line says why, and the config still passes.
      const down = mounted.filter((m) => m.health.state === 'starting' || m.health.state === 'down');
      if (down.length) throw new CliError(`${count(down.length, 'plugin')} not available`, 1);
      if (cluster && !cluster.ok)
        throw new CliError("the cluster's redis is unreachable (the fail line above)", 1);
      const degraded = mounted.filter((m) => m.health.state === 'degraded').length;
      print(
        process.stdout,
        `config is valid: ${count(mounted.length, 'plugin')}${degraded ? ` (${degraded} degraded)` : ''}, ${count(host.tools.listTools().length, 'tool')}\n`,
      );
    },
    true,
  );
}

/** Reads the planner's state file (no plugin is built or started) and prints what it learned, or one principal's part. */
export async function statsCommand(
  options: CommonOptions & { json?: boolean; principal?: string },
): Promise<void> {
  // Only [planner] is read: no plugin starts, so its secrets need not be set.
  const config = await load(options, false);
  const file = config.planner.stateFile ?? plannerStateFile();
  const warnings: string[] = [];
  const state = await new PlannerStateStore({ file, onWarning: (message) => warnings.push(message) }).load();
  if (warnings.length > 0) throw new CliError(warnings.join('\n'), 1);
  if (options.principal !== undefined) return principalStats(file, options.principal, state, options.json);
  const edges = state === undefined ? [] : combinedEdges(state);
  if (options.json) {
    const principals = state === undefined ? [] : principalSummaries(state);
    process.stdout.write(`${JSON.stringify({ file, state: state ?? null, principals, edges }, null, 2)}\n`);
    return;
  }
  if (state === undefined) {
    process.stdout.write(
      `no planner state at ${file} yet: Foresight saves what its planner learns there while it serves\n`,
    );
    return;
  }
  process.stdout.write(statsText(file, state, edges));
}

function principalStats(
  file: string,
  principal: string,
  state: LearnedState | undefined,
  json: boolean | undefined,
): void {
  const counts = state?.principals[principal];
  if (counts === undefined) {
    const known = state === undefined ? [] : principalSummaries(state).map((summary) => summary.principal);
    const listed =
      known.length === 0
        ? 'it knows no principal yet'
        : `it knows ${known.length}: ${known.slice(0, STATS_PRINCIPALS).join(', ')}${known.length > STATS_PRINCIPALS ? ', …' : ''}`;
    throw new CliError(`no principal "${principal}" in the planner state ${file}; ${listed}`, 1);
  }
  if (json) {
    const edges = principalEdges(counts);
    process.stdout.write(`${JSON.stringify({ file, principal, ...counts, ranked: edges }, null, 2)}\n`);
    return;
  }
  process.stdout.write(principalText(file, principal, counts));
}
