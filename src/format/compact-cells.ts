// The compact notation of values: table cells split by tabs, lists without brackets, key=value pairs for odd items.
import { oneLine, shortJson } from './text.js';

/**
 * Between the cells of a compact table row, and between the names of its header row. Cells are always on one
 * line with whitespace runs made one space, so a tab in a row can only be a separator: nothing needs escaping.
 */
export const CELL_SEPARATOR = '\t';
/** Between the elements of a list inside one cell or value: "bug,ui". */
export const LIST_SEPARATOR = ',';

/** A row (or the header row) of a compact table: every cell on one line, absent ones left empty. */
export function compactRow(cells: readonly (string | undefined)[]): string {
  return cells.map((cell) => (cell === undefined ? '' : oneLine(cell))).join(CELL_SEPARATOR);
}

/**
 * Elements joined by `join` without brackets; when one of them holds the separator, which would make the split
 * ambiguous, the whole list is shown as JSON instead.
 */
export function inlineList(values: readonly string[], join = LIST_SEPARATOR): string {
  const mark = join.trim() || join;
  return values.some((value) => value.includes(mark)) ? JSON.stringify(values) : values.join(join);
}

/** An array of scalars as a bare list; undefined when it holds objects or arrays (shown as short JSON instead). */
export function scalarList(values: readonly unknown[]): string | undefined {
  if (values.some((value) => typeof value === 'object' && value !== null)) return undefined;
  return inlineList(values.map((value) => (value === null ? 'null' : String(value))));
}

/** A nested value in a cell: a bare list of scalars, else JSON cut after a few dozen characters. */
export function nestedValue(value: object): string {
  return (Array.isArray(value) ? scalarList(value) : undefined) ?? shortJson(value);
}

// A value that needs quotes in a key=value pair: empty, or holding whitespace, a quote, "=" or "\".
const NEEDS_QUOTES = /^$|[\s"=\\]/;

/** `key=value`, each side quoted with `"` (and `"`, `\` escaped inside) when it would otherwise be ambiguous. */
export function pair(key: string, value: string): string {
  const quoted = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : text);
  return `${quoted(key)}=${quoted(value)}`;
}
