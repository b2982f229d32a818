// The format token table: characters and tokens of every corpus case in every output format, and a printer.
// Print it with: node --import tsx test/support/format-token-table.ts
import { pathToFileURL } from 'node:url';
import { OUTPUT_FORMATS, type OutputFormat } from '../../src/contract/index.js';
import { countTokens, renderStructured } from '../../src/format/index.js';
import { type CorpusCase, formatCorpus } from './format-corpus.js';

// Large enough that nothing is trimmed: the table measures the formats, not the budget.
const UNLIMITED_BUDGET = 10_000_000;

export interface TableRow {
  name: string;
  kind: CorpusCase['kind'];
  texts: Record<OutputFormat, string>;
  chars: Record<OutputFormat, number>;
  tokens: Record<OutputFormat, number>;
}

export function measureCase(entry: CorpusCase): TableRow {
  const texts = {} as Record<OutputFormat, string>;
  const chars = {} as Record<OutputFormat, number>;
  const tokens = {} as Record<OutputFormat, number>;
  for (const format of OUTPUT_FORMATS) {
    const text = renderStructured(entry.data, format, { budgetTokens: UNLIMITED_BUDGET }).text;
    texts[format] = text;
    chars[format] = [...text].length;
    tokens[format] = countTokens(text);
  }
  return { name: entry.name, kind: entry.kind, texts, chars, tokens };
}

export function formatTokenTable(): TableRow[] {
  return formatCorpus().map(measureCase);
}

const number = (value: number) => value.toLocaleString('en-US');

/** The table as markdown: one row per case, "tokens / characters" per format, the smallest in bold. */
export function printTable(rows: readonly TableRow[]): string {
  const header = `| case | data | ${OUTPUT_FORMATS.join(' | ')} |`;
  const align = `| --- | --- | ${OUTPUT_FORMATS.map(() => '---:').join(' | ')} |`;
  const lines = rows.map((row) => {
    const least = Math.min(...OUTPUT_FORMATS.map((format) => row.tokens[format]));
    const cells = OUTPUT_FORMATS.map((format) => {
      const cell = `${number(row.tokens[format])} / ${number(row.chars[format])}`;
      return row.tokens[format] === least ? `**${cell}**` : cell;
    });
    return `| ${row.name} | ${row.kind} | ${cells.join(' | ')} |`;
  });
  return [header, align, ...lines].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log('tokens (gpt-tokenizer o200k_base) / characters (code points), budget unlimited\n');
  console.log(printTable(formatTokenTable()));
}
