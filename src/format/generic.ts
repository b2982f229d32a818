// Lays out any JSON value when no shape is known: arrays as a table or lines, objects as fields, nested values as short JSON.
import { type Block, type Doc, type ListSlot, lazyItems, textBlock } from './doc.js';
import { compactRows, compactValue } from './generic-compact.js';
import { heading, tableHead, tableRow } from './markdown.js';
import { ROW_TEXT_GRAPHEMES, excerpt, shortJson } from './text.js';

export type GenericStyle = 'markdown' | 'compact';

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value in a row or a field line; undefined for null and undefined, which are left out. */
function inline(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return excerpt(value, ROW_TEXT_GRAPHEMES);
  if (typeof value === 'object') return shortJson(value);
  return String(value);
}

const isLongText = (value: unknown): value is string =>
  typeof value === 'string' && (value.includes('\n') || value.length > ROW_TEXT_GRAPHEMES);

/** The key of an object's longest non-empty array: the list a budget may shorten. */
function mainArrayKey(data: Json): string | undefined {
  let best: string | undefined;
  for (const [key, value] of Object.entries(data)) {
    const length = Array.isArray(value) ? value.length : 0;
    if (length > 0 && (best === undefined || length > (data[best] as unknown[]).length)) best = key;
  }
  return best;
}

const rest = (leftOut: number) =>
  `the other ${leftOut} are left out; ask for fewer or narrower results to see them.`;

/** The list in any JSON value: the value itself when it is an array, else an object's longest array. */
export function genericList(data: unknown): ListSlot | undefined {
  const slot = (items: readonly unknown[], noun: string, put: (items: unknown[]) => unknown): ListSlot => ({
    items,
    noun,
    page: { offset: 0, total: items.length },
    rest,
    with: put,
  });
  if (Array.isArray(data)) return slot(data, 'items', (items) => items);
  if (!isRecord(data)) return undefined;
  const key = mainArrayKey(data);
  return key === undefined
    ? undefined
    : slot(data[key] as unknown[], key, (items) => ({ ...data, [key]: items }));
}

function rows(items: readonly unknown[], name: string, style: GenericStyle, level: number) {
  if (style === 'compact') return compactRows(items, name);
  const records = items.length > 0 && items.every(isRecord);
  const title = heading(level, name);
  if (!records) {
    return {
      head: (label: string, empty: boolean) => `${title} (${label})${empty ? '\n\nNone.' : '\n'}`,
      ...lazyItems(items, (item): Block => ({ text: `- ${inline(item) ?? 'null'}` })),
      separator: '\n',
    };
  }
  // Columns in first-seen order, leaving out those with no value in any row.
  const columns = [
    ...new Set(
      items.flatMap((item) =>
        Object.entries(item as Json).flatMap(([key, value]) =>
          value === null || value === undefined ? [] : [key],
        ),
      ),
    ),
  ];
  return {
    head: (label: string) => `${title} (${label})\n\n${tableHead(columns)}`,
    ...lazyItems(items, (item): Block => ({
      text: tableRow(columns.map((key) => inline((item as Json)[key]) ?? '')),
    })),
    separator: '\n',
  };
}

function fields(data: Json, skip: string | undefined, style: GenericStyle): Block[] {
  const lines: string[] = [];
  const sections: Block[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === skip) continue;
    if (isLongText(value)) {
      sections.push(textBlock(style === 'markdown' ? `${heading(3, key)}\n\n` : `${key}:\n`, value));
      continue;
    }
    const text = style === 'markdown' ? inline(value) : compactValue(value);
    if (text !== undefined) lines.push(style === 'markdown' ? `- **${key}:** ${text}` : `${key}: ${text}`);
  }
  return [...(lines.length > 0 ? [{ text: lines.join('\n') }] : []), ...sections];
}

export function genericDoc(data: unknown, style: GenericStyle): Doc {
  const slot = genericList(data);
  const list = (name: string) =>
    slot && { ...rows(slot.items, name, style, 2), noun: slot.noun, page: slot.page, rest: slot.rest };
  if (Array.isArray(data)) return { lead: [], list: list('Items') };
  if (isRecord(data)) {
    const key = mainArrayKey(data);
    const lead = fields(data, key, style);
    if (key === undefined) return { lead: lead.length > 0 ? lead : [{ text: '(empty)' }] };
    return { lead, list: list(key) };
  }
  return { lead: [textBlock('', typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data)))] };
}
