// planFollowUps with learned probabilities: the floor per argument set, what candidates carry, and positions.
import { describe, expect, it, vi } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FollowUpLink, ToolValueModel } from '../src/contract/index.js';
import { planFollowUps, VALUE_WEIGHTS, TOKENS_PER_KB, type PlanInput } from '../src/planner/index.js';
import { model } from './support/planner-fixtures.js';

function link(tool: string, probability: number): FollowUpLink {
  return { tool, probability, projection: 'items[*].key', projectionArg: 'key' };
}

const listResult: CallToolResult = {
  content: [],
  structuredContent: { items: [{ key: '#1' }, { key: '#2' }, { key: '#3' }, { key: '#4' }] },
};

const TARGETS: Record<string, ToolValueModel> = {
  ws__read: model({ valueClass: 'critical', cost: { typicalKb: 2 } }),
  ws__notes: model({ valueClass: 'supporting', cost: { typicalKb: 1 } }),
};

const FLOOR = 0.2;

function plan(links: FollowUpLink[], overrides: Partial<PlanInput> = {}): ReturnType<typeof planFollowUps> {
  return planFollowUps({
    tool: 'ws__list',
    result: listResult,
    model: model({ followUp: links }),
    modelOf: (tool) => TARGETS[tool],
    isCovered: () => false,
    settings: { probabilityFloor: FLOOR, tokenBudget: 100_000 },
    ...overrides,
  });
}

/** A learned table: probability by tool and position; anything else gets `otherwise`. */
function learned(table: Record<string, number[]>, otherwise = 0): PlanInput['probabilityOf'] & {} {
  return (l, position) => table[l.tool]?.[position] ?? otherwise;
}

const READ_TOKENS = 2 * TOKENS_PER_KB;
const NOTES_TOKENS = 1 * TOKENS_PER_KB;

describe('planFollowUps: the floor per argument set', () => {
  it('keeps a set above the floor and drops the next set of the same link below it', () => {
    const candidates = plan([link('ws__read', 0.9)], {
      probabilityOf: learned({ ws__read: [0.5, 0.1, 0.1] }),
      projectArgs: () => [{ key: '#1' }, { key: '#2' }],
    });
    expect(candidates).toEqual([
      {
        tool: 'ws__read',
        args: { key: '#1' },
        key: '{"key":"#1"}',
        probability: 0.5,
        position: 0,
        score: (0.5 * VALUE_WEIGHTS.critical) / READ_TOKENS,
        estimatedTokens: READ_TOKENS,
      },
    ]);
  });

  it('keeps a set exactly at the floor', () => {
    const candidates = plan([link('ws__read', 0.9)], {
      probabilityOf: learned({ ws__read: [FLOOR, FLOOR - 1e-9] }),
    });
    expect(candidates.map((c) => [c.key, c.probability])).toEqual([['{"key":"#1"}', FLOOR]]);
  });

  it('offers a later set alone when only it is above the floor', () => {
    const candidates = plan([link('ws__read', 0.9)], {
      probabilityOf: learned({ ws__read: [0.05, 0.6, 0.05] }),
    });
    expect(candidates.map((c) => [c.key, c.position, c.probability])).toEqual([['{"key":"#2"}', 1, 0.6]]);
  });

  it('lets learned probabilities lift a link whose prior is under the floor', () => {
    const projectArgs = vi.fn((): Record<string, unknown>[] => [{ key: '#3' }]);
    const candidates = plan([link('ws__read', 0.01)], {
      probabilityOf: learned({ ws__read: [0.7] }),
      projectArgs,
    });
    expect(projectArgs).toHaveBeenCalledTimes(1);
    expect(candidates.map((c) => [c.key, c.probability])).toEqual([['{"key":"#3"}', 0.7]]);
  });

  it('drops every set when the learned probabilities are all under the floor, whatever the prior', () => {
    expect(plan([link('ws__read', 1)], { probabilityOf: () => 0.19 })).toEqual([]);
  });

  it('treats a NaN learned probability as under the floor', () => {
    expect(plan([link('ws__read', 1)], { probabilityOf: () => Number.NaN })).toEqual([]);
  });
});

describe('planFollowUps: what the candidates carry', () => {
  it('takes probability and score from probabilityOf, not from the link', () => {
    const candidates = plan([link('ws__read', 0.9), link('ws__notes', 0.25)], {
      probabilityOf: learned({ ws__read: [0.3], ws__notes: [0.8] }),
      projectArgs: (l) => (l.tool === 'ws__read' ? [{ key: '#1' }] : [{ key: '#2' }]),
    });
    const readScore = (0.3 * VALUE_WEIGHTS.critical) / READ_TOKENS;
    const notesScore = (0.8 * VALUE_WEIGHTS.supporting) / NOTES_TOKENS;
    // Ranked by the learned numbers: notes (0.8 × 0.6 ÷ 256) before read (0.3 × 1 ÷ 512).
    expect(candidates.map((c) => [c.tool, c.probability, c.score])).toEqual([
      ['ws__notes', 0.8, notesScore],
      ['ws__read', 0.3, readScore],
    ]);
  });

  it('asks with the link object itself, so learning can tell links apart', () => {
    const readLink = link('ws__read', 0.9);
    const notesLink = link('ws__notes', 0.9);
    const seen: [FollowUpLink, number][] = [];
    plan([readLink, notesLink], {
      probabilityOf: (l, position) => {
        seen.push([l, position]);
        return 0.5;
      },
      projectArgs: () => [{ key: '#1' }],
    });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.[0]).toBe(readLink);
    expect(seen[1]?.[0]).toBe(notesLink);
  });

  it('keeps the duplicate with the higher learned probability, with its own position', () => {
    // Both links propose read #2: at position 1 of the first link, position 0 of the second.
    const first = link('ws__read', 0.9);
    const second = link('ws__read', 0.9);
    const candidates = plan([first, second], {
      probabilityOf: (l, position) => (l === first ? ([0.3, 0.4][position] ?? 0) : 0.6),
      projectArgs: (l) => (l === first ? [{ key: '#1' }, { key: '#2' }] : [{ key: '#2' }]),
    });
    expect(candidates.map((c) => [c.key, c.position, c.probability])).toEqual([
      ['{"key":"#2"}', 0, 0.6],
      ['{"key":"#1"}', 0, 0.3],
    ]);
  });
});

describe('planFollowUps: position', () => {
  it('is the index among the link’s distinct sets: repeats do not advance it', () => {
    const calls: number[] = [];
    const candidates = plan([link('ws__read', 0.9)], {
      probabilityOf: (_l, position) => {
        calls.push(position);
        return 0.5;
      },
      projectArgs: () => [{ key: '#1' }, { key: '#1' }, { key: '#2' }, { key: '#2' }, { key: '#3' }],
    });
    expect(calls).toEqual([0, 1, 2]);
    expect(candidates.map((c) => [c.key, c.position])).toEqual([
      ['{"key":"#1"}', 0],
      ['{"key":"#2"}', 1],
      ['{"key":"#3"}', 2],
    ]);
  });

  it('counts sets that are covered or under the floor, so later sets keep their index', () => {
    const candidates = plan([link('ws__read', 0.9)], {
      probabilityOf: learned({ ws__read: [0.5, 0.1, 0.5] }),
      isCovered: (_tool, key) => key === '{"key":"#1"}',
    });
    // #1 covered (position 0), #2 under the floor (position 1): #3 is still position 2.
    expect(candidates.map((c) => [c.key, c.position])).toEqual([['{"key":"#3"}', 2]]);
  });

  it('counts positions per link, each from 0', () => {
    const candidates = plan([link('ws__read', 0.9), link('ws__notes', 0.9)], {
      probabilityOf: () => 0.5,
      projectArgs: (l) => (l.tool === 'ws__read' ? [{ key: '#1' }, { key: '#2' }] : [{ key: '#3' }]),
    });
    expect(candidates.map((c) => `${c.tool} ${c.key} ${c.position}`).sort()).toEqual([
      'ws__notes {"key":"#3"} 0',
      'ws__read {"key":"#1"} 0',
      'ws__read {"key":"#2"} 1',
    ]);
  });

  it('without probabilityOf, carries the link’s probability and the set’s position', () => {
    const candidates = plan([link('ws__read', 0.45)]);
    expect(candidates.map((c) => [c.key, c.position, c.probability])).toEqual([
      ['{"key":"#1"}', 0, 0.45],
      ['{"key":"#2"}', 1, 0.45],
      ['{"key":"#3"}', 2, 0.45],
    ]);
  });
});

describe('planFollowUps: without learned probabilities', () => {
  it('offers nothing for a link under the floor, and does not project its arguments', () => {
    const projectArgs = vi.fn((l: FollowUpLink): Record<string, unknown>[] =>
      l.tool === 'ws__read' ? [{ key: '#1' }] : [{ key: '#2' }],
    );
    const under = link('ws__notes', FLOOR - 0.01);
    const candidates = plan([link('ws__read', 0.5), under], { projectArgs });
    expect(candidates.map((c) => `${c.tool} ${c.key}`)).toEqual(['ws__read {"key":"#1"}']);
    expect(projectArgs).toHaveBeenCalledTimes(1);
    expect(projectArgs).not.toHaveBeenCalledWith(under);
  });

  it('does project a link under the floor when learned probabilities may lift it', () => {
    const projectArgs = vi.fn((): Record<string, unknown>[] => [{ key: '#2' }]);
    const under = link('ws__notes', FLOOR - 0.01);
    plan([under], { projectArgs, probabilityOf: () => 0 });
    expect(projectArgs).toHaveBeenCalledTimes(1);
    expect(projectArgs).toHaveBeenCalledWith(under);
  });
});
