// The process logger: pino JSON on stderr (never stdout, which may carry stdio MCP traffic).
import { pino } from 'pino';
import type { Logger } from './contract.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface LoggerOptions {
  /** Default: "info", or FORESIGHT_LOG_LEVEL when set. */
  level?: LogLevel;
  /** Rewrites every serialized line before it is written; used to redact secret values. */
  redact?: (line: string) => string;
  /** Rewrites each line after `redact` (one-shot commands print some records as plain text); default none. */
  format?: (line: string) => string;
}

/** What a record about a retry carries under `retry`: one-shot commands print it as a line of progress. */
export interface RetryNote {
  /** Which retry is about to be made: 1 for the first. */
  attempt: number;
  /** How long the plugin waits before it. */
  waitMs: number;
  /** What failed, in a few words: "HTTP 502", "ECONNREFUSED". */
  why: string;
}

/**
 * Logs, at info, that a request failed and is made again after a wait: the one shape every plugin uses, so
 * `foresight check` and `foresight tools` can say what they are waiting for rather than sit silent.
 */
export function logRetry(logger: Logger, retry: RetryNote): void {
  logger.info({ retry }, 'waiting to retry');
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? (process.env.FORESIGHT_LOG_LEVEL as LogLevel | undefined) ?? 'info';
  const { redact, format } = options;
  // A sync write to fd 2 keeps lines ordered with process exit and never touches stdout.
  const destination = pino.destination({ fd: 2, sync: true });
  const rewrite = redact && format ? (line: string) => format(redact(line)) : (redact ?? format ?? undefined);
  const stream = rewrite ? { write: (line: string) => destination.write(rewrite(line)) } : destination;
  return pino({ level, base: { name: 'foresight' } }, stream);
}
