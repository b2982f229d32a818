// Key paths as people read them (`plugins.gh.deadline_ms`, `enrich[0].tools`), and line lookup by longest known prefix.

export type KeyPath = readonly PropertyKey[];

/** Line numbers by formatted key path; a plain record so a PluginEntry stays structured-cloneable. */
export type KeyLines = Readonly<Record<string, number>>;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** TOML-like spelling: bare keys joined by dots, other keys quoted, array indices in brackets. */
export function formatKeyPath(path: KeyPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') {
      text += `[${segment}]`;
      continue;
    }
    const key = String(segment);
    const spelled = BARE_KEY.test(key) ? key : JSON.stringify(key);
    text += text === '' ? spelled : `.${spelled}`;
  }
  return text;
}

/** The line of `path`, else of its nearest ancestor that the source spells out (e.g. the table header). */
export function lineOfKeyPath(lines: KeyLines, path: KeyPath): number | undefined {
  for (let length = path.length; length > 0; length--) {
    const key = formatKeyPath(path.slice(0, length));
    if (Object.hasOwn(lines, key)) return lines[key];
  }
  return undefined;
}

/** The lines under `prefix`, keyed by the path relative to it. */
export function keyLinesUnder(lines: KeyLines, prefix: KeyPath): KeyLines {
  const head = formatKeyPath(prefix);
  const under = createKeyLines();
  for (const [key, line] of Object.entries(lines)) {
    if (key.startsWith(`${head}.`)) under[key.slice(head.length + 1)] = line;
    else if (key.startsWith(`${head}[`)) under[key.slice(head.length)] = line;
  }
  return under;
}

/** An empty, prototype-free record, so keys such as "constructor" are only ever the file's own. */
export function createKeyLines(): Record<string, number> {
  return Object.create(null) as Record<string, number>;
}
