// The planner's learned state on disk: its format, and a store that several Foresight processes can share.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type PlannerCounters, zeroCounters } from './counters.js';
import { plannerStateFile } from './data-dir.js';
import {
  DEFAULT_MAX_PRINCIPALS,
  type LearnedState,
  emptyLearnedState,
  mergeLearnedState,
  parseLearnedState,
} from './learned-state.js';

/** What this process saves: its own counters since it started, and its learner's state. */
export interface OwnPlannerState {
  /** Counted by this process since it started (from `zeroCounters()`), not seeded from the file. */
  counters: PlannerCounters;
  /**
   * `LearnerPool.toState()` of a pool built from what `load()` returned; its top-level `counters` are ignored,
   * each principal's are counted by this process since it started (like `counters`).
   */
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
  /** Principals kept in the file; the least recently seen go first. Default DEFAULT_MAX_PRINCIPALS (1,000). */
  maxPrincipals?: number;
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
  private readonly maxPrincipals: number;
  /** What this process held at its last save (or load): the point its next deltas count from. */
  private base: LearnedState = emptyLearnedState();
  private queue: Promise<void> = Promise.resolve();

  constructor(options: PlannerStateStoreOptions = {}) {
    this.file = options.file ?? plannerStateFile();
    this.warn = options.onWarning ?? (() => {});
    this.now = options.now ?? Date.now;
    this.lockWaitMs = options.lockWaitMs ?? 2000;
    this.staleLockMs = options.staleLockMs ?? 10_000;
    this.maxPrincipals = options.maxPrincipals ?? DEFAULT_MAX_PRINCIPALS;
  }

  /**
   * The saved state, or undefined for a fresh start: no file (silently), or a file that cannot be read
   * or used (with a warning; a bad one is moved aside at the next save). Call it once, before building
   * the learner from its answer: later saves count from it.
   */
  async load(): Promise<LearnedState | undefined> {
    const read = await this.read();
    if (read.kind === 'state') {
      // Counters are counted from zero by each process (see OwnPlannerState), so they start from zero here; so do
      // each principal's (LearnerPool counts them from zero too).
      const base = structuredClone(read.state);
      for (const entry of Object.values(base.principals)) delete entry.counters;
      this.base = { ...base, counters: zeroCounters() };
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
        const merged = mergeLearnedState(
          disk,
          mine,
          this.base,
          new Date(this.now()).toISOString(),
          this.maxPrincipals,
        );
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
