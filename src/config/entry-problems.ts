// Problems found with a plugin's table once it is built (a kind that does not exist, a module file that is not
// there, a prefix another table took), located at the key's line and with the nearest valid value.
import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ForesightError } from '../contract/index.js';
import { lineOfKeyPath } from './key-path.js';
import { configProblemsError, type ProblemSource } from './problems.js';
import { closestKey } from './suggest.js';
import type { PluginEntry } from './types.js';

/** Lines of a plugin's own keys, relative to its table; an unlocated key falls back to the table's header. */
export function entrySource(entry: PluginEntry): ProblemSource {
  const base = ['plugins', entry.name];
  return {
    file: entry.file,
    lineOf: (path) => lineOfKeyPath(entry.keyLines, path.slice(base.length)) ?? (entry.line || undefined),
  };
}

/** E_CONFIG_INVALID at `plugins.<name>.<key>` (the table itself without a key), in the file's words. */
export function entryProblem(entry: PluginEntry, key: string | undefined, detail: string): ForesightError {
  const path = key === undefined ? ['plugins', entry.name] : ['plugins', entry.name, key];
  return configProblemsError(entrySource(entry), [{ path, detail }]);
}

const didYouMean = (suggestion: string | undefined) =>
  suggestion === undefined ? '' : ` (did you mean ${JSON.stringify(suggestion)}?)`;

/** `use = "githib"`, or `[plugins.workspac]` with no `use`: the kind is not built in. */
export function unknownKindProblem(
  entry: PluginEntry,
  kind: string,
  known: readonly string[],
): ForesightError {
  const named = Object.hasOwn(entry.keyLines, 'use');
  return entryProblem(
    entry,
    named ? 'use' : undefined,
    `no built-in plugin is called ${JSON.stringify(kind)}${didYouMean(closestKey(kind, known))}; built-in plugins are: ${known.join(', ')}` +
      (named
        ? '; module = "path" loads your own'
        : `; set use = "<kind>" in the table, or module = "path" for your own`),
  );
}

/** The file nearest by name to a missing one, among the files of its directory (none when it cannot be read). */
function nearestSibling(missing: string, wantDirectory: boolean): string | undefined {
  try {
    const names = readdirSync(dirname(missing), { withFileTypes: true })
      .filter((dirent) => (wantDirectory ? dirent.isDirectory() : dirent.isFile()))
      .map((dirent) => dirent.name);
    return closestKey(basename(missing), names);
  } catch {
    return undefined;
  }
}

/**
 * What to say about a path the config names that does not exist: the nearest sibling, spelled the way the user
 * wrote the path (only the last segment replaced). Undefined when nothing is near enough.
 */
export function nearestPathHint(written: string, resolved: string, wantDirectory: boolean): string {
  const near = nearestSibling(resolved, wantDirectory);
  if (near === undefined) return '';
  const trimmed = written.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return didYouMean(`${trimmed.slice(0, cut + 1)}${near}`);
}

/** Two tables with one non-empty prefix: the later one is the problem, pointed at the first. */
export function duplicatePrefixProblems(entries: readonly PluginEntry[]): ForesightError | undefined {
  const firstWith = new Map<string, PluginEntry>();
  const taken = new Set(entries.filter((e) => e.enabled).map((e) => e.prefix));
  for (const entry of entries) {
    if (!entry.enabled || entry.prefix === '') continue;
    const first = firstWith.get(entry.prefix);
    if (first === undefined) {
      firstWith.set(entry.prefix, entry);
      continue;
    }
    const free = [entry.name, `${entry.prefix}2`, `${entry.name}2`].find((p) => !taken.has(p));
    const line = first.keyLines.prefix ?? first.line;
    const where = line ? ` (line ${line})` : '';
    return entryProblem(
      entry,
      'prefix',
      `prefix ${JSON.stringify(entry.prefix)} is already plugins.${first.name}'s${where}; their tools, prompts and resource schemes would collide; give this one its own${free === undefined ? '' : `, e.g. prefix = ${JSON.stringify(free)}`}`,
    );
  }
  return undefined;
}
