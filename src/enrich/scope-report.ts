// What each [auth.scopes] glob guards. A glob that matches no listed tool guards nothing: a typo there would leave
// the tool it meant open to every valid token, so it is reported as a problem, like a tool rule that matches nothing.
import picomatch from 'picomatch';
import { formatKeyPath } from '../config/index.js';
import { type RuleReport, type Unseen, at, couldReach, describeUnseen, listOrNone } from './rule-reach.js';

/** One `[auth.scopes]` key: a glob over published tool names, and its line in the file (0 when none). */
export interface ScopeGlob {
  glob: string;
  line: number;
}

export interface ScopeGlobInput {
  /** How messages name the config: its path, or "(embedded default)". */
  file: string;
  globs: readonly ScopeGlob[];
  /** Published names of the tools listed now. */
  listed: ReadonlySet<string>;
  /** Plugins whose tools are not known now: a glob that may name theirs is not checked. */
  unseen: readonly Unseen[];
}

/** A glob that matches nothing: where it is written (`file:line`) and what is wrong, for a report or an error. */
export interface ScopeGlobProblem {
  where: string;
  what: string;
}

/** Adds a `matched` line per glob, and a problem (or an unchecked note) per glob that matches nothing. */
export function reportScopeGlobs(input: ScopeGlobInput, report: RuleReport): ScopeGlobProblem[] {
  const listed = [...input.listed];
  const problems: ScopeGlobProblem[] = [];
  for (const { glob, line } of input.globs) {
    const key = formatKeyPath(['auth', 'scopes', glob]);
    const matches = picomatch(glob);
    const matching = listed.filter((name) => matches(name));
    report.matched.push(`${key} (line ${line}): guards → ${listOrNone(matching)}`);
    if (matching.length > 0) continue;
    const reaches = input.unseen.filter((plugin) => couldReach(glob, plugin.prefix));
    if (reaches.length > 0) {
      report.unchecked.push(`${key} (line ${line}): ${describeUnseen(reaches)}`);
      continue;
    }
    const problem = {
      where: at(input.file, line),
      what: `${key}: glob matches no listed tool, so it guards nothing; write a published tool name or a glob over them (\`foresight tools\` lists them)`,
    };
    problems.push(problem);
    report.problems.push(`${problem.where}: ${problem.what}`);
  }
  return problems;
}
