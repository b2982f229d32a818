// Confines every path a caller gives to the workspace root, symlinks included.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../../contract/index.js';
import { isProcessSecret, reachesSystemTree, SYSTEM_TREES } from './system-paths.js';

/** The root as the filesystem sees it (links resolved), so prefix checks compare real paths with real paths. */
export interface WorkspaceRoot {
  readonly real: string;
}

export interface ResolvedPath {
  /** Root-relative with '/' separators, '' for the root: what results show and callers pass back. */
  readonly rel: string;
  /** The real location after links, known to lie inside the root. */
  readonly real: string;
}

/** Missing-path codes: ELOOP counts too, since a link cycle leads nowhere a caller could read. */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

export function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && MISSING_CODES.has(String(error.code));
}

export function isDenied(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'EACCES' || error.code === 'EPERM');
}

/** `allowSystemRoot` (the allow_system_root option) lets the root be or contain a system tree such as /proc. */
export async function openRoot(configured: string, allowSystemRoot = false): Promise<WorkspaceRoot> {
  const absolute = path.resolve(configured);
  let real: string | undefined;
  try {
    real = await realpath(absolute);
    if (!(await stat(real)).isDirectory()) real = undefined;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (real === undefined)
    throw errors.configInvalid(
      'workspace plugin option root',
      `${JSON.stringify(absolute)} is not a directory`,
    );
  if (!allowSystemRoot && reachesSystemTree(real))
    throw errors.configInvalid(
      'workspace plugin option root',
      `${JSON.stringify(real)} is or contains ${SYSTEM_TREES.join(' or ')}, where processes' environments (with their tokens) can be read; serve a project directory, or set allow_system_root = true in the plugin's table to serve it anyway`,
    );
  return { real };
}

export function isInside(root: WorkspaceRoot, real: string): boolean {
  if (real === root.real) return true;
  const base = root.real.endsWith(path.sep) ? root.real : root.real + path.sep;
  return real.startsWith(base);
}

/**
 * Refuses absolute paths and any ".." segment outright, even ones that would come back inside:
 * a caller that writes ".." has misunderstood the root, and a plain refusal tells it so.
 */
export function normalizeRel(input: string): string {
  if (input.includes('\0'))
    throw errors.invalidArguments('path', `${JSON.stringify(input)} contains a NUL byte`);
  if (path.posix.isAbsolute(input) || path.win32.isAbsolute(input)) throw errors.pathOutsideRoot(input);
  const separators = process.platform === 'win32' ? /[\\/]/ : /\//;
  const segments = input.split(separators).filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw errors.pathOutsideRoot(input);
  return segments.join('/');
}

/** How a root-relative path reads in messages: the root itself is ".". */
export function displayPath(rel: string): string {
  return rel === '' ? '.' : rel;
}

export function joinRel(dirRel: string, name: string): string {
  return dirRel === '' ? name : `${dirRel}/${name}`;
}

/** The real path of `absolute` when it exists inside the root; undefined when it is missing or leaves. */
export async function realInside(root: WorkspaceRoot, absolute: string): Promise<string | undefined> {
  try {
    const real = await realpath(absolute);
    return isInside(root, real) ? real : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Resolves a caller's path to an existing location inside the root, or throws the error to show the caller. */
export async function resolveInRoot(root: WorkspaceRoot, input: string): Promise<ResolvedPath> {
  const rel = normalizeRel(input);
  const lexical = rel === '' ? root.real : path.join(root.real, ...rel.split('/'));
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    if (!isMissing(error)) throw error;
    // Say "outside" rather than "not found" when a link on the way leaves the root, so nothing is learnt about the outside.
    await assertAncestorsInside(root, lexical, input);
    throw errors.pathNotFound(input);
  }
  if (!isInside(root, real)) throw errors.pathOutsideRoot(input);
  if (await isProcessSecret(real)) throw errors.processSecretRefused(input);
  return { rel, real };
}

/** The nearest existing ancestor's real path stands for all of its own ancestors, so the walk stops there. */
async function assertAncestorsInside(root: WorkspaceRoot, lexical: string, input: string): Promise<void> {
  for (
    let dir = path.dirname(lexical);
    dir !== root.real && dir.length > root.real.length;
    dir = path.dirname(dir)
  ) {
    let real: string;
    try {
      real = await realpath(dir);
    } catch (error) {
      if (!isMissing(error)) throw error;
      continue;
    }
    if (!isInside(root, real)) throw errors.pathOutsideRoot(input);
    return;
  }
}
