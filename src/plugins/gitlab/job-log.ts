// A CI job log made readable and small: the tail of a capped download, cleaned of terminal codes, searched or paged.
import { PluginError } from '../../host/index.js';

/** Longer lines are cut: a minified bundle or a progress bar must not fill the answer. */
const MAX_LINE_CHARS = 1000;

export interface LogTail {
  text: string;
  /** Bytes dropped from the start to stay under the cap. */
  skippedBytes: number;
}

/** Reads a stream keeping only its last `maxBytes`: a failed job explains itself at the end. */
export async function readTail(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<LogTail> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let skippedBytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    kept += value.byteLength;
    while (kept - (chunks[0]?.byteLength ?? 0) >= maxBytes && chunks.length > 1) {
      const dropped = chunks.shift();
      kept -= dropped?.byteLength ?? 0;
      skippedBytes += dropped?.byteLength ?? 0;
    }
  }
  let bytes = Buffer.concat(chunks);
  if (bytes.byteLength > maxBytes) {
    skippedBytes += bytes.byteLength - maxBytes;
    bytes = bytes.subarray(bytes.byteLength - maxBytes);
  }
  let text = bytes.toString('utf8');
  // A cut start is mid-line (maybe mid-character): begin at the next whole line.
  if (skippedBytes > 0) text = text.slice(text.indexOf('\n') + 1);
  return { text, skippedBytes };
}

// GitLab's collapsible sections ("section_start:1700000000:step_script[collapsed=true]\r") and ANSI colours.
const SECTION_MARKER = /section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]]*\])?\r?/g;
// eslint-disable-next-line no-control-regex -- terminal escape sequences are what this removes
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;

/** The log as a person sees it in a terminal: no escape codes, and a line rewritten by \r shows its last state. */
export function cleanLog(text: string): string[] {
  const lines = text
    .replace(ANSI, '')
    .replace(SECTION_MARKER, '')
    .split('\n')
    .map((line) => {
      const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
      const shown = bare.slice(bare.lastIndexOf('\r') + 1);
      return shown.length > MAX_LINE_CHARS ? `${shown.slice(0, MAX_LINE_CHARS)}… [line cut]` : shown;
    });
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** A pattern as a RegExp: case-insensitive unless it has a capital letter (as ripgrep's smart case). */
export function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, /[A-Z]/.test(pattern.replace(/\\./g, '')) ? '' : 'i');
  } catch (error) {
    throw new PluginError(
      'invalid_input',
      `parameter "pattern" is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

export interface LogQuery {
  pattern?: RegExp;
  contextLines: number;
  /** Lines to skip; undefined without a pattern means "the last `limit` lines". */
  offset?: number;
  /** Most lines in the answer. */
  limit: number;
}

const numbered = (lines: readonly string[], from: number, to: number, marks?: Set<number>) =>
  lines
    .slice(from, to)
    .map((line, i) => `${marks?.has(from + i) ? '>' : ' '}${String(from + i + 1).padStart(6)} | ${line}`);

/** The lines around each match, context windows merged, `limit` lines at most; says how to get the rest. */
function searchLog(lines: readonly string[], query: LogQuery & { pattern: RegExp }): string[] {
  const start = query.offset ?? 0;
  const matches: number[] = [];
  for (let i = start; i < lines.length; i++) if (query.pattern.test(lines[i] ?? '')) matches.push(i);
  const where = `from line ${start + 1}`;
  if (matches.length === 0) return [`No line matches ${String(query.pattern)} ${where}.`];
  const out = [`${matches.length} line(s) match ${String(query.pattern)} ${where}:`];
  const marks = new Set(matches);
  let shown = 0;
  let end = -1;
  for (const match of matches) {
    if (match < end) continue;
    const from = Math.max(match - query.contextLines, end, start);
    const to = Math.min(match + query.contextLines + 1, lines.length);
    const room = query.limit - shown;
    // A window that does not fit waits for the next call (unless nothing was shown: then it is cut).
    if (room <= 0 || (shown > 0 && to - from > room)) {
      out.push(`… more matches from line ${match + 1}; call again with offset=${from} for them.`);
      return out;
    }
    if (shown > 0 && from > end) out.push('--');
    const until = Math.min(to, from + room);
    out.push(...numbered(lines, from, until, marks));
    shown += until - from;
    end = until;
  }
  return out;
}

/** A page of lines; without an offset, the last `limit` lines (where a failed job says why). */
function pageOfLog(lines: readonly string[], query: LogQuery): string[] {
  const from = query.offset ?? Math.max(0, lines.length - query.limit);
  const to = Math.min(lines.length, from + query.limit);
  if (from >= lines.length) return [`The log has ${lines.length} lines; offset=${from} is past its end.`];
  const out = [`Lines ${from + 1}–${to} of ${lines.length}:`];
  if (from > 0) out.push(`(lines 1–${from} not shown; call with a smaller offset, or a pattern, for them)`);
  out.push(...numbered(lines, from, to));
  if (to < lines.length)
    out.push(`… ${lines.length - to} more lines; call again with offset=${to} for them.`);
  return out;
}

/** The answer of get_job_logs for one job's log. */
export function renderLog(jobId: string, tail: LogTail, query: LogQuery): string {
  const lines = cleanLog(tail.text);
  const cut =
    tail.skippedBytes > 0
      ? ` (the log is longer: its first ${Math.ceil(tail.skippedBytes / 1024)} KB were not read; line numbers count from what was kept)`
      : '';
  const head = `Log of job ${jobId}: ${lines.length} lines${cut}.`;
  const body = query.pattern
    ? searchLog(lines, { ...query, pattern: query.pattern })
    : pageOfLog(lines, query);
  return [head, ...body].join('\n');
}
