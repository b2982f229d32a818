// Where a line of a file's unified diff sits on each side: what a GitLab diff note position needs.
// GitLab wants new_line alone for an added line, old_line alone for a removed one, and both for a line the
// change kept (inside or outside the hunks), where the two numbers differ once earlier hunks moved lines.

export interface LinePosition {
  old_line?: number;
  new_line?: number;
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: string[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const line of diff.split('\n')) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      hunks.push({
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      });
    } else if (hunks.length > 0 && /^[ +-]/.test(line)) hunks.at(-1)?.lines.push(line);
  }
  return hunks;
}

/**
 * The position of line `line` of the `side` ("new": the changed file, "old": the file before) in `diff`.
 * Lines outside every hunk were kept, so both numbers are given, shifted by the hunks before them.
 */
export function linePosition(diff: string, side: 'new' | 'old', line: number): LinePosition {
  let shift = 0; // new line number minus old line number, past the hunks read so far
  for (const hunk of parseHunks(diff)) {
    const start = side === 'new' ? hunk.newStart : hunk.oldStart;
    if (line < start) break;
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const text of hunk.lines) {
      const kind = text[0];
      if (kind === '+') {
        if (side === 'new' && newNo === line) return { new_line: line };
        newNo++;
      } else if (kind === '-') {
        if (side === 'old' && oldNo === line) return { old_line: line };
        oldNo++;
      } else {
        if ((side === 'new' ? newNo : oldNo) === line) return { old_line: oldNo, new_line: newNo };
        oldNo++;
        newNo++;
      }
    }
    shift = hunk.newStart + hunk.newCount - (hunk.oldStart + hunk.oldCount);
  }
  return side === 'new'
    ? { old_line: line - shift, new_line: line }
    : { old_line: line, new_line: line + shift };
}
