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

// What server-filesystem's search_files returns: one absolute path a line, or a sentence when nothing matched.
const listing = { content: '/tmp/t/notes/alpha.md\r\n\n  /tmp/t/notes/beta.md  \n/tmp/t/b.md\n' };

describe('projection filters over text', () => {
  it('splits a string into its lines with | lines, leaving out blank lines and the spaces around each', () => {
    expect(evaluateProjection(listing, 'content | lines')).toEqual([
      '/tmp/t/notes/alpha.md',
      '/tmp/t/notes/beta.md',
      '/tmp/t/b.md',
    ]);
    expect(evaluateProjection(listing, 'content|lines')).toEqual(
      evaluateProjection(listing, 'content | lines'),
    );
    expect(evaluateProjection({ items: ['a\nb', 'c', 7] }, 'items[*] | lines')).toEqual(['a', 'b', 'c']);
    expect(evaluateProjection({ content: 42 }, 'content | lines')).toEqual([]);
  });

  it('keeps the values a pattern matches with | match(re), or their first capture group', () => {
    expect(evaluateProjection({ content: 'No matches found' }, 'content | lines | match(^/)')).toEqual([]);
    expect(evaluateProjection(listing, 'content | lines | match(^/tmp/t/notes/)')).toEqual([
      '/tmp/t/notes/alpha.md',
      '/tmp/t/notes/beta.md',
    ]);
    const dir = { content: '[DIR] notes\n[FILE] a.md\n[FILE] b.md' };
    expect(evaluateProjection(dir, 'content | lines | match(^\\[FILE\\] (.+)$)')).toEqual(['a.md', 'b.md']);
    // The pattern runs to the last ")": alternation and groups need no escaping.
    expect(evaluateProjection(dir, 'content|lines|match(^\\[(?:FILE|DIR)\\] (a|n).*)')).toEqual(['n', 'a']);
    // A group that matched nothing gives no value, rather than an empty argument.
    expect(evaluateProjection(dir, 'content | lines | match(^\\[DIR\\] (x?))')).toEqual([]);
    expect(evaluateProjection({ n: 3 }, 'n | match(3)')).toEqual([]);
  });

  it('reads the data itself when there is no path: | lines over a text result', () => {
    expect(evaluateProjection('a\nb', '| lines')).toEqual(['a', 'b']);
    // Without | lines, match(re) sees the whole text: it keeps it, or its group.
    expect(evaluateProjection('a\nb', '|match(b)')).toEqual(['a\nb']);
    expect(evaluateProjection('id: 7\n', '| match(id: (\\d+))')).toEqual(['7']);
  });

  it('refuses unknown filters, a match(...) that is not last, and a pattern that does not compile', () => {
    expect(() => parseProjection('content | words')).toThrow(
      'projection "content | words": unknown filter "words" (filters: lines, match(re))',
    );
    expect(() => parseProjection('content |')).toThrow('unknown filter ""');
    expect(() => parseProjection('content | match(^/) | lines')).toThrow(
      'match(...) must be the last filter, closed by ")"',
    );
    expect(() => parseProjection('content | match(^/')).toThrow('must be the last filter');
    expect(() => parseProjection('content | match(([)')).toThrow(
      'projection "content | match(([)": match(([) is not a regular expression',
    );
    expect(() => parseProjection('items[x] | lines')).toThrow(
      'projection "items[x] | lines": unexpected "["',
    );
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
    expect(projectFollowUp({ content: [] }, { ...link, projection: '| lines' })).toEqual([]);
  });

  const read = { tool: 'fs__read_text_file', probability: 0.5, projectionArg: 'path' };

  it('projects the lines of a structured text field, as server-filesystem’s search_files gives it', () => {
    const result = {
      content: [{ type: 'text' as const, text: listing.content }],
      structuredContent: listing,
    };
    expect(projectFollowUp(result, { ...read, projection: 'content | lines | match(^/)' })).toEqual([
      { path: '/tmp/t/notes/alpha.md' },
      { path: '/tmp/t/notes/beta.md' },
      { path: '/tmp/t/b.md' },
    ]);
    const none = { content: [], structuredContent: { content: 'No matches found' } };
    expect(projectFollowUp(none, { ...read, projection: 'content | lines | match(^/)' })).toEqual([]);
  });

  it('projects the lines of plain text blocks, joined, when the result has no JSON', () => {
    const result = {
      content: [
        { type: 'text' as const, text: 'src/a.ts\nsrc/b.ts' },
        { type: 'text' as const, text: 'src/a.ts\n42' },
      ],
    };
    expect(projectFollowUp(result, { ...read, projection: '| lines' }, 10)).toEqual([
      { path: 'src/a.ts' },
      { path: 'src/b.ts' },
      { path: '42' },
    ]);
    // A text that is a JSON scalar is still text: its one line is an item, not data a path reads.
    expect(
      projectFollowUp({ content: [{ type: 'text', text: '42' }] }, { ...read, projection: '| lines' }),
    ).toEqual([{ path: '42' }]);
  });
});

// The seeds name a field of the result (`match_path`) rather than a path to it.
describe('a bare field name', () => {
  const read = { tool: 'ws__read_file', probability: 0.5, projectionArg: 'path' };

  it('is read from the result and from each item of the lists it holds, in document order', () => {
    const found = {
      match_path: 'top.md',
      matches: [{ match_path: 'a.md' }, { other: 1 }, { match_path: 'b.md' }],
    };
    expect(evaluateProjection(found, 'match_path')).toEqual(['top.md', 'a.md', 'b.md']);
    expect(
      evaluateProjection([{ match_path: 'x.md' }, 'plain', { match_path: 'y.md' }], 'match_path'),
    ).toEqual(['x.md', 'y.md']);
    // Only the lists the result holds itself: a field deeper down needs a path.
    expect(evaluateProjection({ page: { matches: [{ match_path: 'deep.md' }] } }, 'match_path')).toEqual([]);
    expect(evaluateProjection(data, 'key')).toEqual(['#3', '#2', '#3', '#1', '#0']);
    expect(evaluateProjection(data, 'kind')).toEqual(['issue_list']);
  });

  it('projects one argument set per distinct value, from structured content or a JSON text', () => {
    const listed = [{ match_path: 'a.md' }, { match_path: 'a.md' }, { match_path: 'b.md' }];
    expect(
      projectFollowUp(
        { content: [{ type: 'text', text: JSON.stringify({ matches: listed }) }] },
        {
          ...read,
          projection: 'match_path',
        },
      ),
    ).toEqual([{ path: 'a.md' }, { path: 'b.md' }]);
    expect(
      projectFollowUp(
        { content: [], structuredContent: { paths: ['a.md'] } },
        { ...read, projection: 'match_path' },
      ),
    ).toEqual([]);
  });

  it('is a key step when a path or a filter follows it', () => {
    expect(parseProjection('match_path')).toEqual([{ kind: 'field', name: 'match_path' }]);
    expect(parseProjection('content | lines')).toEqual([{ kind: 'key', name: 'content' }, { kind: 'lines' }]);
    expect(parseProjection('items[*]')).toEqual([{ kind: 'key', name: 'items' }, { kind: 'each' }]);
  });
});
