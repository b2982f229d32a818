// Pure: the part of a CI log worth showing, as numbered lines: a page of lines, or the lines around each match.
import { PluginError } from '../../host/index.js';

/** Never more than this many lines or characters in one answer, whatever `limit` says. */
export const MAX_LOG_LINES = 2000;
export const MAX_LOG_CHARS = 200_000;
/** Longer lines (minified output, base64) are cut. */
export const MAX_LINE_CHARS = 2000;
const MAX_PATTERN_CHARS = 500;

/** GitHub Actions starts every line with an ISO timestamp; colour codes come from the tools run. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// eslint-disable-next-line no-control-regex -- ANSI escape sequences are control characters by definition.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The log's lines without line ends, timestamps or colour codes; a final newline ends the last line. */
export function logLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.replace(/\r$/, '').replace(TIMESTAMP, '').replace(ANSI, ''));
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

function shown(line: string): string {
  return line.length <= MAX_LINE_CHARS
    ? line
    : `${line.slice(0, MAX_LINE_CHARS)} [… ${line.length - MAX_LINE_CHARS} more characters]`;
}

/** Adds numbered lines while both caps allow; returns how many were added. */
class Output {
  readonly lines: string[] = [];
  private chars = 0;
  constructor(private readonly maxLines: number) {}
  add(text: string): boolean {
    if (this.lines.length >= this.maxLines || this.chars + text.length + 1 > MAX_LOG_CHARS) return false;
    this.lines.push(text);
    this.chars += text.length + 1;
    return true;
  }
}

export interface PageOptions {
  /** Lines to skip: the page starts after line `offset` (numbers start at 1). */
  offset: number;
  limit: number;
}

/** Lines offset+1 .. offset+limit, each as "N: text", under a header that says where they sit and how to go on. */
export function logPage(lines: string[], label: string, options: PageOptions): string {
  const total = lines.length;
  const { offset } = options;
  if (offset >= total && total > 0) {
    return `The log of ${label} has ${total} lines; offset=${offset} is past its end (the last page starts at offset=${Math.max(0, total - options.limit)}).`;
  }
  const out = new Output(Math.min(options.limit, MAX_LOG_LINES));
  let index = offset;
  while (index < total && out.add(`${index + 1}: ${shown(lines[index] ?? '')}`)) index++;
  if (total === 0) return `The log of ${label} is empty.`;
  const range = `lines ${offset + 1}–${index} of ${total}`;
  const header =
    index >= total
      ? `Log of ${label}, ${range} (the end).`
      : `Log of ${label}, ${range}. Call again with offset=${index} for the next lines; ` +
        `the last ${options.limit} lines start at offset=${Math.max(index, total - options.limit)}.`;
  return `${header}\n\n${out.lines.join('\n')}`;
}

export interface MatchOptions extends PageOptions {
  contextLines: number;
}

/** Merged [from, to] index ranges of each match with its context, in order. */
function matchRanges(matches: number[], context: number, first: number, last: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (const index of matches) {
    const from = Math.max(first, index - context);
    const to = Math.min(last, index + context);
    const previous = ranges.at(-1);
    if (previous && from <= previous[1] + 1) previous[1] = Math.max(previous[1], to);
    else ranges.push([from, to]);
  }
  return ranges;
}

/**
 * The lines around each match after line `offset`, grep style: "N: text" for a match, "N- text" for
 * context, "--" between groups. The header counts every match and says where to search on when a cap
 * stopped the output.
 */
export function logMatches(lines: string[], label: string, pattern: RegExp, options: MatchOptions): string {
  const total = lines.length;
  const matches: number[] = [];
  for (let index = options.offset; index < total; index++) {
    if (pattern.test(lines[index] ?? '')) matches.push(index);
  }
  const from = options.offset > 0 ? ` after line ${options.offset}` : '';
  if (matches.length === 0) {
    return `The log of ${label} has ${total} lines; none${from} matches /${pattern.source}/${pattern.flags}.`;
  }
  const matching = new Set(matches);
  const out = new Output(Math.min(options.limit, MAX_LOG_LINES));
  let lastShown = -1;
  let shownMatches = 0;
  let stopped = false;
  for (const [start, end] of matchRanges(matches, options.contextLines, options.offset, total - 1)) {
    if (lastShown >= 0 && !out.add('--')) stopped = true;
    for (let index = start; index <= end && !stopped; index++) {
      const mark = matching.has(index) ? ':' : '-';
      if (!out.add(`${index + 1}${mark} ${shown(lines[index] ?? '')}`)) stopped = true;
      else {
        lastShown = index;
        if (matching.has(index)) shownMatches++;
      }
    }
    if (stopped) break;
  }
  const counted = `${matches.length} line${matches.length === 1 ? '' : 's'}${from} match /${pattern.source}/${pattern.flags}`;
  const context = `${options.contextLines} line${options.contextLines === 1 ? '' : 's'} of context`;
  const header = stopped
    ? `Log of ${label}, ${total} lines; ${counted}. Showing the first ${shownMatches} with ${context}; ` +
      `call again with offset=${lastShown + 1} to search on from line ${lastShown + 2}.`
    : `Log of ${label}, ${total} lines; ${counted}, shown with ${context}.`;
  return `${header}\n\n${out.lines.join('\n')}`;
}
