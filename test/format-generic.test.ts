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
        'id\tname\ttags\towner',
        '1\ta|b\tx,y\t{"login":"o"}',
        '2\tЁлка 🎄\t\t',
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

describe('generic renderer, compact', () => {
  const services = Array.from({ length: 40 }, (_, i) => ({
    id: 1200 + i,
    name: `svc-${i}`,
    status: i % 3 === 0 ? 'degraded' : 'running',
    tags: i % 2 === 0 ? ['prod', 'pci'] : [],
    note: i === 1 ? 'Said "ok"\tthen\nleft | fine' : null,
    owner: i === 2 ? { login: 'o' } : undefined,
  }));

  it('gives uniform records one header row, then a line of values per record, lists without brackets', () => {
    const lines = renderStructured(services, 'compact').text.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Items (40):',
      'id\tname\tstatus\ttags\tnote\towner',
      '1200\tsvc-0\tdegraded\tprod,pci\t\t',
      // Tabs and line breaks inside a value become spaces, so a tab is always a separator; quotes and "|" stay.
      '1201\tsvc-1\trunning\t\tSaid "ok" then left | fine\t',
      '1202\tsvc-2\trunning\tprod,pci\t\t{"login":"o"}',
    ]);
    expect(lines).toHaveLength(42);
    for (const line of lines.slice(1)) expect(line.split('\t')).toHaveLength(6);
  });

  it('shows a list whose elements hold a comma as JSON, so the split stays unambiguous', () => {
    const text = renderStructured(
      [
        { id: 1, labels: ['a, b', 'c'] },
        { id: 2, labels: ['d'] },
      ],
      'compact',
    ).text;
    expect(text).toBe('Items (2):\nid\tlabels\n1\t["a, b","c"]\n2\td');
  });

  it('gives records of different kinds key=value pairs, quoting values with spaces and escaping quotes', () => {
    const events = [
      { type: 'push', actor: 'alice', commits: 3 },
      { type: 'comment', actor: 'bob', excerpt: 'Said "no" to C:\\temp' },
      { type: 'label', added: ['bug', 'ui'], empty: '' },
      { type: 'release', tag: 'v2.0', assets: [{ name: 'a.tgz' }] },
    ];
    expect(renderStructured(events, 'compact').text).toBe(
      [
        'Items (4):',
        'type=push actor=alice commits=3',
        'type=comment actor=bob excerpt="Said \\"no\\" to C:\\\\temp"',
        'type=label added=bug,ui empty=""',
        'type=release tag=v2.0 assets="[{\\"name\\":\\"a.tgz\\"}]"',
      ].join('\n'),
    );
  });

  it('cuts a compact table within the budget by whole rows, keeping the header row', () => {
    const { text, trimmed } = renderStructured(services, 'compact', { budgetTokens: 200 });
    const shown = trimmed?.shownItems ?? 0;
    expect(shown).toBeGreaterThan(3);
    expect(shown).toBeLessThan(40);
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual([`Items (${shown} of 40):`, 'id\tname\tstatus\ttags\tnote\towner']);
    expect(lines.filter((line) => /^12\d\d\t/.test(line))).toHaveLength(shown);
    expect(countTokens(text)).toBeLessThanOrEqual(200);
  });
});

describe('generic renderer, compact: table or pairs', () => {
  it('gives sparse records with long keys a table, as pairs would cost more than a markdown table', () => {
    const records = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0 ? { first_rather_long_field_name: i } : { second_rather_long_field_name: i },
    );
    const compact = renderStructured(records, 'compact').text;
    expect(compact.split('\n').slice(0, 4)).toEqual([
      'Items (10):',
      'first_rather_long_field_name\tsecond_rather_long_field_name',
      '0\t',
      '\t1',
    ]);
    expect(compact.length).toBeLessThan(renderStructured(records, 'markdown').text.length);
  });
});
