// The format token table: on shaped and generic lists of real-looking data, compact is the smallest format.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS } from '../src/contract/index.js';
import { countTokens, renderStructured } from '../src/format/index.js';
import { formatCorpus } from './support/format-corpus.js';
import { type TableRow, formatTokenTable } from './support/format-token-table.js';

const table = formatTokenTable();
const others = OUTPUT_FORMATS.filter((format) => format !== 'compact');

describe('the format token table', () => {
  it('covers shaped and generic lists of real size', () => {
    expect(table.filter((row) => row.kind === 'shaped').length).toBeGreaterThanOrEqual(6);
    expect(table.filter((row) => row.kind === 'generic').length).toBeGreaterThanOrEqual(5);
    expect(table.find((row) => row.name.startsWith('uniform records (40)'))?.chars.json).toBeGreaterThan(
      5000,
    );
  });

  it.each(table.map((row): [string, TableRow] => [row.name, row]))(
    'compact is the smallest by tokens and by characters: %s',
    (_, row) => {
      for (const format of others) {
        expect(row.tokens.compact, `tokens, compact against ${format}`).toBeLessThan(row.tokens[format]);
        expect(row.chars.compact, `characters, compact against ${format}`).toBeLessThan(row.chars[format]);
      }
    },
  );

  it('names each field once for uniform records: a header row, then rows of as many cells', () => {
    const uniform = table.find((row) => row.name.startsWith('uniform records'));
    const lines = uniform?.texts.compact.split('\n') ?? [];
    const header = lines[1]?.split('\t') ?? [];
    expect(header).toEqual(expect.arrayContaining(['id', 'name', 'status', 'tags', 'note']));
    expect(lines).toHaveLength(42);
    for (const line of lines.slice(2)) {
      expect(line.split('\t')).toHaveLength(header.length);
      expect(line).not.toMatch(/\bname:|\bstatus:|[[\]]/);
    }
  });

  it('cuts every compact rendering within the budget, with the header row kept', () => {
    for (const { name, data } of formatCorpus()) {
      for (const budgetTokens of [300, 1200]) {
        const { text, trimmed } = renderStructured(data, 'compact', { budgetTokens });
        // At least one item is always shown, even past the budget; then compact still costs less than markdown.
        const limit =
          trimmed?.shownItems === 1
            ? countTokens(renderStructured(data, 'markdown', { budgetTokens }).text)
            : budgetTokens;
        expect(countTokens(text), `${name} at ${budgetTokens}`).toBeLessThanOrEqual(limit);
        const whole = table.find((row) => row.name === name)?.texts.compact ?? '';
        const header = whole.split('\n').find((line) => line.includes('\t'));
        if (header !== undefined && !whole.startsWith(header)) expect(text).toContain(header);
      }
    }
  });
});
