// The generic renderer: any JSON without a known shape, as tables, lines and fields, trimmed like any list.
import { describe, expect, it } from 'vitest';
import { countTokens, renderStructured } from '../src/format/index.js';

const search = {
  total_count: 2,
  incomplete_results: false,
  items: [
    { id: 1, name: 'a|b', tags: ['x', 'y'], owner: { login: 'o' }, extra: null },
    { id: 2, name: 'Ёлка 🎄', extra: null },
  ],
};

describe('generic renderer', () => {
  it('renders an object as fields and its longest array as a table, nested values as short JSON', () => {
    expect(renderStructured(search, 'markdown').text).toBe(
      [
        '- **total_count:** 2',
        '- **incomplete_results:** false',
        '',
        '## items (2)',
        '',
        '| id | name | tags | owner |',
        '|---|---|---|---|',
        '| 1 | a\\|b | ["x","y"] | {"login":"o"} |',
        '| 2 | Ёлка 🎄 |  |  |',
      ].join('\n'),
    );
    expect(renderStructured(search, 'compact').text).toBe(
      [
        'total_count: 2',
        'incomplete_results: false',
        '',
        'items (2):',
        'id: 1 · name: a|b · tags: ["x","y"] · owner: {"login":"o"}',
        'id: 2 · name: Ёлка 🎄',
      ].join('\n'),
    );
  });

  it('shortens deep values and gives multi-line strings their own section', () => {
    const { text } = renderStructured(
      { a: 1, nested: { deep: { deeper: 'x'.repeat(100) } }, notes: 'multi\nline' },
      'markdown',
    );
    expect(text).toBe(
      [
        `- **a:** 1`,
        `- **nested:** {"deep":{"deeper":"${'x'.repeat(61)}…`,
        '',
        '### notes',
        '',
        'multi',
        'line',
      ].join('\n'),
    );
  });

  it('renders arrays of scalars as bullet lines, scalars as text, and malformed shapes generically', () => {
    expect(renderStructured([1, 'two', { three: 3 }], 'markdown').text).toBe(
      '## Items (3)\n\n- 1\n- two\n- {"three":3}',
    );
    expect(renderStructured('plain text', 'compact').text).toBe('plain text');
    expect(renderStructured({ kind: 'unknown_kind', value: 3 }, 'compact').text).toBe(
      'kind: unknown_kind\nvalue: 3',
    );
    expect(renderStructured({ kind: 'issue_list', items: 'not a list' }, 'markdown').text).toBe(
      '- **kind:** issue_list\n- **items:** not a list',
    );
    expect(renderStructured({}, 'markdown').text).toBe('(empty)');
  });

  it('drops whole rows from the end and says how many were left out', () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `row ${i}` }));
    const { text, trimmed } = renderStructured(rows, 'markdown', { budgetTokens: 500 });
    const shown = trimmed?.shownItems ?? 0;
    expect(trimmed).toEqual({ shownItems: shown, totalItems: 500 });
    expect(text.split('\n')[0]).toBe(`## Items (${shown} of 500)`);
    expect(text.split('\n').filter((line) => /^\| \d+ \| row \d+ \|$/.test(line))).toHaveLength(shown);
    expect(text.split('\n').at(-1)).toBe(
      `Showing ${shown} of 500 items (trimmed to fit a budget of about 500 tokens, estimated); the other ${500 - shown} are left out; ask for fewer or narrower results to see them.`,
    );
    expect(countTokens(text)).toBeLessThanOrEqual(500);
  });
});
