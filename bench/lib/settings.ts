// The bench's shared knobs (the tools/list comparison, which Foresight build, CPU profiling): defaults that finish
// in seconds, each overridable by an environment variable. The other parts have settings modules of their own.
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BENCH_PARTS, type BenchPart } from './inputs.js';
import { ROOT } from './root.js';

export interface BenchSettings {
  /** Measured tools/list per side, alternating. BENCH_LIST_CALLS, default 50. */
  listCalls: number;
  /** Plugins (Foresight) or prefixes (raw) in the tools/list comparison. BENCH_LIST_PLUGINS, default 10. */
  listPlugins: number;
  /** Tools per plugin in the tools/list comparison. BENCH_LIST_TOOLS, default 50. */
  listToolsPerPlugin: number;
  /** The Foresight CLI to serve side B. BENCH_FORESIGHT_CLI, default dist/cli/main.js (e.g. another branch's build). */
  foresightCli: string;
  /** When set, both servers run with `node --cpu-prof` and write their profiles here. BENCH_CPU_PROF. */
  cpuProfileDir?: string;
}

/** The positive integer in environment variable `name`, or `fallback` when it is unset or empty. */
export function positiveInt(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got "${text}"`);
  return value;
}

export function readSettings(): BenchSettings {
  return {
    listCalls: positiveInt('BENCH_LIST_CALLS', 50),
    listPlugins: positiveInt('BENCH_LIST_PLUGINS', 10),
    listToolsPerPlugin: positiveInt('BENCH_LIST_TOOLS', 50),
    foresightCli: resolve(ROOT, process.env.BENCH_FORESIGHT_CLI || 'dist/cli/main.js'),
    ...(process.env.BENCH_CPU_PROF ? { cpuProfileDir: resolve(process.env.BENCH_CPU_PROF) } : {}),
  };
}

/** The folder one server's threads write their CPU profiles to, before `collectMainThreadProfiles`. */
const PROFILE_FOLDER_SUFFIX = '.threads';

/**
 * Node flags for one server: none, or CPU profiles in a folder named for the side and the phase. Not one
 * `--cpu-prof-name`: every thread writes its profile under that name, and Foresight's module hook runs a loader
 * thread whose profile, written last, replaced the main thread's. Node's default names carry the thread id.
 */
export function nodeFlags(settings: BenchSettings, name: string): string[] {
  const dir = settings.cpuProfileDir;
  if (dir === undefined) return [];
  return [
    '--cpu-prof',
    `--cpu-prof-dir=${join(dir, name + PROFILE_FOLDER_SUFFIX)}`,
    '--cpu-prof-interval=100',
  ];
}

/**
 * Moves each server's main-thread profile (thread id 0, the largest when there are several; in Node's default name `CPU.<date>.<time>.<pid>.<tid>.<seq>`)
 * to `<name>.cpuprofile` in `dir`, the name the docs and `profile-areas.ts` use, and drops the other threads'.
 */
export async function collectMainThreadProfiles(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.endsWith(PROFILE_FOLDER_SUFFIX)) continue;
    const folder = join(dir, entry.name);
    // A modern stdio client probes with a short-lived sibling process first (server/discover): of several
    // main-thread profiles in one folder, the largest is the server that was measured.
    const mains = (await readdir(folder)).filter((file) => file.split('.')[4] === '0');
    const sizes = await Promise.all(mains.map(async (file) => (await stat(join(folder, file))).size));
    const main = mains[sizes.indexOf(Math.max(...sizes))];
    if (main !== undefined)
      await rename(
        join(folder, main),
        join(dir, `${entry.name.slice(0, -PROFILE_FOLDER_SUFFIX.length)}.cpuprofile`),
      );
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * The parts to run, in bench order: BENCH_ONLY names them, comma-separated (eras, oauth, list, upstream,
 * enrichment, tokens, discovery, planner, cluster); unset, every part, both planner replays (planner, cluster) left out when
 * BENCH_SKIP_PLANNER=1 and the cluster replay (it needs Redis) when BENCH_SKIP_CLUSTER=1.
 */
export function readParts(): BenchPart[] {
  const only = process.env.BENCH_ONLY;
  if (only === undefined || only.trim() === '')
    return BENCH_PARTS.filter((part) => {
      if (part === 'planner' || part === 'cluster') return process.env.BENCH_SKIP_PLANNER !== '1';
      return true;
    }).filter((part) => part !== 'cluster' || process.env.BENCH_SKIP_CLUSTER !== '1');
  const names = only.split(',').map((name) => name.trim());
  const known = (name: string): name is BenchPart => (BENCH_PARTS as readonly string[]).includes(name);
  if (!names.every(known))
    throw new Error(
      `BENCH_ONLY takes part names, comma-separated (${BENCH_PARTS.join(', ')}), got "${only}"`,
    );
  return BENCH_PARTS.filter((part) => names.includes(part));
}

/** Where each finished part is merged. BENCH_RESULTS, default bench/results/latest.json (relative to the repo root). */
export function resultsFile(): string {
  return resolve(ROOT, process.env.BENCH_RESULTS || 'bench/results/latest.json');
}
