// The workspace plugin's options (its foresight.toml table): schema, defaults and parsing.
import * as z from 'zod';
import { errors } from '../../contract/index.js';
import { describeIssues } from './issues.js';

const KIB = 1024;
/** Upper bound for any result count, so a config typo cannot make one call return a whole disk. */
export const MAX_RESULTS_LIMIT = 5000;

export const WorkspaceOptionsSchema = z.strictObject({
  /** Default ".": resolved against the process's working directory when relative. */
  root: z
    .string()
    .min(1)
    .default('.')
    .describe('directory the plugin serves; relative paths resolve against the working directory'),
  /** Default false: a root that is or contains /proc or /sys (as "/" does) is refused at start. */
  allow_system_root: z
    .boolean()
    .default(false)
    .describe(
      'serve a root that is or contains /proc or /sys, such as "/"; the environment and memory of processes stay refused',
    ),
  /** Default 256 KiB: large enough for most source files, small enough for an agent's context. */
  max_read_bytes: z
    .number()
    .int()
    .min(KIB)
    .max(64 * KIB * KIB)
    .default(256 * KIB)
    .describe('most bytes read_file and file resources return in one answer'),
  /** Default 200: the default cap on glob paths, grep matches and directory entries. */
  max_results: z
    .number()
    .int()
    .min(1)
    .max(MAX_RESULTS_LIMIT)
    .default(200)
    .describe('default cap on paths, matches and entries one call returns'),
});
export type WorkspaceOptions = z.output<typeof WorkspaceOptionsSchema>;

/** A missing table means "all defaults", as when Foresight runs with no config file. */
export function parseWorkspaceOptions(config: unknown): WorkspaceOptions {
  const parsed = WorkspaceOptionsSchema.safeParse(config ?? {});
  if (!parsed.success) throw errors.configInvalid('workspace plugin options', describeIssues(parsed.error));
  return parsed.data;
}
