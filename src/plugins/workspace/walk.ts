// Walks the files under a directory in path order, skipping ignored entries and links that leave the root.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { inheritedRules, rulesForChildren, type IgnoreRules } from './ignores.js';
import { isDenied, isMissing, joinRel, realInside, type ResolvedPath, type WorkspaceRoot } from './paths.js';
import { isProcessSecret } from './system-paths.js';

export interface WalkedFile {
  /** Root-relative path as the caller would name it (through links, not around them). */
  readonly rel: string;
  readonly real: string;
}

export async function sortedEntries(dirReal: string): Promise<Dirent[]> {
  const entries = await readdir(dirReal, { withFileTypes: true });
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A directory that vanished or cannot be read is skipped during a walk, as ripgrep does, not fatal. */
async function readDirForWalk(dirReal: string): Promise<Dirent[]> {
  try {
    return await sortedEntries(dirReal);
  } catch (error) {
    if (isMissing(error) || isDenied(error)) return [];
    throw error;
  }
}

export type LinkTarget = { real: string; kind: 'file' | 'dir' | 'other' };

/** What a link points at, when that lies inside the root; undefined for links that leave it or dangle. */
export async function linkTarget(root: WorkspaceRoot, linkReal: string): Promise<LinkTarget | undefined> {
  const real = await realInside(root, linkReal);
  if (real === undefined) return undefined;
  try {
    const stats = await stat(real);
    return { real, kind: stats.isFile() ? 'file' : stats.isDirectory() ? 'dir' : 'other' };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** A single named file as a walk of one, so callers treat "search this file" and "search this tree" alike. */
export async function* walkOne(file: WalkedFile): AsyncGenerator<WalkedFile> {
  yield file;
}

export async function* walkFiles(
  root: WorkspaceRoot,
  start: ResolvedPath,
  signal: AbortSignal,
): AsyncGenerator<WalkedFile> {
  yield* walkDir(root, start.rel, start.real, await inheritedRules(root, start.rel), signal);
}

async function* walkDir(
  root: WorkspaceRoot,
  dirRel: string,
  dirReal: string,
  inherited: IgnoreRules,
  signal: AbortSignal,
): AsyncGenerator<WalkedFile> {
  signal.throwIfAborted();
  const entries = await readDirForWalk(dirReal);
  const rules = await rulesForChildren(inherited, dirRel, dirReal, entries);
  for (const entry of entries) {
    const rel = joinRel(dirRel, entry.name);
    const real = path.join(dirReal, entry.name);
    if (entry.isDirectory()) {
      if (!rules.ignores(rel, true)) yield* walkDir(root, rel, real, rules, signal);
    } else if (entry.isFile()) {
      if (!rules.ignores(rel, false) && !(await isProcessSecret(real))) yield { rel, real };
    } else if (entry.isSymbolicLink() && !rules.ignores(rel, false)) {
      // Linked directories are not entered: their files are reachable by their own path, and links can cycle.
      const target = await linkTarget(root, real);
      if (target?.kind === 'file' && !(await isProcessSecret(target.real))) yield { rel, real: target.real };
    }
  }
}
