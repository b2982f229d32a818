// Renders grep matches as grep -n does: "path:line:text" for matches, "path-line-text" for context, "--" between groups.
export interface GrepMatch {
  path: string;
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

interface Row {
  text: string;
  isMatch: boolean;
}

/** Overlapping context is merged per file, and a line that matches is shown as a match even inside another's context. */
export function formatMatches(matches: readonly GrepMatch[], withContext: boolean): string {
  const files = new Map<string, Map<number, Row>>();
  for (const match of matches) {
    let rows = files.get(match.path);
    if (rows === undefined) files.set(match.path, (rows = new Map()));
    const before = match.before ?? [];
    before.forEach((text, i) => setContext(rows, match.line - before.length + i, text));
    (match.after ?? []).forEach((text, i) => setContext(rows, match.line + 1 + i, text));
    rows.set(match.line, { text: match.text, isMatch: true });
  }
  const out: string[] = [];
  for (const [path, rows] of files) {
    let previous: number | undefined;
    for (const line of [...rows.keys()].sort((a, b) => a - b)) {
      const row = rows.get(line);
      if (row === undefined) continue;
      if (withContext && out.length > 0 && (previous === undefined || line > previous + 1)) out.push('--');
      out.push(`${path}${row.isMatch ? ':' : '-'}${line}${row.isMatch ? ':' : '-'}${row.text}`);
      previous = line;
    }
  }
  return out.join('\n');
}

function setContext(rows: Map<number, Row>, line: number, text: string): void {
  if (!rows.has(line)) rows.set(line, { text, isMatch: false });
}
