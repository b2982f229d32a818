import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import type { ToolValueModel } from '../src/index.js';
import {
  mayRunAhead,
  replacedLinksNote,
  resolveValueModel,
  sideEffectFromAnnotations,
} from '../src/planner/index.js';

const fromEnricher: ToolValueModel = {
  valueClass: 'critical',
  sideEffect: 'read_only',
  cost: { typicalKb: 8, freshnessTtlS: 60 },
  followUp: [{ tool: 'gh__get_issue', probability: 0.4, projection: 'items[*].key', projectionArg: 'key' }],
  invalidates: [],
  rateLimitHost: 'api.github.com',
};

describe('value models', () => {
  it('takes the side effect of a tool without a model from its annotations; saying nothing counts as unknown', () => {
    expect(sideEffectFromAnnotations({ readOnlyHint: true })).toBe('read_only');
    expect(sideEffectFromAnnotations({ readOnlyHint: false, destructiveHint: false })).toBe(
      'mutates_external',
    );
    expect(sideEffectFromAnnotations({ destructiveHint: true })).toBe('indeterminate');
    expect(sideEffectFromAnnotations(undefined)).toBe('indeterminate');
    expect(resolveValueModel({ annotations: { readOnlyHint: true } })).toEqual({
      valueClass: 'supporting',
      sideEffect: 'read_only',
      cost: { typicalKb: 4 },
      followUp: [],
      invalidates: [],
    });
  });

  it('merges field by field: defaults, then the enricher, then [tools."*"], then the named block', () => {
    const config = parseConfig(
      [
        '[tools."*"]',
        'freshness_ttl_s = 30',
        'speculate = true',
        '[tools."gh__get_issues"]',
        'typical_kb = 20',
        'speculate = false',
        'follow_up = []',
      ].join('\n'),
      '/p/foresight.toml',
      '/p',
      {},
    );
    const model = resolveValueModel({
      annotations: { readOnlyHint: false },
      fromEnricher,
      wildcard: config.tools['*'],
      named: config.tools.gh__get_issues,
    });
    expect(model).toEqual({
      valueClass: 'critical',
      sideEffect: 'read_only',
      cost: { typicalKb: 20, freshnessTtlS: 30 },
      followUp: [],
      invalidates: [],
      rateLimitHost: 'api.github.com',
      speculate: false,
    });
  });

  it('runs ahead only pure and read-only tools, unless speculate says otherwise', () => {
    const base = resolveValueModel({ fromEnricher });
    expect(mayRunAhead(base)).toBe(true);
    expect(mayRunAhead({ ...base, sideEffect: 'pure' })).toBe(true);
    for (const sideEffect of ['mutates_local', 'mutates_external', 'indeterminate'] as const)
      expect(mayRunAhead({ ...base, sideEffect })).toBe(false);
    expect(mayRunAhead({ ...base, sideEffect: 'indeterminate', speculate: true })).toBe(true);
    expect(mayRunAhead({ ...base, speculate: false })).toBe(false);
  });
});

// A block's follow_up replaces the enricher's links; check says which it drops.
describe('replacedLinksNote', () => {
  const seed = { tool: 'gh__get_issue_comments', probability: 0.5, projection: 'key', projectionArg: 'key' };

  it('names the block and each built-in link a follow_up leaves out', () => {
    expect(replacedLinksNote('gh__get_issues', { fromEnricher, named: { followUp: [seed] } })).toBe(
      '[tools."gh__get_issues"] follow_up replaces the built-in follow-up links of gh__get_issues; no longer followed: gh__get_issue (projection items[*].key) p=0.4. List them in follow_up to keep them',
    );
    expect(replacedLinksNote('gh__get_issues', { fromEnricher, wildcard: { followUp: [] } })).toContain(
      '[tools."*"] follow_up replaces',
    );
  });

  it('says nothing when no block sets follow_up, the built-in links are kept, or there are none', () => {
    expect(replacedLinksNote('gh__get_issues', { fromEnricher, named: { typicalKb: 2 } })).toBeUndefined();
    const kept = { followUp: [...fromEnricher.followUp, seed] };
    expect(replacedLinksNote('gh__get_issues', { fromEnricher, named: kept })).toBeUndefined();
    expect(replacedLinksNote('x__y', { named: { followUp: [seed] } })).toBeUndefined();
  });
});
