// What the config's tool checks share: which plugins' tools are unknown now (so globs that may name them are not
// checked), whether a glob may reach a plugin's tools, and how findings name places and lists.
import type { PluginEntry } from '../config/index.js';
import type { MountedPlugin } from '../host/index.js';

/** What the config's tool checks found, as lines a person reads. */
export interface RuleReport {
  /** A line per rule saying what it matched: `[[enrich]] #2 (line 14): drop → fs__write_file, fs__delete_file`. */
  matched: string[];
  /** Each rule, glob or parameter name that matches nothing, as `<file>:<line>: …`. */
  problems: string[];
  /** Checks left out because a plugin that is not ready (or is disabled) may hold what they name. */
  unchecked: string[];
}

/** A plugin whose tools are not all known: what could name its tools is not checked. */
export interface Unseen {
  name: string;
  prefix: string;
  why: string;
}

export function unseenPlugins({
  tables,
  mounted,
}: {
  tables: readonly PluginEntry[];
  mounted: readonly MountedPlugin[];
}): Unseen[] {
  const found: Unseen[] = mounted
    // A degraded plugin serves all its tools (with plainer schemas): what names them can be checked.
    .filter((plugin) => plugin.health.state !== 'ready' && plugin.health.state !== 'degraded')
    .map((plugin) => ({ name: plugin.name, prefix: plugin.prefix, why: plugin.health.state }));
  for (const table of tables)
    if (!table.enabled) found.push({ name: table.name, prefix: table.prefix, why: 'disabled' });
  return found;
}

export function at(file: string, line: number | undefined): string {
  return line ? `${file}:${line}` : file;
}

/**
 * Whether a glob may match a tool published behind `prefix`: judged by its literal start, since the plugin's
 * tools are unknown. A prefix-less plugin may publish any name.
 */
export function couldReach(glob: string, prefix: string): boolean {
  if (prefix === '') return true;
  const literal = /^[^*?[\]{}()!+@\\]*/.exec(glob)?.[0] ?? '';
  const head = `${prefix}__`;
  return literal.startsWith(head) || head.startsWith(literal);
}

export function describeUnseen(plugins: readonly Unseen[]): string {
  return `not checked: ${plugins.map((plugin) => `plugin ${plugin.name} is ${plugin.why}`).join(', ')}`;
}

export function listOrNone(names: readonly string[]): string {
  return names.length > 0 ? names.join(', ') : 'nothing';
}
