// The planner's state file: where it lives per platform, the round trip, processes sharing it, bad files and bad disks.
import { mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PlannerCounters, zeroCounters } from '../src/planner/counters.js';
import { foresightDataDir, plannerStateFile } from '../src/planner/data-dir.js';
import {
  type LearnedState,
  addCounters,
  parseLearnedState,
  subtractCounters,
} from '../src/planner/learned-state.js';
import { LearnerPool } from '../src/planner/learner-pool.js';
import type { PlannedLink } from '../src/planner/learning.js';
import { PlannerStateStore, type PlannerStateStoreOptions } from '../src/planner/state-file.js';

describe('where the state file lives', () => {
  it('FORESIGHT_DATA_DIR wins on every platform', () => {
    for (const platform of ['linux', 'darwin'] as const)
      expect(plannerStateFile({ FORESIGHT_DATA_DIR: '/data/fs', HOME: '/home/u' }, platform)).toBe(
        '/data/fs/planner-state.json',
      );
    expect(plannerStateFile({ FORESIGHT_DATA_DIR: 'D:\\fs', LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe(
      'D:\\fs\\planner-state.json',
    );
  });

  it('a relative FORESIGHT_DATA_DIR resolves against the working directory; an empty one is unset', () => {
    expect(foresightDataDir({ FORESIGHT_DATA_DIR: 'rel/dir' }, 'linux')).toBe(path.resolve('rel/dir'));
    expect(foresightDataDir({ FORESIGHT_DATA_DIR: '', HOME: '/home/u' }, 'linux')).toBe(
      '/home/u/.local/share/foresight',
    );
  });

  it('Linux and others: $XDG_DATA_HOME/foresight, else ~/.local/share/foresight; a relative XDG_DATA_HOME is ignored', () => {
    expect(plannerStateFile({ XDG_DATA_HOME: '/xdg', HOME: '/home/u' }, 'linux')).toBe(
      '/xdg/foresight/planner-state.json',
    );
    expect(plannerStateFile({ HOME: '/home/u' }, 'freebsd')).toBe(
      '/home/u/.local/share/foresight/planner-state.json',
    );
    expect(plannerStateFile({ XDG_DATA_HOME: 'xdg', HOME: '/home/u' }, 'linux')).toBe(
      '/home/u/.local/share/foresight/planner-state.json',
    );
  });

  it('macOS: ~/Library/Application Support/foresight (XDG does not apply)', () => {
    expect(plannerStateFile({ HOME: '/Users/u', XDG_DATA_HOME: '/xdg' }, 'darwin')).toBe(
      '/Users/u/Library/Application Support/foresight/planner-state.json',
    );
  });

  it('Windows: %LOCALAPPDATA%\\foresight, else ~\\AppData\\Local\\foresight', () => {
    expect(plannerStateFile({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32')).toBe(
      'C:\\Users\\u\\AppData\\Local\\foresight\\planner-state.json',
    );
    expect(plannerStateFile({ USERPROFILE: 'C:\\Users\\v' }, 'win32')).toBe(
      'C:\\Users\\v\\AppData\\Local\\foresight\\planner-state.json',
    );
  });

  it('tests run against the temp dir the vitest setup file chose, never the real one', () => {
    const dir = process.env.FORESIGHT_DATA_DIR ?? '';
    expect(path.basename(dir)).toMatch(/^foresight-data-/);
    expect(plannerStateFile()).toBe(path.join(dir, 'planner-state.json'));
    expect(new PlannerStateStore().file).toBe(plannerStateFile());
  });
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'foresight-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function counters(values: Partial<PlannerCounters>): PlannerCounters {
  return { ...zeroCounters(), ...values };
}

/** A store on `file` that collects its warnings. */
function storeOn(file: string, options: PlannerStateStoreOptions = {}) {
  const warnings: string[] = [];
  const store = new PlannerStateStore({ file, onWarning: (message) => warnings.push(message), ...options });
  return { store, warnings };
}

/** `a` called `times` times by `principal`, each followed by `r` with the planned set (used when `used`). */
function teach(pool: LearnerPool, session: string, times: number, used: boolean, principal = 'local'): void {
  const learner = pool.of(principal);
  const planned: PlannedLink[] = [{ to: 'r', prior: 0.5, sets: [{ argsKey: 'k', status: 'dispatched' }] }];
  for (let i = 0; i < times; i += 1) {
    learner.observePlanned(learner.observeCall(session, 'a', '{}'), planned);
    learner.observeCall(session, used ? 'r' : 'x', 'k');
    learner.endSession(session);
  }
}

async function onDisk(file: string): Promise<LearnedState> {
  const parsed = parseLearnedState(await readFile(file, 'utf8'));
  if (!('state' in parsed)) throw new Error(parsed.problem);
  return parsed.state;
}

/** What the file holds for `principal` (the local user by default). */
const of = (state: LearnedState, principal = 'local') =>
  state.principals[principal] ?? { seenAt: '', tools: {}, edges: [] };

const edgeOf = (state: LearnedState, from: string, to: string, principal = 'local') =>
  of(state, principal).edges.find((edge) => edge.from === from && edge.to === to);

describe('PlannerStateStore', () => {
  it('a missing file is a fresh start, without a warning', async () => {
    const { store, warnings } = storeOn(path.join(dir, 'none.json'));
    expect(await store.load()).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('round-trips: creates the directories (0700) and the file (0600), and load returns what was saved', async () => {
    const file = path.join(dir, 'a', 'b', 'planner-state.json');
    const { store, warnings } = storeOn(file, { now: () => Date.UTC(2025, 5, 1) });
    const learner = new LearnerPool({ now: () => Date.UTC(2025, 5, 1) });
    teach(learner, 's', 3, true);
    await store.save({
      counters: counters({ dispatched: 5, hits: 2, latencySavedMs: 1234.5 }),
      learned: learner.toState(),
    });
    expect(warnings).toEqual([]);
    if (process.platform !== 'win32') {
      expect((await stat(path.join(dir, 'a'))).mode & 0o777).toBe(0o700);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    const loaded = await storeOn(file).store.load();
    expect(loaded).toEqual({
      version: 2,
      savedAt: '2025-06-01T00:00:00.000Z',
      counters: loaded?.counters,
      principals: { local: learner.countsOf('local') },
    });
    expect(loaded?.counters).toEqual(counters({ dispatched: 5, hits: 2, latencySavedMs: 1234.5 }));
    expect(await readdir(path.dirname(file))).toEqual(['planner-state.json']); // no temp or lock file left
  });

  it('two processes on one file: each save adds what that process counted since its last one', async () => {
    const file = path.join(dir, 'planner-state.json');
    const one = storeOn(file);
    const two = storeOn(file);
    const learnerOne = new LearnerPool({}, await one.store.load());
    const learnerTwo = new LearnerPool({}, await two.store.load());
    teach(learnerOne, 's1', 3, true);
    teach(learnerTwo, 's2', 2, false);
    await one.store.save({ counters: counters({ dispatched: 3, hits: 3 }), learned: learnerOne.toState() });
    await two.store.save({ counters: counters({ dispatched: 2, wasted: 2 }), learned: learnerTwo.toState() });
    let state = await onDisk(file);
    expect(state.counters).toEqual(counters({ dispatched: 5, hits: 3, wasted: 2 }));
    expect(of(state).tools.a?.calls).toBe(5);
    expect(edgeOf(state, 'a', 'r')).toMatchObject({ followed: 3, offered: [5, 0, 0], matched: [3, 0, 0] });

    // Saving again adds only what is new since the last save, not the whole again.
    teach(learnerOne, 's1', 1, true);
    await one.store.save({ counters: counters({ dispatched: 4, hits: 4 }), learned: learnerOne.toState() });
    state = await onDisk(file);
    expect(state.counters).toEqual(counters({ dispatched: 6, hits: 4, wasted: 2 }));
    expect(of(state).tools.a?.calls).toBe(6);
    expect(edgeOf(state, 'a', 'r')).toMatchObject({ followed: 4, offered: [6, 0, 0], matched: [4, 0, 0] });
    expect(one.warnings.concat(two.warnings)).toEqual([]);

    // A third process that starts from the file counts on top of it, without doubling it.
    const three = storeOn(file);
    const learnerThree = new LearnerPool({}, await three.store.load());
    teach(learnerThree, 's3', 1, false);
    await three.store.save({ counters: counters({ dispatched: 1 }), learned: learnerThree.toState() });
    state = await onDisk(file);
    expect(state.counters.dispatched).toBe(7);
    expect(edgeOf(state, 'a', 'r')).toMatchObject({ followed: 4, offered: [7, 0, 0], matched: [4, 0, 0] });
  });

  it('saves at the same moment lose nothing (the lock serializes them)', async () => {
    const file = path.join(dir, 'planner-state.json');
    const stores = Array.from({ length: 4 }, () => storeOn(file));
    await Promise.all(
      stores.map(({ store }, i) => {
        const learner = new LearnerPool();
        teach(learner, `s${i}`, i + 1, true);
        return store.save({ counters: counters({ hits: i + 1 }), learned: learner.toState() });
      }),
    );
    const state = await onDisk(file);
    expect(state.counters.hits).toBe(1 + 2 + 3 + 4);
    expect(of(state).tools.a?.calls).toBe(10);
    expect(stores.flatMap(({ warnings }) => warnings)).toEqual([]);
  });

  it('a ring this process changed replaces the file’s; one it did not change keeps the file’s', async () => {
    const file = path.join(dir, 'planner-state.json');
    const autoOff = { window: 4, minSamples: 2 };
    const one = storeOn(file);
    const two = storeOn(file);
    const learnerOne = new LearnerPool({ autoOff }, await one.store.load());
    const learnerTwo = new LearnerPool({ autoOff }, await two.store.load());
    teach(learnerOne, 's1', 2, false); // r switched off by process one
    teach(learnerTwo, 's2', 1, true);
    learnerTwo.of('local').observeCall('s2', 'z', '{}'); // process two also knows tool z
    await one.store.save({ counters: zeroCounters(), learned: learnerOne.toState() });
    expect(of(await onDisk(file)).tools.r).toEqual({ calls: 0, ring: [false, false], off: true });
    await two.store.save({ counters: zeroCounters(), learned: learnerTwo.toState() });
    expect(of(await onDisk(file)).tools.r).toEqual({ calls: 1, ring: [true] });

    // Process one saves again without touching r's ring: the file keeps process two's.
    learnerOne.of('local').observeCall('s1', 'q', '{}');
    await one.store.save({ counters: zeroCounters(), learned: learnerOne.toState() });
    const state = await onDisk(file);
    expect(of(state).tools.r).toEqual({ calls: 1, ring: [true] });
    expect(Object.keys(of(state).tools).sort()).toEqual(['a', 'q', 'r', 'x', 'z']);
  });

  it.each([
    ['not JSON', '{"version": 1, "counters": ', /not JSON/],
    [
      'another version',
      '{"version": 3, "savedAt": "", "counters": {}, "principals": {}}',
      /version 3 is not 1 or 2/,
    ],
    [
      'a bad field',
      '{"version": 1, "savedAt": "", "counters": {}, "tools": {"a": {"calls": -1}}, "edges": []}',
      /tools\.a\.calls/,
    ],
  ])(
    'a file that is %s: load warns and starts fresh, save moves it to .bad and writes anew',
    async (_, text, why) => {
      const file = path.join(dir, 'planner-state.json');
      await writeFile(file, text);
      const { store, warnings } = storeOn(file);
      expect(await store.load()).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(file);
      expect(warnings[0]).toMatch(why);
      const learner = new LearnerPool();
      teach(learner, 's', 1, true);
      await store.save({ counters: counters({ hits: 1 }), learned: learner.toState() });
      expect(await readFile(`${file}.bad`, 'utf8')).toBe(text);
      expect(warnings[1]).toContain(`${file}.bad`);
      const state = await onDisk(file);
      expect(state.counters.hits).toBe(1);
      expect(of(state).tools.a?.calls).toBe(1);
    },
  );

  it('counters missing from an older file read as 0', async () => {
    const file = path.join(dir, 'planner-state.json');
    await writeFile(file, '{"version":1,"savedAt":"x","counters":{"hits":3},"tools":{},"edges":[]}');
    expect((await storeOn(file).store.load())?.counters).toEqual(counters({ hits: 3 }));
  });

  it('a directory that cannot be created: save warns and resolves, never throws', async () => {
    await writeFile(path.join(dir, 'a-file'), '');
    const file = path.join(dir, 'a-file', 'sub', 'planner-state.json');
    const { store, warnings } = storeOn(file);
    await expect(
      store.save({ counters: zeroCounters(), learned: new LearnerPool().toState() }),
    ).resolves.toBe(undefined);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^planner state not saved to .*planner-state\.json: .*(ENOTDIR|EEXIST)/);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'a read-only directory: save warns and resolves (skipped as root, who may write anyway)',
    async () => {
      const { chmod } = await import('node:fs/promises');
      const readOnly = path.join(dir, 'ro');
      await mkdir(readOnly, { mode: 0o500 });
      await chmod(readOnly, 0o500);
      const { store, warnings } = storeOn(path.join(readOnly, 'planner-state.json'));
      await store.save({ counters: zeroCounters(), learned: new LearnerPool().toState() });
      expect(warnings[0]).toMatch(/not saved.*EACCES/);
      await chmod(readOnly, 0o700);
    },
  );

  it('a state path that cannot be read is not overwritten', async () => {
    const file = path.join(dir, 'planner-state.json');
    await mkdir(file); // a directory where the file should be: reading fails with EISDIR
    const { store, warnings } = storeOn(file);
    expect(await store.load()).toBeUndefined();
    expect(warnings[0]).toMatch(/cannot be read/);
    await store.save({ counters: counters({ hits: 1 }), learned: new LearnerPool().toState() });
    expect(warnings[1]).toMatch(/not saved.*cannot be read/);
    expect((await stat(file)).isDirectory()).toBe(true);
  });

  it('waits for a live lock, gives up after lockWaitMs keeping the counts for the next save', async () => {
    const file = path.join(dir, 'planner-state.json');
    await writeFile(`${file}.lock`, '');
    const { store, warnings } = storeOn(file, { lockWaitMs: 60 });
    await store.save({ counters: counters({ hits: 2 }), learned: new LearnerPool().toState() });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/another process held .*\.lock/);
    await rm(`${file}.lock`);
    await store.save({ counters: counters({ hits: 3 }), learned: new LearnerPool().toState() });
    expect((await onDisk(file)).counters.hits).toBe(3);
  });

  it('removes a lock left by a process that died mid-save', async () => {
    const file = path.join(dir, 'planner-state.json');
    await writeFile(`${file}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    const { store, warnings } = storeOn(file, { lockWaitMs: 60, staleLockMs: 10_000 });
    await store.save({ counters: counters({ hits: 1 }), learned: new LearnerPool().toState() });
    expect(warnings).toEqual([]);
    expect((await onDisk(file)).counters.hits).toBe(1);
  });
});

describe('counter helpers', () => {
  it('add and subtract per counter; subtraction never goes below 0', () => {
    const a = counters({ dispatched: 5, hits: 1, latencySavedMs: 2.5 });
    const b = counters({ dispatched: 2, hits: 3, latencySavedMs: 0.5 });
    expect(addCounters(a, b)).toEqual(counters({ dispatched: 7, hits: 4, latencySavedMs: 3 }));
    expect(subtractCounters(a, b)).toEqual(counters({ dispatched: 3, hits: 0, latencySavedMs: 2 }));
  });
});

describe('edges the planner adds itself', () => {
  it('keeps an edge’s `via` through a save, apart from the model’s edge between the same tools', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'foresight-via-'));
    const file = path.join(dir, 'state.json');
    const store = new PlannerStateStore({ file });
    await store.load();
    const pool = new LearnerPool({ priorStrength: 8, lagWindow: 1 });
    const learner = pool.of('local');
    const read = learner.observeCall('s', 'read', 'a');
    learner.observePlanned(read, [
      { to: 'read', prior: 0.3, sets: [{ argsKey: 'import', status: 'dispatched' }] },
      { to: 'read', prior: 0.3, via: 'listing', sets: [{ argsKey: 'next', status: 'dispatched' }] },
    ]);
    learner.observeCall('s', 'read', 'next');
    learner.endSession('s');
    await store.save({ counters: zeroCounters(), learned: pool.toState() });
    const saved = await new PlannerStateStore({ file }).load();
    const edges = (saved?.principals.local?.edges ?? []).filter(
      (edge) => edge.from === 'read' && edge.to === 'read',
    );
    expect(edges.map((edge) => [edge.via ?? null, edge.matched[0]])).toEqual(
      expect.arrayContaining([
        [null, 0],
        ['listing', 1],
      ]),
    );
    expect(edges).toHaveLength(2);
    await rm(dir, { recursive: true, force: true });
  });
});
