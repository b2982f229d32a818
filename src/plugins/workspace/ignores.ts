// Git-style ignore rules: .git and node_modules always, then every .gitignore from the root down.
import type { Dirent } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';
import { isMissing, joinRel, type WorkspaceRoot } from './paths.js';

const ALWAYS_IGNORED = new Set(['.git', 'node_modules']);

interface Level {
  /** Root-relative directory holding the .gitignore ('' for the root); its patterns are relative to it. */
  readonly base: string;
  readonly rules: ignore.Ignore;
}

export class IgnoreRules {
  static readonly none = new IgnoreRules([]);

  private constructor(private readonly levels: readonly Level[]) {}

  withGitignore(base: string, text: string): IgnoreRules {
    return new IgnoreRules([...this.levels, { base, rules: ignore().add(text) }]);
  }

  /** `rel` is root-relative and lies below every level's base, as the walk guarantees. */
  ignores(rel: string, isDir: boolean): boolean {
    if (ALWAYS_IGNORED.has(rel.slice(rel.lastIndexOf('/') + 1))) return true;
    // As in git, a deeper .gitignore overrides a shallower one: the deepest level with a verdict wins.
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const { base, rules } = this.levels[i]!;
      const local = base === '' ? rel : rel.slice(base.length + 1);
      const verdict = rules.test(isDir ? `${local}/` : local);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}

/** Only a regular file counts: a .gitignore that is a link could point outside the root. */
async function readGitignore(dirReal: string): Promise<string | undefined> {
  const file = path.join(dirReal, '.gitignore');
  try {
    if (!(await lstat(file)).isFile()) return undefined;
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Rules for the children of a directory, from those its parent passes down plus its own .gitignore. */
export async function rulesForChildren(
  inherited: IgnoreRules,
  dirRel: string,
  dirReal: string,
  entries: readonly Dirent[],
): Promise<IgnoreRules> {
  if (!entries.some((e) => e.name === '.gitignore' && e.isFile())) return inherited;
  const text = await readGitignore(dirReal);
  return text === undefined ? inherited : inherited.withGitignore(dirRel, text);
}

/** Rules a directory inherits from the .gitignore files of its ancestors, the root's included. */
export async function inheritedRules(root: WorkspaceRoot, dirRel: string): Promise<IgnoreRules> {
  if (dirRel === '') return IgnoreRules.none;
  let rules = IgnoreRules.none;
  let ancestor = '';
  for (const segment of ['', ...dirRel.split('/').slice(0, -1)]) {
    ancestor = segment === '' ? ancestor : joinRel(ancestor, segment);
    const text = await readGitignore(path.join(root.real, ...ancestor.split('/')));
    if (text !== undefined) rules = rules.withGitignore(ancestor, text);
  }
  return rules;
}
