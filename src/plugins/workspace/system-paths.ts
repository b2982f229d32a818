// What a workspace never serves by accident: the system trees (/proc, /sys), and never at all: a process's
// environment or memory, where the tokens Foresight was started with can be read.
import { statfs } from 'node:fs/promises';
import path from 'node:path';

/** Trees that describe running processes and the kernel rather than hold anyone's files. */
export const SYSTEM_TREES = ['/proc', '/sys'] as const;

/** procfs's magic number (statfs f_type on Linux), whatever path it is mounted at. */
const PROC_SUPER_MAGIC = 0x9fa0;
/** /proc/<pid>/environ holds the environment (every *_env secret); /proc/<pid>/mem the memory they are copied into. */
const PROCESS_SECRET_NAMES = new Set(['environ', 'mem']);

/** True when the real path `root` is a system tree, lies in one, or contains one (as "/" does). */
export function reachesSystemTree(root: string): boolean {
  return SYSTEM_TREES.some((tree) => isWithin(root, tree) || isWithin(tree, root));
}

function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * True for the environ or mem file of any process or thread, known by the file system it lies on rather than by
 * its path, so /proc/self, /proc/thread-self, /proc/<pid>/task/<tid> and a procfs mounted elsewhere are all caught.
 * Any process, not only this one: the processes Foresight starts (upstream servers) inherit its environment.
 */
export async function isProcessSecret(real: string): Promise<boolean> {
  if (!PROCESS_SECRET_NAMES.has(path.basename(real))) return false;
  try {
    return (await statfs(real)).type === PROC_SUPER_MAGIC;
  } catch {
    // A file that cannot even be looked at is refused rather than guessed about.
    return true;
  }
}
