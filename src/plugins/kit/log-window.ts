// Pure: the part of a CI log worth showing, as numbered lines (a page, or the lines around each match) under a header
// that says where they sit and how to get more.

/** Never more than this many lines or characters in one answer, whatever `limit` says. */
export const MAX_LOG_LINES = 2000;
export const MAX_LOG_CHARS = 200_000;
/** Longer lines (minified output, base64) are cut when shown; a search still reads them whole. */
export const MAX_LINE_CHARS = 2000;

export interface LogQuery {
  /** Search: each matching line with `contextLines` around it. Without it, a page of lines. */
  pattern?: RegExp;
  contextLines: number;
  /** Lines to skip: the answer starts after line `offset` (numbers start at 1). */
  offset?: number;
  /** Most log lines in the answer; the "--" between groups of a search do not count. */
  limit: number;
}

/** How the answer names the log ("job 502"), and a sentence to add to its header. */
export interface LogLabel {
  label: string;
  note?: string;
}

function shown(line: string): string {
  return line.length <= MAX_LINE_CHARS
    ? line
    : `${line.slice(0, MAX_LINE_CHARS)} [… ${line.length - MAX_LINE_CHARS} more characters]`;
}

/** "N: text" for a line of a page or a match, "N- text" for context (as grep -n writes them). */
const numbered = (lines: readonly string[], index: number, mark: ':' | '-') =>
  `${index + 1}${mark} ${shown(lines[index] ?? '')}`;

const indexes = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/** The answer's lines so far, under both caps: `limit` log lines and MAX_LOG_CHARS characters. */
class Output {
  readonly lines: string[] = [];
  private readonly maxLines: number;
  private logLines = 0;
  private chars = 0;
  constructor(limit: number) {
    this.maxLines = Math.min(limit, MAX_LOG_LINES);
  }
  /** How many of `lines`, in order, still fit after `separator`. */
  room(lines: readonly string[], separator?: string): number {
    let chars = this.chars + (separator === undefined ? 0 : separator.length + 1);
    let count = 0;
    for (const line of lines) {
      if (this.logLines + count >= this.maxLines || chars + line.length + 1 > MAX_LOG_CHARS) break;
      chars += line.length + 1;
      count++;
    }
    return count;
  }
  add(lines: readonly string[], separator?: string): void {
    if (separator !== undefined) {
      this.lines.push(separator);
      this.chars += separator.length + 1;
    }
    for (const line of lines) this.chars += line.length + 1;
    this.lines.push(...lines);
    this.logLines += lines.length;
  }
}

const sentences = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');

/**
 * A page of lines, each as "N: text". Without an offset it starts at line 1 ("head"), or holds the
 * last lines that fit ("tail"); the header says which lines these are and how to page on.
 */
export function logPage(
  lines: readonly string[],
  query: Pick<LogQuery, 'offset' | 'limit'>,
  where: LogLabel & { unpaged: 'head' | 'tail' },
): string {
  const { label, note } = where;
  const { limit } = query;
  const total = lines.length;
  if (total === 0) return sentences([`The log of ${label} is empty.`, note]);
  const out = new Output(limit);
  let from = query.offset ?? 0;
  if (query.offset === undefined && where.unpaged === 'tail') {
    // Counted back from the end, so the caps cut the oldest of the last lines, not the newest.
    const last = indexes(Math.max(0, total - limit), total).map((index) => numbered(lines, index, ':'));
    from = total - out.room(last.reverse());
  } else if (from >= total) {
    return sentences([
      `The log of ${label} has ${total} lines; offset=${from} is past its end (the last page starts at offset=${Math.max(0, total - limit)}).`,
      note,
    ]);
  }
  const page = indexes(from, Math.min(total, from + limit)).map((index) => numbered(lines, index, ':'));
  const to = from + out.room(page);
  out.add(page.slice(0, to - from));
  const range = `lines ${from + 1}–${to} of ${total}`;
  const header = sentences([
    to >= total
      ? `Log of ${label}, ${range} (the end).`
      : `Log of ${label}, ${range}. Call again with offset=${to} for the next lines; ` +
        `the last ${limit} lines start at offset=${Math.max(to, total - limit)}.`,
    query.offset === undefined && from > 0
      ? `Lines 1–${from} are not shown; call again with offset=0, or with a pattern, for them.`
      : undefined,
    note,
  ]);
  return `${header}\n\n${out.lines.join('\n')}`;
}

/**
 * The lines around each match after line `offset`, grep style: "N: text" for a match, "N- text" for
 * context, "--" between groups. A match's window that does not fit whole waits for the next call (unless
 * nothing was shown yet: then it is cut). The header counts every match and says where to search on.
 */
export function logMatches(
  lines: readonly string[],
  query: LogQuery & { pattern: RegExp },
  where: LogLabel,
): string {
  const { label, note } = where;
  const { pattern, contextLines } = query;
  const start = query.offset ?? 0;
  const total = lines.length;
  const matches = indexes(start, total).filter((index) => pattern.test(lines[index] ?? ''));
  const after = start > 0 ? ` after line ${start}` : '';
  if (matches.length === 0) {
    return sentences([
      `The log of ${label} has ${total} lines; none${after} matches /${pattern.source}/${pattern.flags}.`,
      note,
    ]);
  }
  const matching = new Set(matches);
  const out = new Output(query.limit);
  // Lines before `end` are shown or skipped; the next window starts no earlier.
  let end = start;
  let resumeAt: number | undefined;
  for (const match of matches) {
    if (match < end) continue;
    const from = Math.max(match - contextLines, end);
    const window = indexes(from, Math.min(match + contextLines + 1, total)).map((index) =>
      numbered(lines, index, matching.has(index) ? ':' : '-'),
    );
    const separator = out.lines.length > 0 && from > end ? '--' : undefined;
    const fits = out.room(window, separator);
    if (fits < window.length) {
      if (out.lines.length > 0) resumeAt = from;
      else {
        out.add(window.slice(0, fits));
        resumeAt = from + fits;
      }
      break;
    }
    out.add(window, separator);
    end = from + window.length;
  }
  const counted = `${matches.length} line${matches.length === 1 ? '' : 's'}${after} match /${pattern.source}/${pattern.flags}`;
  const context = `${contextLines} line${contextLines === 1 ? '' : 's'} of context`;
  const shownMatches = matches.filter((index) => index < (resumeAt ?? total)).length;
  const header = sentences([
    resumeAt === undefined
      ? `Log of ${label}, ${total} lines; ${counted}, shown with ${context}.`
      : `Log of ${label}, ${total} lines; ${counted}. Showing the first ${shownMatches} with ${context}; ` +
        `call again with offset=${resumeAt} to search on from line ${resumeAt + 1}.`,
    note,
  ]);
  return `${header}\n\n${out.lines.join('\n')}`;
}
