// The compact writer: a list of rows as a table (one header row, one line per item), a few lines per detail.
import { compactRow, inlineList } from './compact-cells.js';
import { type Block, type Writer, lazyItems, textBlock } from './doc.js';
import { excerpt } from './text.js';
import { EXCERPT_GRAPHEMES, type FieldValue, type ItemView, headline, presentFields } from './item-view.js';

const SEPARATOR = ' · ';

// A list whose elements hold the separator is shown as JSON, here as in table cells.
const joined = (value: FieldValue, join?: string) =>
  typeof value === 'string' ? value : inlineList(value, join);

/** "#13 [open] Test issue 13 · by alice · → bob,carol · [bug,ui] · updated 2020-05-02 · 2 comments · <url>". */
export function summaryLine<T>(view: ItemView<T>, item: T, detail: boolean): string {
  const url = view.url(item);
  return [
    headline(view, item),
    ...presentFields(view, item, detail).map(({ field, value }) => field.compact(joined(value, field.join))),
    ...(url === undefined ? [] : [url]),
  ]
    .filter((part) => part !== '')
    .join(SEPARATOR);
}

function listHead<T>(view: ItemView<T>) {
  return (label: string, empty: boolean) =>
    empty ? `${view.heading}: none.` : `${view.heading} (${label}):`;
}

interface Column<T> {
  name: string;
  cell(item: T): string | undefined;
}

/** A list of rows as a table: the columns some item has a value for, named once in a header row. */
function rowsTable<T>(view: ItemView<T>, items: readonly T[]) {
  const anyOf = (get: (item: T) => unknown) => items.some((item) => get(item) !== undefined);
  const column = (name: string, cell: (item: T) => string | undefined): Column<T>[] =>
    anyOf(cell) ? [{ name, cell }] : [];
  const columns: Column<T>[] = [
    { name: view.keyLabel.toLowerCase(), cell: view.key },
    ...column('title', view.title),
    ...column('state', view.state),
    ...view.fields.flatMap((field) =>
      column(field.column ?? field.label.toLowerCase(), (item) => {
        const value = field.value(item, false);
        return value === undefined || typeof value === 'string' ? value : inlineList(value, field.join);
      }),
    ),
    ...column('url', view.url),
    ...column('excerpt', (item) => {
      const text = view.text(item);
      return text === undefined ? undefined : excerpt(text, EXCERPT_GRAPHEMES);
    }),
  ];
  const header = compactRow(columns.map((col) => col.name));
  return {
    head: (label: string, empty: boolean) =>
      empty ? `${view.heading}: none.` : `${view.heading} (${label}):\n${header}`,
    ...lazyItems(items, (item): Block => ({ text: compactRow(columns.map((col) => col.cell(item))) })),
    separator: '\n',
  };
}

export const compactWriter: Writer = {
  list(view, items) {
    if (view.style === 'rows') return rowsTable(view, items);
    const section = (item: (typeof items)[number]): Block => {
      const text = view.text(item);
      const summary = summaryLine(view, item, false);
      return text === undefined ? { text: summary } : textBlock(`${summary}\n`, text);
    };
    return { head: listHead(view), ...lazyItems(items, section), separator: '\n\n' };
  },
  detail(view, item) {
    const head: Block = { text: summaryLine(view, item, true) };
    const text = view.text(item);
    return text === undefined ? [head] : [head, textBlock('', text)];
  },
};
