// Assembles a ForesightConfig from a validated file: plugin names, origins, lines and the base directory.
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { duplicatePrefixProblems } from './entry-problems.js';
import { keyLinesUnder, lineOfKeyPath, type KeyLines } from './key-path.js';
import type { AuthConfig } from './schema-auth.js';
import type { ConfigFile } from './schema-file.js';
import type { PluginSettings } from './schema-plugin.js';
import { withLinkProbabilities } from './schema-tools.js';
import type { ForesightConfig, PluginEntry, PluginOrigin } from './types.js';

export interface BuildContext {
  /** The config file, undefined for the embedded default. */
  file: string | undefined;
  baseDir: string;
  keyLines: KeyLines;
}

export function buildConfig(parsed: ConfigFile, context: BuildContext): ForesightConfig {
  const { file, baseDir, keyLines } = context;
  const plugins = Object.entries(parsed.plugins).map(([name, settings]) =>
    buildPluginEntry(name, settings, context),
  );
  const duplicate = duplicatePrefixProblems(plugins);
  if (duplicate) throw duplicate;
  return {
    ...(file === undefined ? {} : { file }),
    baseDir,
    server: parsed.server,
    ...(parsed.auth === undefined ? {} : { auth: withScopeLines(parsed.auth, keyLines) }),
    plugins,
    enrich: parsed.enrich.map((rule, index) => ({
      ...rule,
      line: lineOfKeyPath(keyLines, ['enrich', index]) ?? 0,
    })),
    format: parsed.format,
    planner:
      parsed.planner.stateFile === undefined
        ? parsed.planner
        : { ...parsed.planner, stateFile: resolve(baseDir, parsed.planner.stateFile) },
    discovery: parsed.discovery,
    tools: Object.fromEntries(
      Object.entries(parsed.tools).map(([name, block]) => [
        name,
        withLinkProbabilities(block, parsed.planner.defaultFollowupProbability),
      ]),
    ),
    audit:
      parsed.audit.file === undefined
        ? parsed.audit
        : { ...parsed.audit, file: resolve(baseDir, parsed.audit.file) },
    ...(parsed.cluster === undefined ? {} : { cluster: parsed.cluster }),
  };
}

/** Each [auth.scopes] entry with its line, so a glob that matches no tool is reported where it is written. */
function withScopeLines(auth: AuthConfig, keyLines: KeyLines): AuthConfig {
  if (!auth.toolScopes) return auth;
  return {
    ...auth,
    toolScopes: auth.toolScopes.map((rule) => ({
      ...rule,
      line: lineOfKeyPath(keyLines, ['auth', 'scopes', rule.glob]) ?? 0,
    })),
  };
}

export function buildPluginEntry(name: string, settings: PluginSettings, context: BuildContext): PluginEntry {
  const { file, baseDir, keyLines } = context;
  const path = ['plugins', name];
  return {
    name,
    origin: pluginOrigin(name, settings, baseDir),
    prefix: settings.prefix ?? name,
    enabled: settings.enabled,
    deadlinesMs: settings.deadlinesMs,
    isolation: settings.isolation,
    cache: settings.cache,
    tools: settings.tools,
    options: settings.options,
    ...(file === undefined ? {} : { file }),
    line: lineOfKeyPath(keyLines, path) ?? 0,
    keyLines: keyLinesUnder(keyLines, path),
    baseDir,
  };
}

function pluginOrigin(name: string, settings: PluginSettings, baseDir: string): PluginOrigin {
  if (settings.module === undefined) return { type: 'builtin', kind: settings.use ?? name };
  const { module } = settings;
  if (module.startsWith('file:')) return { type: 'module', path: fileURLToPath(module) };
  return { type: 'module', path: isAbsolute(module) ? module : resolve(baseDir, module) };
}
