// The planner's learned state on disk: its format, and a store that several Foresight processes can share.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { COUNTER_NAMES, type PlannerCounters, zeroCounters } from './counters.js';
import { plannerStateFile } from './data-dir.js';

/** One tool's learned facts: how often the agent called it, and its auto-off ring (as target of follow-ups). */
export interface LearnedToolState {
  /** Agent calls of the tool (not speculative ones). */
  calls: number;
  /** The last outcomes of its speculative sets, oldest first: true = the agent used it. Absent = none yet. */
  ring?: boolean[];
  /** True while speculation for the tool is switched off; absent = on. */
  off?: boolean;
}

/** One follow-up edge `from → to`: how often the agent really went there, and how the planned sets fared. */
export interface LearnedEdgeState {
  from: string;
  to: string;
  /** Set for a link the planner adds itself (`listing`), learned apart from the value model's links to `to`. */
  via?: string;
  /** The follow-up graph's probability for the link when last planned; 0 for a link the graph lacks. */
  prior: number;
  /** Windows of `from` in which the agent called `to` (at most one per call of `from`). */
  followed: number;
  /** Planned sets by position (0, 1, 2) whose window closed. */
  offered: number[];
  /** Of those, the sets the agent called with the same arguments within the window. */
  matched: number[];
}

/** The file's content, version 1. Every count is additive across processes; rings, off flags and priors are not. */
export interface LearnedState {
  version: 1;
  /** ISO 8601 time of the last save. */
  savedAt: string;
  counters: PlannerCounters;
  tools: Record<string, LearnedToolState>;
  edges: LearnedEdgeState[];
}

const count = z.int().nonnegative();
// Counters a later version adds are missing from older files: they read as 0.
const amount = z.number().nonnegative().default(0);
const counterShape = Object.fromEntries(COUNTER_NAMES.map((name) => [name, amount])) as Record<
  (typeof COUNTER_NAMES)[number],
  typeof amount
>;

const LearnedStateSchema = z.object({
  version: z.literal(1),
  savedAt: z.string(),
  counters: z.object(counterShape),
  tools: z.record(
    z.string(),
    z.object({ calls: count, ring: z.array(z.boolean()).optional(), off: z.boolean().optional() }),
  ),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      via: z.string().optional(),
      prior: z.number().min(0).max(1),
      followed: count,
      offered: z.array(count),
      matched: z.array(count),
    }),
  ),
}) satisfies z.ZodType<LearnedState, unknown>;

/** A state with nothing learned yet. */
export function emptyLearnedState(savedAt = new Date(0).toISOString()): LearnedState {
  return { version: 1, savedAt, counters: zeroCounters(), tools: {}, edges: [] };
}

/** The state in `text`, or why it is not one (bad JSON, another version, a bad field). */
export function parseLearnedState(text: string): { state: LearnedState } | { problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (version !== 1)
    return { problem: `version ${JSON.stringify(version)} is not 1, the one this Foresight reads` };
  const result = LearnedStateSchema.safeParse(data);
  if (result.success) return { state: result.data };
  const issue = result.error.issues[0];
  const where = issue?.path.map(String).join('.') || 'the top level';
  return { problem: `${where}: ${issue?.message ?? 'invalid'}` };
}

export function addCounters(a: PlannerCounters, b: PlannerCounters): PlannerCounters {
  const sum = zeroCounters();
  for (const name of COUNTER_NAMES) sum[name] = a[name] + b[name];
  return sum;
}

/** `a − b` per counter, never below 0 (a count cannot shrink; a smaller one means a reset, not a refund). */
export function subtractCounters(a: PlannerCounters, b: PlannerCounters): PlannerCounters {
  const difference = zeroCounters();
  for (const name of COUNTER_NAMES) difference[name] = Math.max(0, a[name] - b[name]);
  return difference;
}

const grown = (now: number, then: number | undefined) => Math.max(0, now - (then ?? 0));

function addedArrays(disk: readonly number[], own: readonly number[], base: readonly number[]): number[] {
  const length = Math.max(disk.length, own.length);
  return Array.from({ length }, (_, i) => (disk[i] ?? 0) + grown(own[i] ?? 0, base[i]));
}

/** One string per edge (from, to, via): tool names never hold NUL, so the parts cannot run together. */
export function edgeKey(from: string, to: string, via?: string): string {
  return via === undefined ? `${from}\u0000${to}` : `${from}\u0000${to}\u0000${via}`;
}

const keyOf = (edge: { from: string; to: string; via?: string }) => edgeKey(edge.from, edge.to, edge.via);

function sameTool(a: LearnedToolState | undefined, b: LearnedToolState | undefined): boolean {
  return (
    JSON.stringify([a?.ring ?? [], a?.off ?? false]) === JSON.stringify([b?.ring ?? [], b?.off ?? false])
  );
}

/**
 * What to write when `disk` is on disk, this process holds `own`, and held `base` at its last save:
 * every count is the disk's plus what this process counted since (`own − base`); a ring, off flag or
 * prior this process changed since `base` replaces the disk's, one it did not change keeps the disk's
 * (another process may have moved it).
 */
export function mergeLearnedState(
  disk: LearnedState,
  own: LearnedState,
  base: LearnedState,
  savedAt: string,
): LearnedState {
  const tools: Record<string, LearnedToolState> = {};
  for (const name of new Set([...Object.keys(disk.tools), ...Object.keys(own.tools)])) {
    const [onDisk, mine, before] = [disk.tools[name], own.tools[name], base.tools[name]];
    const keepMine = mine !== undefined && (onDisk === undefined || !sameTool(mine, before));
    const flags = keepMine ? mine : onDisk;
    tools[name] = {
      calls: (onDisk?.calls ?? 0) + grown(mine?.calls ?? 0, before?.calls),
      ...(flags?.ring === undefined ? {} : { ring: [...flags.ring] }),
      ...(flags?.off === true ? { off: true } : {}),
    };
  }
  const baseEdges = new Map(base.edges.map((edge) => [keyOf(edge), edge]));
  const ownEdges = new Map(own.edges.map((edge) => [keyOf(edge), edge]));
  const edges: LearnedEdgeState[] = [];
  for (const onDisk of disk.edges) {
    const mine = ownEdges.get(keyOf(onDisk));
    ownEdges.delete(keyOf(onDisk));
    if (mine === undefined) {
      edges.push({ ...onDisk, offered: [...onDisk.offered], matched: [...onDisk.matched] });
      continue;
    }
    const before = baseEdges.get(keyOf(onDisk));
    edges.push({
      from: onDisk.from,
      to: onDisk.to,
      ...(onDisk.via === undefined ? {} : { via: onDisk.via }),
      prior: before === undefined || mine.prior !== before.prior ? mine.prior : onDisk.prior,
      followed: onDisk.followed + grown(mine.followed, before?.followed),
      offered: addedArrays(onDisk.offered, mine.offered, before?.offered ?? []),
      matched: addedArrays(onDisk.matched, mine.matched, before?.matched ?? []),
    });
  }
  // Edges only this process knows: what it counted since its base (the rest was on disk once and was dropped there).
  const none: LearnedEdgeState = { from: '', to: '', prior: 0, followed: 0, offered: [], matched: [] };
  for (const mine of ownEdges.values()) {
    const before = baseEdges.get(keyOf(mine)) ?? none;
    edges.push({
      from: mine.from,
      to: mine.to,
      ...(mine.via === undefined ? {} : { via: mine.via }),
      prior: mine.prior,
      followed: grown(mine.followed, before.followed),
      offered: addedArrays([], mine.offered, before.offered),
      matched: addedArrays([], mine.matched, before.matched),
    });
  }
  const counters = addCounters(disk.counters, subtractCounters(own.counters, base.counters));
  return { version: 1, savedAt, counters, tools, edges };
}

/** What this process saves: its own counters since it started, and its learner's state. */
export interface OwnPlannerState {
  /** Counted by this process since it started (from `zeroCounters()`), not seeded from the file. */
  counters: PlannerCounters;
  /** `TransitionLearner.toState()` of a learner built from what `load()` returned; its `counters` are ignored. */
  learned: LearnedState;
}

export interface PlannerStateStoreOptions {
  /** The state file. Default `plannerStateFile()`. */
  file?: string;
  /** Told, in one sentence naming the file, about an unusable file or a failed save. Default: ignored. */
  onWarning?(message: string): void;
  /** Clock for `savedAt`, in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** How long a save waits for another process's save to finish before giving up until the next one. Default 2000. */
  lockWaitMs?: number;
  /** A lock older than this was left by a process that died mid-save and is removed. Default 10000. */
  staleLockMs?: number;
}

type Read =
  | { kind: 'missing' }
  | { kind: 'state'; state: LearnedState }
  | { kind: 'bad'; problem: string }
  | { kind: 'unreadable'; problem: string };

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Loads and saves the planner's state file. Processes sharing the file each add only what they counted
 * since their last save: a save takes a lock file next to the state, re-reads it, merges
 * (`mergeLearnedState`), and replaces it atomically (a temp file in the same directory, renamed). Saves
 * of one store run one after another. Nothing here throws for I/O: failures go to `onWarning`, because
 * a read-only disk must not stop the server.
 */
export class PlannerStateStore {
  readonly file: string;
  private readonly warn: (message: string) => void;
  private readonly now: () => number;
  private readonly lockWaitMs: number;
  private readonly staleLockMs: number;
  /** What this process held at its last save (or load): the point its next deltas count from. */
  private base: LearnedState = emptyLearnedState();
  private queue: Promise<void> = Promise.resolve();

  constructor(options: PlannerStateStoreOptions = {}) {
    this.file = options.file ?? plannerStateFile();
    this.warn = options.onWarning ?? (() => {});
    this.now = options.now ?? Date.now;
    this.lockWaitMs = options.lockWaitMs ?? 2000;
    this.staleLockMs = options.staleLockMs ?? 10_000;
  }

  /**
   * The saved state, or undefined for a fresh start: no file (silently), or a file that cannot be read
   * or used (with a warning; a bad one is moved aside at the next save). Call it once, before building
   * the learner from its answer: later saves count from it.
   */
  async load(): Promise<LearnedState | undefined> {
    const read = await this.read();
    if (read.kind === 'state') {
      // Counters are counted from zero by each process (see OwnPlannerState), so they start from zero here.
      this.base = { ...structuredClone(read.state), counters: zeroCounters() };
      return read.state;
    }
    if (read.kind === 'bad')
      this.warn(
        `planner state ${this.file} is not usable (${read.problem}); starting fresh, and the next save moves it to ${this.file}.bad`,
      );
    if (read.kind === 'unreadable')
      this.warn(`planner state ${this.file} cannot be read (${read.problem}); starting fresh`);
    return undefined;
  }

  /** Adds what this process counted since its last save to the file. Resolves when done; never rejects. */
  save(own: OwnPlannerState): Promise<void> {
    let mine: LearnedState;
    try {
      // A snapshot now: the caller goes on counting while the save waits its turn.
      mine = { ...structuredClone(own.learned), counters: { ...own.counters } };
    } catch (error) {
      this.warn(`planner state not saved to ${this.file}: ${describe(error)}`);
      return Promise.resolve();
    }
    const run = this.queue.then(() => this.saveNow(mine));
    this.queue = run;
    return run;
  }

  private async saveNow(mine: LearnedState): Promise<void> {
    try {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const release = await this.lock();
      if (release === undefined) {
        this.warn(
          `planner state not saved to ${this.file}: another process held ${this.file}.lock for ${this.lockWaitMs} ms; the counts wait for the next save`,
        );
        return;
      }
      try {
        const read = await this.read();
        if (read.kind === 'unreadable') {
          // Writing now would replace counts we could not read.
          this.warn(`planner state not saved to ${this.file}: it cannot be read (${read.problem})`);
          return;
        }
        if (read.kind === 'bad') {
          await rename(this.file, `${this.file}.bad`);
          this.warn(
            `planner state ${this.file} was not usable (${read.problem}); moved it to ${this.file}.bad`,
          );
        }
        const disk = read.kind === 'state' ? read.state : emptyLearnedState();
        const merged = mergeLearnedState(disk, mine, this.base, new Date(this.now()).toISOString());
        await this.writeAtomically(`${JSON.stringify(merged)}\n`);
        this.base = mine;
      } finally {
        await release();
      }
    } catch (error) {
      this.warn(`planner state not saved to ${this.file}: ${describe(error)}`);
    }
  }

  private async read(): Promise<Read> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { kind: 'missing' };
      return { kind: 'unreadable', problem: describe(error) };
    }
    const parsed = parseLearnedState(text);
    return 'state' in parsed
      ? { kind: 'state', state: parsed.state }
      : { kind: 'bad', problem: parsed.problem };
  }

  /** Takes `<file>.lock` (created exclusively), or undefined when another process keeps it past lockWaitMs. */
  private async lock(): Promise<(() => Promise<void>) | undefined> {
    const lockFile = `${this.file}.lock`;
    const deadline = Date.now() + this.lockWaitMs;
    for (;;) {
      try {
        const handle = await open(lockFile, 'wx', 0o600);
        await handle.close();
        return () => unlink(lockFile).catch(() => {});
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const held = await stat(lockFile).catch(() => undefined);
      // Two processes may both find a stale lock and remove it; the rename keeps the file whole either way.
      if (held !== undefined && Date.now() - held.mtimeMs > this.staleLockMs) {
        await unlink(lockFile).catch(() => {});
        continue;
      }
      if (Date.now() >= deadline) return undefined;
      await pause(25);
    }
  }

  private async writeAtomically(text: string): Promise<void> {
    const temp = path.join(
      path.dirname(this.file),
      `.${path.basename(this.file)}.${process.pid}.${randomUUID()}.tmp`,
    );
    try {
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, this.file);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
  }
}
