// The compact writer: one line per item with only the fields that matter, and a few lines per detail.
import { type Block, type Writer, lazyItems, textBlock } from './doc.js';
import { excerpt } from './text.js';
import {
  EXCERPT_GRAPHEMES,
  type FieldValue,
  type ItemView,
  headline,
  joinValue,
  presentFields,
} from './item-view.js';

const SEPARATOR = ' · ';

const joined = (value: FieldValue, join?: string) => joinValue(value, join ?? ',');

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

export const compactWriter: Writer = {
  list(view, items) {
    if (view.style === 'rows') {
      const line = (item: (typeof items)[number]): Block => {
        const text = view.text(item);
        const quoted = text === undefined ? [] : [`"${excerpt(text, EXCERPT_GRAPHEMES)}"`];
        return { text: [summaryLine(view, item, false), ...quoted].join(SEPARATOR) };
      };
      return { head: listHead(view), ...lazyItems(items, line), separator: '\n' };
    }
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
