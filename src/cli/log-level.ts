// Which log level a command runs at: its --log-level flag, else FORESIGHT_LOG_LEVEL, else its own default.
import { LOG_LEVELS } from '../config/index.js';
import type { LogLevel } from '../host/index.js';
import { CliError } from './cli-error.js';

export const LOG_LEVEL_ENV = 'FORESIGHT_LOG_LEVEL';

function parseLevel(value: string, where: string): LogLevel {
  const level = value.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new CliError(`${where} is ${JSON.stringify(value)}; allowed: ${LOG_LEVELS.join(', ')}`, 2);
}

/**
 * `fallback` is the command's own default (`serve`: the config's `[server] log_level`; the one-shot commands:
 * "warn"). The environment overrides it so a run can be made louder without editing the config.
 */
export function resolveLogLevel(
  flag: string | undefined,
  fallback: LogLevel,
  env: NodeJS.ProcessEnv = process.env,
): LogLevel {
  if (flag !== undefined) return parseLevel(flag, '--log-level');
  const fromEnv = env[LOG_LEVEL_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return parseLevel(fromEnv, LOG_LEVEL_ENV);
  return fallback;
}
