// The transition learner: lag windows per session, what counts as followed and matched, the Beta prior, auto-off.
import { describe, expect, it } from 'vitest';
import {
  type AutoOffSwitch,
  type LearnedEdge,
  type LearnerOptions,
  type PlannedLink,
  type SetOutcomeStatus,
  TransitionLearner,
  positionPrior,
  rankEdgesByDivergence,
} from '../src/planner/learning.js';

const S = 'session-1';

/** A link from the planner: target, prior, and one set per key (all with `status`). */
function link(
  to: string,
  prior: number,
  keys: string[],
  status: SetOutcomeStatus = 'dispatched',
): PlannedLink {
  return { to, prior, sets: keys.map((argsKey) => ({ argsKey, status })) };
}

/** The agent calls each `tool:key` in order in `session`. */
function calls(learner: TransitionLearner, session: string, ...steps: string[]): void {
  for (const step of steps) {
    const [tool = '', key = '{}'] = step.split(':');
    learner.observeCall(session, tool, key);
  }
}

function edge(learner: TransitionLearner, from: string, to: string): LearnedEdge | undefined {
  return learner.edges().find((e) => e.from === from && e.to === to);
}

describe('lag windows', () => {
  it('a window sees the next lagWindow calls of the session and no more', () => {
    const learner = new TransitionLearner({ lagWindow: 3 });
    calls(learner, S, 'a', 'x', 'y', 'z', 'b');
    expect(edge(learner, 'a', 'x')?.followed).toBe(1);
    expect(edge(learner, 'a', 'z')?.followed).toBe(1);
    expect(edge(learner, 'a', 'b')).toBeUndefined(); // b came 4th
    expect(edge(learner, 'x', 'b')?.followed).toBe(1); // 3rd after x
  });

  it('lagWindow 1 counts only the very next call', () => {
    const learner = new TransitionLearner({ lagWindow: 1 });
    calls(learner, S, 'a', 'x', 'y');
    expect(edge(learner, 'a', 'x')?.followed).toBe(1);
    expect(edge(learner, 'a', 'y')).toBeUndefined();
  });

  it('sessions do not see each other’s calls', () => {
    const learner = new TransitionLearner();
    calls(learner, 's1', 'a');
    calls(learner, 's2', 'b');
    calls(learner, 's1', 'c');
    expect(edge(learner, 'a', 'b')).toBeUndefined();
    expect(edge(learner, 'a', 'c')?.followed).toBe(1);
  });

  it('followed counts a target once per window, and learned = followed / calls of from', () => {
    const learner = new TransitionLearner();
    calls(learner, S, 'a', 'b', 'b', 'b');
    expect(edge(learner, 'a', 'b')).toMatchObject({ followed: 1, calls: 1, learned: 1 });
    // b's windows: the first sees b, b; the second sees b; the third sees nothing.
    expect(edge(learner, 'b', 'b')).toMatchObject({ followed: 2, calls: 3 });
    expect(edge(learner, 'b', 'b')?.learned).toBeCloseTo(2 / 3, 12);
  });

  it('a call does not fall in its own window', () => {
    const learner = new TransitionLearner();
    calls(learner, S, 'a');
    expect(learner.edges()).toEqual([]);
  });
});

describe('planned sets: offered and matched per position', () => {
  it('matches by tool and exact argsKey, each set once, counted when the window closes', () => {
    const learner = new TransitionLearner({ lagWindow: 3 });
    const a = learner.observeCall(S, 'a', '{}');
    learner.observePlanned(a, [link('r', 0.5, ['k0', 'k1', 'k2'])]);
    calls(learner, S, 'r:k1', 'r:k1', 'other:k0');
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [1, 1, 1], matched: [0, 1, 0], prior: 0.5 });
  });

  it('nothing is offered while the window is open, so matched never exceeds offered', () => {
    const learner = new TransitionLearner({ lagWindow: 3 });
    const a = learner.observeCall(S, 'a', '{}');
    learner.observePlanned(a, [link('r', 0.5, ['k0'])]);
    calls(learner, S, 'r:k0');
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [0, 0, 0], matched: [0, 0, 0], followed: 1 });
    calls(learner, S, 'x', 'y');
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [1, 0, 0], matched: [1, 0, 0] });
  });

  it('sets beyond the third are ignored', () => {
    const learner = new TransitionLearner({ lagWindow: 1 });
    const a = learner.observeCall(S, 'a', '{}');
    learner.observePlanned(a, [link('r', 0.5, ['k0', 'k1', 'k2', 'k3'])]);
    calls(learner, S, 'r:k3');
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [1, 1, 1], matched: [0, 0, 0] });
  });

  it('calls observed before the plan arrived still match it', () => {
    const learner = new TransitionLearner({ lagWindow: 3 });
    const a = learner.observeCall(S, 'a', '{}');
    calls(learner, S, 'r:k0');
    learner.observePlanned(a, [link('r', 0.4, ['k0', 'k1'])]);
    calls(learner, S, 'x', 'y');
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [1, 1, 0], matched: [1, 0, 0] });
  });

  it('a plan for a window already closed is accounted at once', () => {
    const learner = new TransitionLearner({ lagWindow: 3 });
    const a = learner.observeCall(S, 'a', '{}');
    calls(learner, S, 'x', 'r:k1', 'y', 'r:k0'); // r:k0 is 4th: outside the window
    learner.observePlanned(a, [link('r', 0.4, ['k0', 'k1'])]);
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [1, 1, 0], matched: [0, 1, 0] });
  });

  it('only the first plan for an observation counts', () => {
    const learner = new TransitionLearner({ lagWindow: 1 });
    const a = learner.observeCall(S, 'a', '{}');
    learner.observePlanned(a, [link('r', 0.4, ['k0'])]);
    learner.observePlanned(a, [link('r', 0.4, ['k0'])]);
    calls(learner, S, 'r:k0');
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [1, 0, 0], matched: [1, 0, 0] });
  });

  it('a foreign handle is ignored', () => {
    const learner = new TransitionLearner();
    learner.observePlanned({ session: S, tool: 'a' }, [link('r', 0.4, ['k0'])]);
    expect(learner.edges()).toEqual([]);
  });
});

describe('endSession', () => {
  it('closes the open windows, counting their outcomes, and forgets the session', () => {
    const learner = new TransitionLearner({ lagWindow: 3 });
    const a = learner.observeCall(S, 'a', '{}');
    learner.observePlanned(a, [link('r', 0.5, ['k0', 'k1'])]);
    calls(learner, S, 'r:k0');
    expect(learner.openWindows(S)).toBe(2);
    learner.endSession(S);
    expect(learner.openWindows(S)).toBe(0);
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [1, 1, 0], matched: [1, 0, 0] });
    calls(learner, S, 'z');
    expect(edge(learner, 'a', 'z')).toBeUndefined();
  });
});

describe('probability: the Beta prior blended with what was seen', () => {
  it('position priors halve: prior × 0.5^position', () => {
    expect(positionPrior(0.6, 0)).toBe(0.6);
    expect(positionPrior(0.6, 1)).toBe(0.3);
    expect(positionPrior(0.6, 2)).toBe(0.15);
    expect(positionPrior(1.5, 0)).toBe(1);
  });

  it('with nothing seen it is the position prior', () => {
    const learner = new TransitionLearner();
    expect(learner.probability('a', 'r', 0, 0.5)).toBe(0.5);
    expect(learner.probability('a', 'r', 1, 0.5)).toBe(0.25);
  });

  it('is (m·k + matched) / (k + offered) exactly', () => {
    const learner = new TransitionLearner({ priorStrength: 8, lagWindow: 1 });
    for (let i = 0; i < 2; i += 1) {
      const a = learner.observeCall(S, 'a', '{}');
      learner.observePlanned(a, [link('r', 0.5, ['k0', 'k1'])]);
      calls(learner, S, 'r:k0');
    }
    calls(learner, S, 'end');
    // Position 0: α = 0.5·8 = 4, matched 2 of 2 → 6 / 10. Position 1: α = 0.25·8 = 2, matched 0 of 2 → 2 / 10.
    expect(learner.probability('a', 'r', 0, 0.5)).toBeCloseTo(0.6, 12);
    expect(learner.probability('a', 'r', 1, 0.5)).toBeCloseTo(0.2, 12);
    // A weaker prior gives the same evidence more weight: (0.5·2 + 2) / (2 + 2).
    const light = new TransitionLearner({ priorStrength: 2 }, learner.toState());
    expect(light.probability('a', 'r', 0, 0.5)).toBeCloseTo(0.75, 12);
  });

  it('moves from the prior toward the observed rate as evidence grows', () => {
    const learner = new TransitionLearner({ lagWindow: 1 });
    const seen: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const a = learner.observeCall(S, 'a', '{}');
      learner.observePlanned(a, [link('r', 0.8, ['k0'])]);
      calls(learner, S, i % 10 < 3 ? 'r:k0' : 'x'); // used 30% of the time
      if (i % 25 === 24) seen.push(learner.probability('a', 'r', 0, 0.8));
    }
    for (let i = 1; i < seen.length; i += 1) expect(seen[i]).toBeLessThan(seen[i - 1] ?? 1);
    expect(learner.probability('a', 'r', 0, 0.8)).toBeCloseTo((0.8 * 8 + 30) / (8 + 100), 12);
  });
});

describe('auto-off', () => {
  const options: LearnerOptions = {
    lagWindow: 1,
    autoOff: { window: 20, minSamples: 10, offBelow: 0.1, onAbove: 0.25 },
  };

  /** One planned set for `r` after a call of `a`, used or not, with `status`. */
  function outcome(learner: TransitionLearner, used: boolean, status: SetOutcomeStatus): void {
    const a = learner.observeCall(S, 'a', '{}');
    learner.observePlanned(a, [link('r', 0.5, ['k'], status)]);
    calls(learner, S, used ? 'r:k' : 'x');
  }

  it('switches a target off once minSamples outcomes show a use rate below offBelow', () => {
    const switches: AutoOffSwitch[] = [];
    const learner = new TransitionLearner({ ...options, onSwitch: (change) => switches.push(change) });
    for (let i = 0; i < 9; i += 1) outcome(learner, false, 'dispatched');
    expect(learner.speculationAllowed('r')).toBe(true);
    outcome(learner, false, 'dispatched');
    expect(learner.speculationAllowed('r')).toBe(false);
    expect(learner.speculationAllowed('a')).toBe(true);
    expect(switches).toEqual([{ tool: 'r', off: true, useRate: 0, samples: 10 }]);
    expect(learner.switchedOff()).toEqual([{ tool: 'r', useRate: 0, samples: 10 }]);
  });

  it('suppressed outcomes fill the ring and switch the tool back on only at onAbove (hysteresis)', () => {
    const switches: AutoOffSwitch[] = [];
    const learner = new TransitionLearner({ ...options, onSwitch: (change) => switches.push(change) });
    for (let i = 0; i < 10; i += 1) outcome(learner, false, 'dispatched');
    // Off: the planner reports the sets as suppressed, and the agent's real use still counts.
    outcome(learner, true, 'suppressed'); // 1/11
    outcome(learner, true, 'suppressed'); // 2/12 ≈ 0.17: above offBelow, still off
    outcome(learner, true, 'suppressed'); // 3/13 ≈ 0.23
    expect(learner.speculationAllowed('r')).toBe(false);
    outcome(learner, true, 'suppressed'); // 4/14 ≈ 0.29 ≥ 0.25
    expect(learner.speculationAllowed('r')).toBe(true);
    expect(switches.map((s) => s.off)).toEqual([true, false]);
    expect(switches[1]?.useRate).toBeCloseTo(4 / 14, 12);
    // On again: falling below onAbove is not enough to switch off; below offBelow is.
    outcome(learner, false, 'dispatched'); // 4/15 ≈ 0.27
    outcome(learner, false, 'dispatched'); // 4/16 = 0.25
    outcome(learner, false, 'dispatched'); // 4/17 ≈ 0.24
    expect(learner.speculationAllowed('r')).toBe(true);
    expect(switches).toHaveLength(2);
  });

  it('the ring keeps only the last `window` outcomes', () => {
    const learner = new TransitionLearner(options);
    for (let i = 0; i < 10; i += 1) outcome(learner, true, 'dispatched');
    // 10 of 29 were used (0.34), but the ring holds the last 20: 1 used, 19 not (0.05).
    for (let i = 0; i < 19; i += 1) outcome(learner, false, 'dispatched');
    expect(learner.speculationAllowed('r')).toBe(false);
    expect(learner.toState().tools.r?.ring).toHaveLength(20);
    expect(learner.switchedOff()).toEqual([{ tool: 'r', useRate: 0.05, samples: 20 }]);
  });

  it('skipped sets are learned from but do not fill the ring', () => {
    const learner = new TransitionLearner(options);
    for (let i = 0; i < 15; i += 1) outcome(learner, false, 'skipped');
    expect(learner.speculationAllowed('r')).toBe(true);
    expect(learner.toState().tools.r?.ring).toBeUndefined();
    expect(edge(learner, 'a', 'r')?.offered[0]).toBe(15);
  });

  it('refuses settings without hysteresis or that could never switch', () => {
    expect(() => new TransitionLearner({ autoOff: { offBelow: 0.3, onAbove: 0.2 } })).toThrow(RangeError);
    expect(() => new TransitionLearner({ autoOff: { window: 5, minSamples: 6 } })).toThrow(RangeError);
    expect(() => new TransitionLearner({ lagWindow: 0 })).toThrow(RangeError);
    expect(() => new TransitionLearner({ priorStrength: 0 })).toThrow(RangeError);
  });
});

describe('memory bounds', () => {
  it('keeps at most maxOpenWindowsPerSession windows, closing the oldest first', () => {
    const learner = new TransitionLearner({ lagWindow: 100, maxOpenWindowsPerSession: 5 });
    const first = learner.observeCall(S, 'a', '{}');
    learner.observePlanned(first, [link('r', 0.5, ['k0'])]);
    calls(learner, S, 'b', 'c', 'd', 'e');
    expect(learner.openWindows(S)).toBe(5);
    expect(edge(learner, 'a', 'r')?.offered[0]).toBe(0);
    calls(learner, S, 'f');
    expect(learner.openWindows(S)).toBe(5);
    expect(edge(learner, 'a', 'r')?.offered[0]).toBe(1); // a's window was closed to make room
    calls(learner, S, 'g');
    expect(edge(learner, 'a', 'g')).toBeUndefined();
  });

  it('keeps at most maxSessions sessions, ending the least recently active', () => {
    const learner = new TransitionLearner({ maxSessions: 2 });
    calls(learner, 's1', 'a');
    calls(learner, 's2', 'a');
    calls(learner, 's1', 'b'); // s1 is now the most recent
    calls(learner, 's3', 'a');
    expect(learner.openWindows('s2')).toBe(0);
    expect(learner.openWindows('s1')).toBe(2);
    expect(learner.openWindows('s3')).toBe(1);
  });
});

describe('state', () => {
  it('round-trips through toState as plain JSON', () => {
    const learner = new TransitionLearner({ lagWindow: 1 });
    for (let i = 0; i < 12; i += 1) {
      const a = learner.observeCall(S, 'a', '{}');
      learner.observePlanned(a, [link('r', 0.5, ['k0', 'k1'])]);
      calls(learner, S, i < 3 ? 'r:k0' : 'x');
    }
    const state = JSON.parse(JSON.stringify(learner.toState())) as ReturnType<TransitionLearner['toState']>;
    expect(Object.keys(state).sort()).toEqual(['edges', 'tools']);
    const restored = new TransitionLearner({ lagWindow: 1 }, state);
    expect(restored.edges()).toEqual(learner.edges());
    expect(restored.probability('a', 'r', 0, 0.5)).toBe(learner.probability('a', 'r', 0, 0.5));
    expect(restored.speculationAllowed('r')).toBe(learner.speculationAllowed('r'));
    expect(restored.toState().tools).toEqual(learner.toState().tools);
  });

  it('clamps a hand-edited matched count to offered', () => {
    const learner = new TransitionLearner(
      {},
      {
        tools: { a: { calls: 4 } },
        edges: [{ from: 'a', to: 'r', prior: 0.5, followed: 2, offered: [2], matched: [9] }],
      },
    );
    expect(edge(learner, 'a', 'r')).toMatchObject({ offered: [2, 0, 0], matched: [2, 0, 0] });
    expect(learner.probability('a', 'r', 0, 0.5)).toBeCloseTo(6 / 10, 12);
  });
});

describe('rankEdgesByDivergence', () => {
  const base = { offered: [0, 0, 0], matched: [0, 0, 0], followed: 0 };
  it('ranks by |learned − prior| weighted by calls / (calls + k)', () => {
    const edges: LearnedEdge[] = [
      { ...base, from: 'few', to: 'x', prior: 0, learned: 1, calls: 2 }, // 1 × 2/10 = 0.2
      { ...base, from: 'many', to: 'x', prior: 0.5, learned: 0.1, calls: 92 }, // 0.4 × 92/100 = 0.368
      { ...base, from: 'same', to: 'x', prior: 0.3, learned: 0.3, calls: 500 }, // 0
    ];
    const ranked = rankEdgesByDivergence(edges, { priorStrength: 8 });
    expect(ranked.map((e) => e.from)).toEqual(['many', 'few', 'same']);
    expect(ranked[0]?.divergence).toBeCloseTo(0.368, 12);
    expect(rankEdgesByDivergence(edges, { limit: 1 })).toHaveLength(1);
  });
});

describe('links the planner adds itself (via)', () => {
  it('learns a `via` link to the same tool apart from the model’s own link, and saves it', () => {
    const learner = new TransitionLearner({ priorStrength: 8, lagWindow: 3 });
    for (let round = 0; round < 4; round += 1) {
      const read = learner.observeCall(S, 'read', `a${round}`);
      learner.observePlanned(read, [
        link('read', 0.3, [`import${round}`]),
        { ...link('read', 0.3, [`next${round}`]), via: 'listing' },
      ]);
      // The agent always reads the listing's next item, never the import.
      calls(learner, S, `read:next${round}`, 'grep:x', 'grep:y');
    }
    learner.endSession(S);
    // (0.3·8 + 0) / (8 + 4) for the import; (0.3·8 + 4) / (8 + 4) for the listing.
    expect(learner.probability('read', 'read', 0, 0.3)).toBeCloseTo(2.4 / 12, 10);
    expect(learner.probability('read', 'read', 0, 0.3, 'listing')).toBeCloseTo(6.4 / 12, 10);
    const listing = learner.edges().find((e) => e.via === 'listing');
    expect(listing).toMatchObject({ from: 'read', to: 'read', calls: 4, learned: 1 });
    const restored = new TransitionLearner({ priorStrength: 8 }, learner.toState());
    expect(restored.probability('read', 'read', 0, 0.3, 'listing')).toBeCloseTo(6.4 / 12, 10);
  });
});
