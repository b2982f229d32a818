// Reads a 1-based, inclusive line range of a text file within a byte budget, counting the file's lines on the way.
import { open } from 'node:fs/promises';
import { looksBinary } from './binary.js';

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface LineRequest {
  startLine: number;
  /** Inclusive; Infinity for "to the end of the file". */
  endLine: number;
  maxBytes: number;
  signal: AbortSignal;
}

export interface LineRange {
  binary: false;
  /** The lines' exact bytes, line endings included. */
  text: string;
  firstLine: number;
  /** The last line returned; firstLine - 1 when none was. */
  lastLine: number;
  totalLines: number;
  /** Some requested lines were left out to stay within maxBytes. */
  truncated: boolean;
  /** `lastLine` alone was over the budget and is cut short. */
  lastLineCut: boolean;
}

export type LineRead = LineRange | { binary: true };

/**
 * Streams the file so that memory stays within maxBytes whatever its size; it reads on to the end
 * after the range only to count lines, which the truncation hint needs.
 */
export async function readLines(real: string, request: LineRequest): Promise<LineRead> {
  const { startLine, endLine, maxBytes, signal } = request;
  const handle = await open(real, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    // The selected line being read, kept only up to the room left in the budget.
    let current: Buffer[] = [];
    let currentBytes = 0;
    let currentOverflows = false;
    let taking = true;
    let truncated = false;
    let lastLineCut = false;
    let lastLine = startLine - 1;
    let line = 1;
    let endsWithNewline = true;
    let firstChunk = true;

    const selected = () => taking && line >= startLine && line <= endLine;
    const append = (part: Buffer) => {
      const room = maxBytes - keptBytes - currentBytes;
      const taken = Math.max(0, Math.min(room, part.length));
      if (part.length > room) currentOverflows = true;
      // Copied, because `chunk` is reused by the next read.
      if (taken > 0) current.push(Buffer.from(part.subarray(0, taken)));
      currentBytes += taken;
    };
    const commit = () => {
      if (!currentOverflows) {
        kept.push(...current);
        keptBytes += currentBytes;
        lastLine = line;
      } else {
        truncated = true;
        taking = false;
        // A first line longer than the whole budget is returned cut, or the caller could never see it.
        if (kept.length === 0) {
          kept.push(cutAtCharBoundary(Buffer.concat(current)));
          lastLine = line;
          lastLineCut = true;
        }
      }
      current = [];
      currentBytes = 0;
      currentOverflows = false;
    };

    for (;;) {
      signal.throwIfAborted();
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const data = chunk.subarray(0, bytesRead);
      if (firstChunk && looksBinary(data)) return { binary: true };
      firstChunk = false;
      endsWithNewline = data[bytesRead - 1] === NEWLINE;
      for (let pos = 0; pos < bytesRead;) {
        const newline = data.indexOf(NEWLINE, pos);
        const end = newline === -1 ? bytesRead : newline + 1;
        if (selected()) append(data.subarray(pos, end));
        if (newline === -1) break;
        if (selected()) commit();
        line += 1;
        pos = end;
      }
    }
    // A last line without a final newline is still a line.
    if (!endsWithNewline && selected()) commit();
    const totalLines = endsWithNewline ? line - 1 : line;
    const text = Buffer.concat(kept).toString('utf8');
    return { binary: false, text, firstLine: startLine, lastLine, totalLines, truncated, lastLineCut };
  } finally {
    await handle.close();
  }
}

/** Drops a trailing partial UTF-8 sequence, so a cut never ends in a replacement character. */
function cutAtCharBoundary(bytes: Buffer): Buffer {
  let lead = bytes.length - 1;
  while (lead > 0 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead -= 1;
  const byte = bytes[lead] ?? 0;
  const width = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return lead + width > bytes.length ? bytes.subarray(0, lead) : bytes;
}

/** The note that tells the caller exactly which lines to ask for next. */
export function truncationHint(range: LineRange, requestedEnd: number, maxBytes: number): string {
  const shown = range.lastLineCut
    ? `line ${range.lastLine} is longer than the ${maxBytes}-byte limit and was cut short`
    : `this shows lines ${range.firstLine}-${range.lastLine} of ${range.totalLines}, the ${maxBytes}-byte limit`;
  const next = range.lastLine + 1;
  const last = Math.min(requestedEnd, range.totalLines);
  const onward =
    next <= last
      ? `ask for lines ${next}-${last} (read_file with start_line: ${next}, end_line: ${last}) to read on`
      : 'no lines follow';
  return `[truncated: ${shown}; ${onward}]`;
}

/** Text with its hint after a blank line, so the hint never reads as part of the file. */
export function withHint(text: string, hint: string): string {
  return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}\n${hint}`;
}
