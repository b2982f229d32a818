// Learning per principal: each principal's counts blended with the shared prior alone, the bound on principals,
// the version 1 file read as the local user's, and saves that merge, trim and never count a forgotten learner twice.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zeroCounters } from '../src/planner/counters.js';
import {
  type LearnedState,
  emptyLearnedState,
  mergeLearnedState,
  parseLearnedState,
} from '../src/planner/learned-state.js';
import { LearnerPool } from '../src/planner/learner-pool.js';
import { type PlannedLink, positionPrior } from '../src/planner/learning.js';
import { PlannerStateStore } from '../src/planner/state-file.js';

const ALICE = 'sub:auth.example.com:alice';
const BOB = 'sub:auth.example.com:bob';
const PRIOR = 0.2;

/** `principal` calls `a`, the planner offers `r` with set `k`, and the agent calls `r` with `k` (uses it). */
function teach(pool: LearnerPool, principal: string, times: number, session = `${principal}/s`): void {
  const planned: PlannedLink[] = [{ to: 'r', prior: PRIOR, sets: [{ argsKey: 'k', status: 'dispatched' }] }];
  for (let i = 0; i < times; i += 1) {
    const learner = pool.of(principal);
    learner.observePlanned(learner.observeCall(session, 'a', '{}'), planned);
    learner.observeCall(session, 'r', 'k');
    learner.endSession(session);
  }
}

/** What the planner would use for principal's `a → r`, first set. */
const estimate = (pool: LearnerPool, principal: string) => pool.of(principal).probability('a', 'r', 0, PRIOR);

describe('one learner per principal', () => {
  it('one principal’s calls move its own estimate only; another still plans with the prior alone', () => {
    const pool = new LearnerPool({ priorStrength: 8 });
    teach(pool, ALICE, 12);
    // Alice: (0.2 × 8 + 12) / (8 + 12), the same blend as one learner for everyone had.
    expect(estimate(pool, ALICE)).toBeCloseTo((PRIOR * 8 + 12) / 20, 12);
    expect(estimate(pool, BOB)).toBe(positionPrior(PRIOR, 0));
    expect(pool.of(BOB).edges()).toEqual([]);
  });

  it('auto-off is per principal: a tool one principal ignores stays on for another', () => {
    const pool = new LearnerPool({ autoOff: { window: 4, minSamples: 2 } });
    const planned: PlannedLink[] = [{ to: 'r', prior: 0.5, sets: [{ argsKey: 'k', status: 'dispatched' }] }];
    for (let i = 0; i < 3; i += 1) {
      const learner = pool.of(ALICE);
      learner.observePlanned(learner.observeCall('s', 'a', '{}'), planned);
      learner.observeCall('s', 'x', '{}');
      learner.endSession('s');
    }
    expect(pool.of(ALICE).speculationAllowed('r')).toBe(false);
    expect(pool.of(BOB).speculationAllowed('r')).toBe(true);
    expect(pool.switchedOff()).toEqual([{ principal: ALICE, tool: 'r', useRate: 0, samples: 3 }]);
  });

  it('the process-wide view adds every principal’s counts up', () => {
    const pool = new LearnerPool();
    teach(pool, ALICE, 3);
    teach(pool, BOB, 2);
    const edge = pool
      .combined()
      .edges()
      .find((e) => e.from === 'a' && e.to === 'r');
    expect(edge).toMatchObject({ calls: 5, followed: 5, offered: [5, 0, 0], matched: [5, 0, 0] });
  });

  it('keeps at most maxPrincipals; the least recently seen is forgotten first', () => {
    let now = 0;
    const pool = new LearnerPool({ maxPrincipals: 2, now: () => (now += 1000) });
    teach(pool, 'p1', 1);
    teach(pool, 'p2', 1);
    teach(pool, 'p1', 1); // p1 seen again: p2 is now the least recently seen
    teach(pool, 'p3', 1);
    expect(pool.principals().sort()).toEqual(['p1', 'p3']);
    expect(Object.keys(pool.toState().principals).sort()).toEqual(['p1', 'p3']);
    expect(pool.countsOf('p2')).toBeUndefined();
  });

  it('a principal loaded from the file gets its saved counts back when it is next seen', () => {
    const first = new LearnerPool();
    teach(first, ALICE, 6);
    const saved = JSON.parse(JSON.stringify(first.toState())) as LearnedState;
    const second = new LearnerPool({}, saved);
    expect(second.principals()).toEqual([ALICE]);
    expect(estimate(second, ALICE)).toBe(estimate(first, ALICE));
    expect(estimate(second, BOB)).toBe(PRIOR);
  });

  it('rejects a maxPrincipals that is not a positive integer', () => {
    expect(() => new LearnerPool({ maxPrincipals: 0 })).toThrow(/maxPrincipals must be a positive integer/);
  });
});

describe('the state file, version 2', () => {
  it('reads a version 1 file as the local user’s (the only one who could have taught it)', () => {
    const v1 = {
      version: 1,
      savedAt: '2025-06-01T12:00:00.000Z',
      counters: { hits: 3 },
      tools: { a: { calls: 4 } },
      edges: [{ from: 'a', to: 'r', prior: 0.5, followed: 2, offered: [2], matched: [1] }],
    };
    const parsed = parseLearnedState(JSON.stringify(v1));
    expect(parsed).toEqual({
      state: {
        version: 2,
        savedAt: '2025-06-01T12:00:00.000Z',
        counters: { ...zeroCounters(), hits: 3 },
        principals: { local: { seenAt: '2025-06-01T12:00:00.000Z', tools: v1.tools, edges: v1.edges } },
      },
    });
  });

  it('a version 1 file with nothing learned has no principal', () => {
    const parsed = parseLearnedState(
      JSON.stringify({ version: 1, savedAt: 'x', counters: {}, tools: {}, edges: [] }),
    );
    expect(parsed).toMatchObject({ state: { version: 2, principals: {} } });
  });

  it('a merge keeps the most recently seen principals, at most maxPrincipals', () => {
    const at = (day: number) => `2025-06-0${day}T00:00:00.000Z`;
    const disk: LearnedState = {
      ...emptyLearnedState(),
      principals: {
        old: { seenAt: at(1), tools: { a: { calls: 1 } }, edges: [] },
        mid: { seenAt: at(2), tools: { a: { calls: 2 } }, edges: [] },
      },
    };
    const own: LearnedState = {
      ...emptyLearnedState(),
      principals: { fresh: { seenAt: at(3), tools: { a: { calls: 3 } }, edges: [] } },
    };
    const merged = mergeLearnedState(disk, own, emptyLearnedState(), at(4), 2);
    expect(Object.keys(merged.principals)).toEqual(['fresh', 'mid']);
  });
});

describe('saving per principal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'foresight-principals-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('two processes teaching different principals: each principal’s counts are kept apart in the file', async () => {
    const file = path.join(dir, 'state.json');
    const one = new PlannerStateStore({ file });
    const two = new PlannerStateStore({ file });
    const poolOne = new LearnerPool({}, await one.load());
    const poolTwo = new LearnerPool({}, await two.load());
    teach(poolOne, ALICE, 3);
    teach(poolTwo, BOB, 2);
    teach(poolTwo, ALICE, 1);
    await one.save({ counters: zeroCounters(), learned: poolOne.toState() });
    await two.save({ counters: zeroCounters(), learned: poolTwo.toState() });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('instance');
    const parsed = parseLearnedState(text);
    if (!('state' in parsed)) throw new Error(parsed.problem);
    expect(parsed.state.version).toBe(2);
    expect(parsed.state.principals[ALICE]?.tools.a?.calls).toBe(4);
    expect(parsed.state.principals[BOB]?.tools.a?.calls).toBe(2);
  });

  it('a principal forgotten and seen again before the next save counts its new calls in full', async () => {
    const file = path.join(dir, 'state.json');
    const store = new PlannerStateStore({ file });
    let now = Date.UTC(2025, 5, 1);
    const pool = new LearnerPool({ maxPrincipals: 1, now: () => (now += 1000) }, await store.load());
    teach(pool, ALICE, 5);
    await store.save({ counters: zeroCounters(), learned: pool.toState() });
    teach(pool, BOB, 1); // Alice is forgotten (the cap is 1) ...
    teach(pool, ALICE, 2); // ... and comes back with a fresh learner: 2 calls, less than the 5 saved before
    await store.save({ counters: zeroCounters(), learned: pool.toState() });
    const reread = await new PlannerStateStore({ file }).load();
    expect(reread?.principals[ALICE]?.tools.a?.calls).toBe(7);
  });

  it('counters per principal: each save adds what this process counted since the last, a reload counts on top', async () => {
    const file = path.join(dir, 'state.json');
    const one = new PlannerStateStore({ file });
    const pool = new LearnerPool({}, await one.load());
    teach(pool, ALICE, 1);
    teach(pool, BOB, 1);
    pool.count(ALICE, 'dispatched', 3);
    pool.count(ALICE, 'hits', 2);
    pool.count(BOB, 'dispatched');
    pool.count('never-seen', 'dispatched'); // no learner: not counted, and no principal made for it
    await one.save({ counters: zeroCounters(), learned: pool.toState() });
    pool.count(ALICE, 'hits');
    await one.save({ counters: zeroCounters(), learned: pool.toState() });

    const two = new PlannerStateStore({ file });
    const loaded = await two.load();
    expect(loaded?.principals[ALICE]?.counters).toMatchObject({ dispatched: 3, hits: 3 });
    expect(loaded?.principals[BOB]?.counters).toMatchObject({ dispatched: 1, hits: 0 });
    expect(loaded?.principals).not.toHaveProperty('never-seen');
    // A second process: Alice's saved counters stay as they were until she is counted again.
    const again = new LearnerPool({}, loaded);
    await two.save({ counters: zeroCounters(), learned: again.toState() });
    again.of(ALICE);
    again.count(ALICE, 'hits', 4);
    await two.save({ counters: zeroCounters(), learned: again.toState() });
    const reread = await new PlannerStateStore({ file }).load();
    expect(reread?.principals[ALICE]?.counters).toMatchObject({ dispatched: 3, hits: 7 });
    expect(reread?.principals[BOB]?.counters).toMatchObject({ dispatched: 1 });
  });

  it('an old file is migrated on the next save', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(
      file,
      JSON.stringify({ version: 1, savedAt: 'x', counters: {}, tools: { a: { calls: 4 } }, edges: [] }),
    );
    const store = new PlannerStateStore({ file });
    const pool = new LearnerPool({}, await store.load());
    teach(pool, 'local', 1);
    await store.save({ counters: zeroCounters(), learned: pool.toState() });
    const written = JSON.parse(await readFile(file, 'utf8')) as LearnedState;
    expect(written.version).toBe(2);
    expect(written.principals.local?.tools.a?.calls).toBe(5);
  });
});
