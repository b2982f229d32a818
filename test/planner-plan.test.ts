import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FollowUpLink, ToolValueModel } from '../src/contract/index.js';
import { canonicalJson, planFollowUps, type PlanInput } from '../src/planner/index.js';
import { link, model } from './support/planner-fixtures.js';

const listResult: CallToolResult = {
  content: [],
  structuredContent: { items: [{ key: '#1' }, { key: '#2' }, { key: '#3' }, { key: '#4' }, { key: '#5' }] },
};

/** A plan of `links` after `ws__list`, with `targets` as the only known models. */
function plan(
  links: FollowUpLink[],
  targets: Record<string, ToolValueModel>,
  overrides: Partial<PlanInput> = {},
): ReturnType<typeof planFollowUps> {
  return planFollowUps({
    tool: 'ws__list',
    result: listResult,
    model: model({ followUp: links }),
    modelOf: (tool) => targets[tool],
    isCovered: () => false,
    settings: { probabilityFloor: 0.1, tokenBudget: 100_000 },
    ...overrides,
  });
}

/** The (tool, args) pairs of a plan, in order. */
function calls(candidates: ReturnType<typeof planFollowUps>): string[] {
  return candidates.map((candidate) => `${candidate.tool} ${candidate.key}`);
}

describe('ranking', () => {
  it('ranks by probability × value ÷ tokens, with the weights and token estimate stated', () => {
    const candidates = plan(
      [link('a', 0.5, 'items[0].key'), link('b', 0.8, 'items[1].key'), link('c', 0.9, 'items[2].key')],
      {
        a: model({ valueClass: 'critical', cost: { typicalKb: 1 } }),
        b: model({ valueClass: 'optional', cost: { typicalKb: 0.25 } }),
        c: model({ valueClass: 'supporting', cost: { typicalKb: 2 } }),
      },
    );
    expect(candidates).toEqual([
      {
        tool: 'b',
        args: { key: '#2' },
        key: '{"key":"#2"}',
        probability: 0.8,
        score: (0.8 * 0.3) / 64,
        estimatedTokens: 64,
        position: 0,
      },
      {
        tool: 'a',
        args: { key: '#1' },
        key: '{"key":"#1"}',
        probability: 0.5,
        score: (0.5 * 1.0) / 256,
        estimatedTokens: 256,
        position: 0,
      },
      {
        tool: 'c',
        args: { key: '#3' },
        key: '{"key":"#3"}',
        probability: 0.9,
        score: (0.9 * 0.6) / 512,
        estimatedTokens: 512,
        position: 0,
      },
    ]);
  });

  it('weighs audit_only at 0.1 and counts at least one token for an empty result', () => {
    const [candidate] = plan([link('d', 0.5, 'items[0].key')], {
      d: model({ valueClass: 'audit_only', cost: { typicalKb: 0 } }),
    });
    expect(candidate).toMatchObject({ score: 0.5 * 0.1, estimatedTokens: 1 });
  });

  it('breaks a tie in score by probability, then by link order and argument order', () => {
    const candidates = plan(
      [link('low', 0.4, 'items[0].key'), link('same', 0.4), link('high', 0.8, 'items[0].key')],
      {
        low: model({ cost: { typicalKb: 1 } }),
        same: model({ cost: { typicalKb: 1 } }),
        high: model({ cost: { typicalKb: 2 } }),
      },
    );
    expect(calls(candidates)).toEqual([
      'high {"key":"#1"}',
      'low {"key":"#1"}',
      'same {"key":"#1"}',
      'same {"key":"#2"}',
      'same {"key":"#3"}',
    ]);
    expect(candidates[0]?.score).toBe(candidates[1]?.score);
  });
});

describe('probability floor', () => {
  it('keeps links at the floor and drops those below it', () => {
    const candidates = plan(
      [
        link('at', 0.3, 'items[0].key'),
        link('below', 0.29, 'items[0].key'),
        link('above', 0.9, 'items[0].key'),
      ],
      { at: model(), below: model(), above: model() },
      { settings: { probabilityFloor: 0.3, tokenBudget: 100_000 } },
    );
    expect(calls(candidates)).toEqual(['above {"key":"#1"}', 'at {"key":"#1"}']);
  });
});

describe('token budget', () => {
  const links = [
    link('first', 0.9, 'items[0].key'),
    link('big', 1, 'items[0].key'),
    link('third', 0.4, 'items[0].key'),
  ];
  const targets = {
    first: model({ cost: { typicalKb: 1 } }),
    big: model({ cost: { typicalKb: 2 } }),
    third: model({ cost: { typicalKb: 1 } }),
  };

  it('skips a candidate that does not fit and takes the next one that does', () => {
    const candidates = plan(links, targets, { settings: { probabilityFloor: 0, tokenBudget: 600 } });
    expect(calls(candidates)).toEqual(['first {"key":"#1"}', 'third {"key":"#1"}']);
    expect(candidates.reduce((sum, candidate) => sum + candidate.estimatedTokens, 0)).toBe(512);
  });

  it('takes everything that sums exactly to the budget, and nothing with no budget', () => {
    expect(calls(plan(links, targets, { settings: { probabilityFloor: 0, tokenBudget: 1024 } }))).toEqual([
      'first {"key":"#1"}',
      'big {"key":"#1"}',
      'third {"key":"#1"}',
    ]);
    expect(plan(links, targets, { settings: { probabilityFloor: 0, tokenBudget: 0 } })).toEqual([]);
  });
});

describe('duplicates and covered calls', () => {
  it('keeps one candidate per tool and arguments, with the higher probability', () => {
    const candidates = plan([link('get', 0.3, 'items[0].key'), link('get', 0.6, 'items[*].key')], {
      get: model(),
    });
    expect(candidates.map((candidate) => [candidate.key, candidate.probability])).toEqual([
      ['{"key":"#1"}', 0.6],
      ['{"key":"#2"}', 0.6],
      ['{"key":"#3"}', 0.6],
    ]);
  });

  it('keeps the earlier of two equally likely duplicates and treats key order as the same arguments', () => {
    const links = [link('get', 0.5), link('get', 0.5)];
    const earlier = { a: 1, b: [2, { c: 3, d: 4 }] };
    const later = { b: [2, { d: 4, c: 3 }], a: 1 };
    const candidates = plan(
      links,
      { get: model() },
      { projectArgs: (l) => (l === links[0] ? [earlier, { ...later }] : [later]) },
    );
    expect(candidates).toHaveLength(1);
    expect(candidates[0]?.args).toBe(earlier);
    expect(candidates[0]?.key).toBe('{"a":1,"b":[2,{"c":3,"d":4}]}');
  });

  it('drops calls that are cached and fresh or in flight, asking with the canonical key', () => {
    const asked: string[] = [];
    const candidates = plan(
      [link('get', 0.5)],
      { get: model() },
      {
        isCovered: (tool, key) => {
          asked.push(`${tool} ${key}`);
          return key === '{"key":"#2"}';
        },
      },
    );
    expect(calls(candidates)).toEqual(['get {"key":"#1"}', 'get {"key":"#3"}']);
    expect(asked).toEqual(['get {"key":"#1"}', 'get {"key":"#2"}', 'get {"key":"#3"}']);
  });
});

describe('side effects', () => {
  it('runs only pure and read_only tools', () => {
    const candidates = plan(
      ['pure', 'read_only', 'mutates_local', 'mutates_external', 'indeterminate'].map((tool) =>
        link(tool, 0.5, 'items[0].key'),
      ),
      {
        pure: model({ sideEffect: 'pure' }),
        read_only: model({ sideEffect: 'read_only' }),
        mutates_local: model({ sideEffect: 'mutates_local' }),
        mutates_external: model({ sideEffect: 'mutates_external' }),
        indeterminate: model({ sideEffect: 'indeterminate' }),
      },
    );
    expect(candidates.map((candidate) => candidate.tool)).toEqual(['pure', 'read_only']);
  });

  it('lets speculate = true run a mutating tool and speculate = false stop a read-only one', () => {
    const candidates = plan(
      ['forced', 'stopped', 'stopped_pure', 'indeterminate_forced'].map((tool) =>
        link(tool, 0.5, 'items[0].key'),
      ),
      {
        forced: model({ sideEffect: 'mutates_external', speculate: true }),
        stopped: model({ sideEffect: 'read_only', speculate: false }),
        stopped_pure: model({ sideEffect: 'pure', speculate: false }),
        indeterminate_forced: model({ sideEffect: 'indeterminate', speculate: true }),
      },
    );
    expect(candidates.map((candidate) => candidate.tool)).toEqual(['forced', 'indeterminate_forced']);
  });

  it('drops a link to a tool with no value model', () => {
    const candidates = plan([link('unknown', 0.9, 'items[0].key'), link('known', 0.2, 'items[0].key')], {
      known: model(),
    });
    expect(calls(candidates)).toEqual(['known {"key":"#1"}']);
  });
});

describe('argument sets', () => {
  it("prefers the enricher's projectArgs, even an empty array, and falls back on undefined", () => {
    const links = [link('own', 0.5), link('none', 0.5), link('generic', 0.5, 'items[3].key')];
    const candidates = plan(
      links,
      { own: model(), none: model(), generic: model() },
      {
        projectArgs: (l) => {
          if (l.tool === 'own') return [{ id: 7, repo: 'x' }];
          if (l.tool === 'none') return [];
          return undefined;
        },
      },
    );
    expect(calls(candidates)).toEqual(['own {"id":7,"repo":"x"}', 'generic {"key":"#4"}']);
  });

  it('takes at most three distinct sets per link, from the projection or from projectArgs', () => {
    expect(calls(plan([link('generic', 0.5)], { generic: model() }))).toEqual([
      'generic {"key":"#1"}',
      'generic {"key":"#2"}',
      'generic {"key":"#3"}',
    ]);
    const candidates = plan(
      [link('own', 0.5)],
      { own: model() },
      {
        projectArgs: () => [{ n: 1 }, { n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }],
      },
    );
    expect(calls(candidates)).toEqual(['own {"n":1}', 'own {"n":2}', 'own {"n":3}']);
  });

  it('counts covered sets against the cap rather than reaching further down the list', () => {
    const candidates = plan(
      [link('get', 0.5)],
      { get: model() },
      {
        isCovered: (_tool, key) => key === '{"key":"#1"}',
      },
    );
    expect(calls(candidates)).toEqual(['get {"key":"#2"}', 'get {"key":"#3"}']);
  });

  it('gives nothing for a link with no projection and no projectArgs', () => {
    expect(plan([{ tool: 'get', probability: 0.9 }], { get: model() })).toEqual([]);
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }, [{ k: 1, j: 2 }]], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1},[{"j":2,"k":1}]]},"b":1}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('sorts integer-like keys as strings and serialises the rest as JSON.stringify does', () => {
    expect(canonicalJson({ 10: 'a', 2: 'b', x: undefined, s: 'é"\n' })).toBe(
      '{"10":"a","2":"b","s":"é\\"\\n"}',
    );
    expect(canonicalJson([undefined, Number.NaN, 1.5, true])).toBe('[null,null,1.5,true]');
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(undefined)).toBe('null');
  });
});
