// get_job_logs for every CI provider: the job id and the agent's query read and checked, the log cleaned, one bounded answer.
import { PluginError } from '../../contract/index.js';
import { type Args, int, str } from './args.js';
import { type LogQuery, logMatches, logPage } from './log-window.js';

/** The tool's defaults, which its schema (tools.ts) publishes. */
export const DEFAULT_LOG_LINES = 200;
export const DEFAULT_CONTEXT_LINES = 5;
const MAX_PATTERN_CHARS = 500;

// Every terminal control sequence (CSI): colours, cursor moves, "erase line".
// eslint-disable-next-line no-control-regex -- terminal escape sequences are control characters by definition.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;

/**
 * The log's lines as a person sees them in a terminal: no escape codes, a line rewritten by \r shows
 * its last state, no line ends; a final newline ends the last line. `remove` is what else the provider
 * writes into its logs (timestamps, section markers), taken out of the whole text after the escape
 * codes: give each the g flag, and m for a `^` at line starts.
 */
export function logLines(text: string, remove: readonly RegExp[] = []): string[] {
  let clean = text.replace(ANSI, '');
  for (const pattern of remove) clean = clean.replace(pattern, '');
  const lines = clean.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => {
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    return bare.slice(bare.lastIndexOf('\r') + 1);
  });
}

/**
 * The agent's pattern as a regular expression, case-insensitive unless it has an upper-case letter (as in
 * ripgrep's smart case; escapes such as \S do not count). A bad pattern is refused with the reason.
 */
export function compilePattern(pattern: string): RegExp {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new PluginError(
      'invalid_input',
      `parameter "pattern" is ${pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are allowed`,
    );
  }
  const flags = /[A-Z]/.test(pattern.replace(/\\./g, '')) ? '' : 'i';
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PluginError(
      'invalid_input',
      `parameter "pattern" is ${JSON.stringify(pattern)}, which is not a valid regular expression (${reason})`,
    );
  }
}

/** `job_id` as a number: CI jobs have positive numeric ids, sent as a string or a number. */
export function jobIdArg(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (/^\d{1,18}$/.test(text) && Number(text) > 0) return Number(text);
  throw new PluginError(
    'invalid_input',
    `parameter "job_id" is ${JSON.stringify(value)}; a job id is a number, as get_pipeline lists it`,
  );
}

/** The query of get_job_logs; read before the download, so a bad pattern costs nothing. */
export function logQuery(args: Args): LogQuery {
  const pattern = str(args.pattern);
  return {
    ...(pattern === undefined ? {} : { pattern: compilePattern(pattern) }),
    contextLines: int(args.context_lines, DEFAULT_CONTEXT_LINES),
    ...(typeof args.offset === 'number' ? { offset: int(args.offset, 0) } : {}),
    limit: int(args.limit, DEFAULT_LOG_LINES),
  };
}

export interface LogView {
  /** How the answer names the log, e.g. "job 502". */
  label: string;
  /**
   * Where a page starts when the agent gives no offset: "head" (line 1) or "tail" (the last lines, where
   * a failed job says why). Default "head". A search always starts at `offset`, or at line 1.
   */
  unpaged?: 'head' | 'tail';
  /** Bytes dropped from the start of a log that was read only in part. Default 0. */
  skippedBytes?: number;
}

/** The answer of get_job_logs: the lines around each match of the pattern, or a page of lines. */
export function renderJobLog(lines: readonly string[], query: LogQuery, view: LogView): string {
  const skipped = view.skippedBytes ?? 0;
  const note =
    skipped > 0
      ? `The log is longer: its first ${Math.ceil(skipped / 1024)} KB were not read, and line numbers count from what was kept.`
      : undefined;
  const where = { label: view.label, ...(note === undefined ? {} : { note }) };
  return query.pattern
    ? logMatches(lines, { ...query, pattern: query.pattern }, where)
    : logPage(lines, query, { ...where, unpaged: view.unpaged ?? 'head' });
}
