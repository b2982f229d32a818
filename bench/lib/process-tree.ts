// A server's own child processes, from Linux's /proc: a proxy's upstream is a child (or grandchild) of the
// process the bench talks to, and its CPU time and liveness are read through its pid.
import { readFileSync, readdirSync } from 'node:fs';

/** The pids of `pid`'s direct children (all threads' children); empty off Linux or once it has exited. */
export function childPids(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  for (const task of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text !== '') children.push(...text.split(' ').map(Number));
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return children;
}

/** The command line of `pid`, arguments joined by spaces; undefined where it cannot be read. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

/** The first descendant of `pid` (breadth first) whose command line contains `needle`. */
export function findDescendant(pid: number | undefined, needle: string): number | undefined {
  if (pid === undefined) return undefined;
  const queue = childPids(pid);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (commandLine(next)?.includes(needle)) return next;
    queue.push(...childPids(next));
  }
  return undefined;
}
