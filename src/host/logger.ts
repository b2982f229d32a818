// The process logger: pino JSON on stderr (never stdout, which may carry stdio MCP traffic).
import { pino } from 'pino';
import type { Logger } from './contract.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface LoggerOptions {
  /** Default: "info", or FORESIGHT_LOG_LEVEL when set. */
  level?: LogLevel;
  /** Rewrites every serialized line before it is written; used to redact secret values. */
  redact?: (line: string) => string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? (process.env.FORESIGHT_LOG_LEVEL as LogLevel | undefined) ?? 'info';
  const redact = options.redact;
  // A sync write to fd 2 keeps lines ordered with process exit and never touches stdout.
  const destination = pino.destination({ fd: 2, sync: true });
  const stream = redact ? { write: (line: string) => destination.write(redact(line)) } : destination;
  return pino({ level, base: { name: 'foresight' } }, stream);
}
