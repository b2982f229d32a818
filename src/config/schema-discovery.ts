// The [discovery] table: whether clients get every tool in tools/list, or search for the tools they need.
import picomatch from 'picomatch';
import * as z from 'zod';
import { closedTable, intBetween, listOf, oneOf } from './leaf-schemas.js';

/** What `mode` may say: every tool listed, search meta-tools, or search once the full list costs too much. */
export const DISCOVERY_MODES = ['all', 'search', 'auto'] as const;
export type DiscoveryModeSetting = (typeof DISCOVERY_MODES)[number];

/** Above this many tokens of the full tools/list, "auto" serves search; the issue's figure for a team config. */
export const DEFAULT_AUTO_TOKENS = 8_000;

export interface DiscoveryConfig {
  /** "all", "search" or "auto" (default; the embedded default config says "all"). */
  mode: DiscoveryModeSetting;
  /** Under "auto": search when the full tools/list would cost more tokens than this (o200k); default 8000. */
  autoTokens: number;
  /** Globs over published tool names (picomatch) whose tools are always listed in full; default none. */
  alwaysLoad: string[];
}

const GLOB_WHAT = 'a glob over published tool names such as "gh__*"';

/** A picomatch glob whose brackets, braces and parentheses close; `!` negation and whitespace refused. */
const ToolGlobSchema = z.string({ error: `expected ${GLOB_WHAT}` }).superRefine((glob, context) => {
  const why = globProblem(glob);
  if (why !== undefined) context.addIssue({ code: 'custom', message: `expected ${GLOB_WHAT}: ${why}` });
});

/** What is wrong with `glob`, or undefined when picomatch reads it as written. */
function globProblem(glob: string): string | undefined {
  if (glob === '') return 'this one is empty';
  if (/\s/.test(glob)) return 'tool names hold no whitespace';
  // "!x" would always load every tool but x: the tools to load are listed instead.
  if (glob.startsWith('!')) return '"!" negation is not allowed; list the tools to load';
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const DiscoveryConfigSchema = closedTable({
  mode: oneOf(DISCOVERY_MODES).default('auto'),
  auto_tokens: intBetween(0, 10_000_000).default(DEFAULT_AUTO_TOKENS),
  always_load: listOf(ToolGlobSchema, `an array of tool-name globs such as ["gh__*"]`).default([]),
}).transform((raw): DiscoveryConfig => ({
  mode: raw.mode,
  autoTokens: raw.auto_tokens,
  alwaysLoad: raw.always_load,
}));
