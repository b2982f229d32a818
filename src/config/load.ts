// Finds and reads the config file (--config PATH, else ./foresight.toml), or falls back to the embedded default.
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describeThrown, errors } from '../contract/index.js';
import { type BeneathTables, layBeneath } from './beneath.js';
import { buildConfig } from './build.js';
import { createKeyLines } from './key-path.js';
import { parseConfig } from './parse.js';
import { configProblemsError, fileSource, problemsFromIssues } from './problems.js';
import { ConfigFileSchema } from './schema-file.js';
import type { ForesightConfig } from './types.js';

export const CONFIG_FILE_NAME = 'foresight.toml';

export interface LoadConfigOptions {
  /** An explicit config file (relative to cwd); it must exist. Default: cwd/foresight.toml if present. */
  file?: string;
  /** Directory searched for foresight.toml, and the workspace root of the embedded default. */
  cwd: string;
  /** Where secrets and the auth token variable are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** False skips the checks that named secrets are set: for commands that start no plugin. Default true. */
  checkSecrets?: boolean;
  /** `[planner]` and `[tools."…"]` tables from another file (`--planner-config`), beneath the config's own keys. */
  beneath?: BeneathTables;
}

export async function loadConfig(options: LoadConfigOptions): Promise<ForesightConfig> {
  const { cwd, env = process.env } = options;
  const parseOptions = {
    checkSecrets: options.checkSecrets ?? true,
    ...(options.beneath === undefined ? {} : { beneath: options.beneath }),
  };
  if (options.file !== undefined) {
    const file = resolve(cwd, options.file);
    const text = await readConfigText(file);
    if (text === undefined) throw errors.configFileMissing(file);
    return parseConfig(text, file, dirname(file), env, parseOptions);
  }
  const file = join(resolve(cwd), CONFIG_FILE_NAME);
  const text = await readConfigText(file);
  return text === undefined
    ? defaultConfig(cwd, options.beneath)
    : parseConfig(text, file, dirname(file), env, parseOptions);
}

/**
 * With no file: the workspace plugin serving `cwd`, every tool listed (its few tools cost less than a search
 * round), everything else at its default.
 */
export function defaultConfig(cwd: string, beneath?: BeneathTables): ForesightConfig {
  const root = resolve(cwd);
  const own = { plugins: { workspace: { root } }, discovery: { mode: 'all' } };
  const table = beneath === undefined ? own : layBeneath(own, beneath);
  const result = ConfigFileSchema.safeParse(table, { reportInput: true });
  // Only a broken build could make the embedded table invalid; report it the same way as a file.
  if (!result.success) {
    throw configProblemsError(
      fileSource(undefined, {}),
      problemsFromIssues(result.error.issues, ConfigFileSchema),
    );
  }
  return buildConfig(result.data, { file: undefined, baseDir: root, keyLines: createKeyLines() });
}

/** The file's text, or undefined when there is no such file. */
async function readConfigText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isErrnoException(error) && error.code === 'ENOENT') return undefined;
    throw errors.configUnreadable(file, describeThrown(error));
  }
}

function isErrnoException(value: unknown): value is NodeJS.ErrnoException {
  return value instanceof Error && 'code' in value;
}
