// Compact layout of any JSON list: records that share their keys as a table with one header row, others as key=value pairs.
import { compactRow, nestedValue, pair } from './compact-cells.js';
import { type Block, type DocList, lazyItems } from './doc.js';
import { ROW_TEXT_GRAPHEMES, excerpt } from './text.js';

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Records are a table when their rows fill at least this share of the table's cells.
const TABLE_FILL = 2 / 3;

/** Whether a value is shown: null, undefined, empty lists and empty objects are left out. */
function shown(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** A value in compact notation: strings on one line and cut, lists bare, nested values as short JSON. */
export function compactValue(value: unknown): string | undefined {
  if (!shown(value)) return undefined;
  if (typeof value === 'string') return excerpt(value, ROW_TEXT_GRAPHEMES);
  if (typeof value === 'object') return nestedValue(value as object);
  return String(value);
}

/** Keys with a shown value in some record, in first-seen order. */
function columnsOf(records: readonly Json[]): string[] {
  const columns = new Set<string>();
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) if (shown(value)) columns.add(key);
  }
  return [...columns];
}

/** Whether every record has the same keys as the first, in any order (null values included). */
function sameKeys(records: readonly Json[]): boolean {
  const first = new Set(Object.keys(records[0] ?? {}));
  return records.every((record) => {
    const keys = Object.keys(record);
    return keys.length === first.size && keys.every((key) => first.has(key));
  });
}

/**
 * A table when the records are uniform (the same keys, or rows that fill most of their cells), or when key=value
 * pairs would spend more characters on keys than a markdown table spends on its borders (an estimate: quotes
 * are not counted), so that pairs stay smaller than markdown.
 */
function readsAsTable(records: readonly Json[], columns: readonly string[]): boolean {
  if (sameKeys(records)) return true;
  let filled = 0;
  let keyChars = 0;
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      if (!shown(value)) continue;
      filled++;
      keyChars += key.length + 2;
    }
  }
  if (filled >= TABLE_FILL * records.length * columns.length) return true;
  const markdownBorders =
    columns.reduce((sum, key) => sum + key.length + 7, 2) + records.length * (3 * columns.length + 1);
  return keyChars > markdownBorders;
}

/** The lines of a generic list in compact form, headed "<name> (<count>):". */
export function compactRows(
  items: readonly unknown[],
  name: string,
): Pick<DocList, 'head' | 'count' | 'item' | 'separator'> {
  const records = items.length > 0 && items.every(isRecord) ? (items as readonly Json[]) : undefined;
  const columns = records ? columnsOf(records) : [];
  const table = records !== undefined && columns.length > 0 && readsAsTable(records, columns);
  const line = (item: unknown): Block => {
    if (table) return { text: compactRow(columns.map((key) => compactValue((item as Json)[key]))) };
    if (!isRecord(item)) return { text: compactValue(item) ?? 'null' };
    return {
      text: Object.entries(item)
        .flatMap(([key, value]) => {
          const text = compactValue(value);
          return text === undefined ? [] : [pair(key, text)];
        })
        .join(' '),
    };
  };
  return {
    head: (label, empty) =>
      empty ? `${name}: none.` : `${name} (${label}):${table ? `\n${compactRow(columns)}` : ''}`,
    ...lazyItems(items, line),
    separator: '\n',
  };
}
