// Loads the config a command runs on, with a devboy-tools pipeline config laid beneath it when one is given.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type DevboyImport,
  type DevboyImportOptions,
  type ForesightConfig,
  type ImportNote,
  importDevboyConfig,
  loadConfig,
} from '../config/index.js';
import { describeThrown } from '../contract/index.js';
import { CliError } from './cli-error.js';

export interface CommonOptions {
  config?: string;
  /** A devboy-tools pipeline_config.toml whose planner settings lie beneath the config's own. */
  plannerConfig?: string;
  debug?: boolean;
  /** --log-level: over FORESIGHT_LOG_LEVEL, over the command's default. */
  logLevel?: string;
}

/** Where what an import could not map (warn) or renamed (note) is said: a line each, as text or a log record. */
export type ImportReport = (kind: 'note' | 'warn', line: string) => void;

const textReport: ImportReport = (kind, line) => process.stderr.write(`${kind}  ${line}\n`);

export async function load(
  options: CommonOptions,
  checkSecrets = true,
  report: ImportReport = textReport,
): Promise<ForesightConfig> {
  const beneath =
    options.plannerConfig === undefined
      ? undefined
      : (await readDevboy(options.plannerConfig, {}, report)).table;
  return loadConfig({
    file: options.config,
    cwd: process.cwd(),
    checkSecrets,
    ...(beneath === undefined ? {} : { beneath }),
  });
}

/** Reads and maps a devboy-tools pipeline config, listing on stderr what it could not map and what it renamed. */
export async function readDevboy(
  file: string,
  options: DevboyImportOptions,
  report: ImportReport = textReport,
): Promise<DevboyImport> {
  const path = resolve(process.cwd(), file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${describeThrown(error)}`, 1);
  }
  const imported = importDevboyConfig(text, path, options);
  const where = (note: ImportNote) => `${path}${note.line === undefined ? '' : `:${note.line}`}`;
  for (const note of imported.notes) report('note', `${where(note)}: ${note.key}: ${note.detail}`);
  for (const warning of imported.warnings)
    report('warn', `${where(warning)}: ${warning.key}: ${warning.detail}`);
  return imported;
}
