// The one-shot commands' host: loaded from the config, started, settled, handed to the command, always shut down.
import { type ForesightConfig, redactSecrets } from '../config/index.js';
import { createHost, type ForesightHost } from '../create-host.js';
import { createLogger, type MountedPlugin } from '../host/index.js';
import { type CommonOptions, load } from './config-load.js';
import { resolveLogLevel } from './log-level.js';
import { pluginLabel } from './print.js';
import { logProcessWarnings } from './process-warnings.js';
import { progressLine } from './progress.js';

/**
 * Runs `fn` against a started host and always shuts the host down. Its log is text at info by default (a plugin
 * retrying shows as a line of progress), else at --log-level or FORESIGHT_LOG_LEVEL. `reportsRules`: the command
 * prints the tool rules' report itself, so the host does not log it.
 */
export async function withHost<T>(
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
