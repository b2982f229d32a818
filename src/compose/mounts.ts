// Config entries → mounts: each enabled [plugins.*] entry resolved to its plugin and checked options, then mounted.
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import {
  type PluginEntry,
  entryProblem,
  nearestPathHint,
  unknownKindProblem,
  validatePluginOptions,
} from '../config/index.js';
import type { Plugin } from '../contract/index.js';
import type { MountSpec, PluginHost } from '../host/index.js';
import { BUILTIN_KINDS, BUILTIN_PLUGINS } from '../plugins/index.js';

function isPluginObject(value: Plugin | MountSpec): value is Plugin {
  return typeof (value as Plugin).build === 'function';
}

/**
 * A path a plugin's table names must exist before the plugin is built, so the mistake is reported at its line
 * with the nearest name that does exist, not as the plugin's failure.
 */
async function expectPath(
  entry: PluginEntry,
  key: string,
  resolved: string,
  kind: 'file' | 'directory',
): Promise<void> {
  const found = await stat(resolved).catch(() => undefined);
  if (found && (kind === 'file' ? found.isFile() : found.isDirectory())) return;
  const relativePath = relative(entry.baseDir, resolved);
  const written =
    typeof entry.options[key] === 'string'
      ? entry.options[key]
      : relativePath.startsWith('..')
        ? resolved
        : `./${relativePath}`;
  const what = found ? `is not a ${kind}` : 'does not exist';
  throw entryProblem(
    entry,
    key,
    `${JSON.stringify(resolved)} ${what}${nearestPathHint(written, resolved, kind === 'directory')}`,
  );
}

/** Resolves one config entry into what the host mounts: the plugin, its validated options, its limits. */
export async function mountSpecFromEntry(entry: PluginEntry): Promise<MountSpec> {
  const base = {
    name: entry.name,
    prefix: entry.prefix,
    deadlines: entry.deadlinesMs,
    isolation: entry.isolation,
  };
  if (entry.origin.type === 'module') {
    await expectPath(entry, 'module', entry.origin.path, 'file');
    return { ...base, module: entry.origin.path, options: entry.options };
  }
  const builtin = BUILTIN_PLUGINS[entry.origin.kind];
  if (!builtin) throw unknownKindProblem(entry, entry.origin.kind, BUILTIN_KINDS);
  const loaded = await builtin.load();
  const prepared = builtin.prepareOptions
    ? builtin.prepareOptions(entry.options, entry.baseDir)
    : entry.options;
  for (const key of builtin.directoryOptions ?? [])
    if (typeof prepared[key] === 'string') await expectPath(entry, key, prepared[key], 'directory');
  const options = loaded.optionsSchema
    ? validatePluginOptions({ ...entry, options: prepared }, loaded.optionsSchema)
    : prepared;
  return { ...base, plugin: loaded.plugin, module: builtin.module.href, options };
}

/** Mounts every enabled config entry, in file order, then the further plugins (objects or specs) given. */
export async function mountAll(
  plugins: PluginHost,
  entries: readonly PluginEntry[],
  extras: readonly (Plugin | MountSpec)[],
): Promise<void> {
  for (const entry of entries) {
    if (entry.enabled) plugins.mount(await mountSpecFromEntry(entry));
  }
  for (const extra of extras) plugins.mount(isPluginObject(extra) ? { plugin: extra } : extra);
}
