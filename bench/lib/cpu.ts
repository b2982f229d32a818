// CPU time a child process has used, all threads summed, from Linux's /proc/<pid>/task/*/schedstat (nanoseconds).
// Unlike wall time it barely moves when other work shares the machine, so it isolates each server's own cost.
import { readFileSync, readdirSync } from 'node:fs';

/** Nanoseconds on CPU so far, or undefined where /proc is unavailable (not Linux, or the process is gone). */
export function processCpuNs(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let total = 0;
  for (const task of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between listing and reading; its time is lost either way.
    }
  }
  return total;
}

/** Adds one interval's CPU time to a running total; once any reading is missing the total stays unknown. */
export function addCpuNs(
  total: number | undefined,
  before: number | undefined,
  after: number | undefined,
): number | undefined {
  return total === undefined || before === undefined || after === undefined
    ? undefined
    : total + after - before;
}
