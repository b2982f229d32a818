// `foresight serve`: joins the cluster if configured, starts the host, serves stdio or HTTP until a signal ends it.
import {
  EMBEDDED_DEFAULT,
  isAuthenticated,
  parseHttpAddress,
  redactSecrets,
  resolveAuth,
  resolveAuthToken,
} from '../config/index.js';
import { createHost } from '../create-host.js';
import { describeThrown } from '../contract/index.js';
import { discoveryLine } from '../discovery/index.js';
import { createLogger } from '../host/index.js';
import type { RoundTripCounter } from '../ops/index.js';
import { checkExposure } from '../protocol/index.js';
import { CliError } from './cli-error.js';
import { clusterReadiness, joinConfiguredCluster } from './cluster.js';
import { type CommonOptions, load } from './config-load.js';
import { DEFAULT_HEAP_RELEASE, type HeapReleaser, releaseHeapWhenQuiet } from './heap-release.js';
import { resolveLogLevel } from './log-level.js';
import { count } from './print.js';
import { logProcessWarnings } from './process-warnings.js';

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
  const listed = host.tools.listTools();
  const summary = `${count(mounted.length, 'plugin')} mounted (${mounted.map((m) => m.name).join(', ')}), ${count(listed.length, 'tool')}, ${discoveryLine(config.discovery, listed)}`;
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
