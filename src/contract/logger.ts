// The logger a plugin is handed, and the one shape of a retry note every plugin logs.

/** The part of pino's logger the host hands to plugins (ctx.logger). */
export interface Logger {
  trace(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
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
