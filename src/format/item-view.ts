// What an item shows, field by field: the view types, the readers that make shape values safe to show, and field builders.
import { oneLine } from './text.js';

/** A shown value: one string, or several that the writer joins. */
export type FieldValue = string | readonly string[];

export interface FieldView<T> {
  /** Column and field-list label in markdown: "Assignees". */
  label: string;
  /** The value, or undefined when the item does not have it. `detail` asks for the long form (full timestamps). */
  value(item: T, detail: boolean): FieldValue | undefined;
  /** Header of its column in a compact table; default the label in lower case. */
  column?: string;
  /** The compact form of the joined value: "→ bob,carol". */
  compact(text: string): string;
  /** How a list value is joined; default ", " in markdown and "," in compact. */
  join?: string;
}

export interface ItemView<T> {
  /** Plural noun for counts and notices: "issues". */
  noun: string;
  /** Heading of a list: "Issues". */
  heading: string;
  /** A list shows a table row per item, or a section per item with its whole text. */
  style: 'rows' | 'sections';
  /** Header of the key column. */
  keyLabel: string;
  key(item: T): string | undefined;
  title(item: T): string | undefined;
  state(item: T): string | undefined;
  url(item: T): string | undefined;
  fields: readonly FieldView<T>[];
  /** The long text: an issue's body, a comment, a file's diff. */
  text(item: T): string | undefined;
  /** What the text is called in details ("Description"), and the code-fence language it is shown in, if any. */
  textLabel: string;
  fence?: string;
}

// Plugins fill shapes from JSON; read them defensively so one odd value never breaks a rendering.
export const str = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value === ''
      ? undefined
      : value
    : typeof value === 'number'
      ? String(value)
      : undefined;

export const strs = (value: unknown): string[] | undefined => {
  if (!Array.isArray(value)) return undefined;
  const items = value.map(str).filter((item): item is string => item !== undefined);
  return items.length > 0 ? items : undefined;
};

export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** "2020-05-02" in lists, "2020-05-02 14:30 UTC" in details; a value that is not a date is shown as given. */
export function shownDate(value: unknown, detail: boolean): string | undefined {
  const text = str(value);
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return text;
  const iso = new Date(time).toISOString();
  return detail ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso.slice(0, 10);
}

/** A value of any JSON type as short text: strings as they are, the rest as JSON. */
export function shownValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : value;
  return JSON.stringify(value);
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const dateField = <T>(label: string, word: string, get: (item: T) => unknown): FieldView<T> => ({
  label,
  value: (item, detail) => shownDate(get(item), detail),
  compact: (text) => `${word} ${text}`,
});

export const commentsField = <T extends { commentCount?: number }>(): FieldView<T> => ({
  label: 'Comments',
  value: (item) => str(num(item.commentCount)),
  compact: (text) => plural(Number(text), 'comment', 'comments'),
});

export const authorField = <T extends { author?: string }>(): FieldView<T> => ({
  label: 'Author',
  value: (item) => str(item.author),
  compact: (text) => `by ${text}`,
});

export const assigneesField = <T extends { assignees?: string[] }>(): FieldView<T> => ({
  label: 'Assignees',
  value: (item) => strs(item.assignees),
  compact: (text) => `→ ${text}`,
});

export const labelsField = <T extends { labels?: string[] }>(): FieldView<T> => ({
  label: 'Labels',
  value: (item) => strs(item.labels),
  compact: (text) => `[${text}]`,
});

export const wordField = <T>(label: string, word: string, get: (item: T) => unknown): FieldView<T> => ({
  label,
  value: (item) => str(get(item)),
  compact: (text) => `${word} ${text}`,
});

/** A field's value as one string: a list joined with the field's own separator, else with the writer's. */
export function joinValue(value: FieldValue, join: string): string {
  return typeof value === 'string' ? value : value.join(join);
}

/** The values an item shows, in field order, leaving out the absent ones. */
export function presentFields<T>(
  view: ItemView<T>,
  item: T,
  detail: boolean,
): { field: FieldView<T>; value: FieldValue }[] {
  return view.fields.flatMap((field) => {
    const value = field.value(item, detail);
    return value === undefined ? [] : [{ field, value }];
  });
}

/** Graphemes of body text shown in a list row. */
export const EXCERPT_GRAPHEMES = 80;

/** "#13 [open] Test issue 13": the item's key, state and title, on one line; `key` may be rewritten (linked). */
export function headline<T>(view: ItemView<T>, item: T, key: (key: string) => string = (k) => k): string {
  const parts: string[] = [];
  const itemKey = view.key(item);
  const state = view.state(item);
  const title = view.title(item);
  if (itemKey !== undefined) parts.push(key(oneLine(itemKey)));
  if (state !== undefined) parts.push(`[${oneLine(state)}]`);
  if (title !== undefined) parts.push(oneLine(title));
  return parts.join(' ');
}
