import { describe, expect, it } from 'vitest';
import { evaluateProjection, parseProjection, projectFollowUp } from '../src/planner/index.js';

const data = {
  kind: 'issue_list',
  items: [{ key: '#3' }, { key: '#2' }, { key: '#3' }, { key: '#1' }, { key: '#0' }, { title: 'no key' }],
  item: { jobs: [{ id: 'a' }, { id: 'b' }] },
};

describe('projection paths', () => {
  it('walks keys, every element with [*], and one element with [N]', () => {
    expect(evaluateProjection(data, 'items[*].key')).toEqual(['#3', '#2', '#3', '#1', '#0']);
    expect(evaluateProjection(data, 'items[1].key')).toEqual(['#2']);
    expect(evaluateProjection(data, 'item.jobs[*].id')).toEqual(['a', 'b']);
    expect(evaluateProjection(['x', 'y'], '[*]')).toEqual(['x', 'y']);
    expect(evaluateProjection(data, 'items[9].key')).toEqual([]);
    expect(evaluateProjection(data, 'missing[*].key')).toEqual([]);
  });

  it('refuses what is not a path, saying so', () => {
    expect(() => parseProjection('items[*]..key')).toThrow('projection "items[*]..key": unexpected ".."');
    expect(() => parseProjection('items[x]')).toThrow('projection "items[x]": unexpected "["');
    expect(() => parseProjection('')).toThrow('projection "" is not a path such as items[*].key');
  });
});

describe('follow-up arguments', () => {
  const link = { tool: 'gh__get_issue', probability: 0.4, projection: 'items[*].key', projectionArg: 'key' };

  it('gives at most three distinct argument sets, from structuredContent', () => {
    expect(projectFollowUp({ content: [], structuredContent: data }, link)).toEqual([
      { key: '#3' },
      { key: '#2' },
      { key: '#1' },
    ]);
  });

  it('reads JSON text content when there is no structuredContent', () => {
    const result = {
      content: [
        { type: 'text' as const, text: 'not json' },
        { type: 'text' as const, text: JSON.stringify(data) },
      ],
    };
    expect(projectFollowUp(result, { ...link, projection: 'items[0].key' })).toEqual([{ key: '#3' }]);
  });

  it('gives nothing without a projection, or from a result with no data', () => {
    expect(projectFollowUp({ content: [], structuredContent: data }, { tool: 'x', probability: 1 })).toEqual(
      [],
    );
    expect(projectFollowUp({ content: [{ type: 'text', text: 'plain' }] }, link)).toEqual([]);
  });
});
