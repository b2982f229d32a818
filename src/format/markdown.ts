// The markdown writer: a heading and a table per list of rows, a section per comment or file, a field list per detail.
import { type Block, type Writer, lazyItems, textBlock } from './doc.js';
import { excerpt, oneLine } from './text.js';
import {
  EXCERPT_GRAPHEMES,
  type FieldValue,
  type ItemView,
  headline,
  joinValue,
  presentFields,
} from './item-view.js';

/** A table cell: pipes escaped, line breaks as `<br>`. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

export function tableRow(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** The header row and the delimiter row of a table. */
export function tableHead(columns: readonly string[]): string {
  return `${tableRow(columns)}\n|${columns.map(() => '---').join('|')}|`;
}

export function heading(level: number, text: string): string {
  return `${'#'.repeat(level)} ${text}`;
}

/** `[text](url)`, with the characters that would end the link or a table cell percent-encoded. */
export function link(text: string, url: string | undefined): string {
  if (url === undefined) return text;
  const href = url.replace(/[ ()|<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${text.replace(/[[\]]/g, '\\$&')}](${href})`;
}

/** Opening and closing fence for `text`, longer than any run of backticks inside it. */
function fence(text: string, language: string): [string, string] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const ticks = '`'.repeat(longest + 1);
  return [`${ticks}${language}\n`, `\n${ticks}`];
}

const joined = (value: FieldValue, join?: string) => joinValue(value, join ?? ', ');

/** A heading with the text under it, fenced when the view says so; the text can be cut. */
function textSection<T>(view: ItemView<T>, head: string, text: string | undefined): Block {
  if (text === undefined) return { text: head };
  const [open, close] = view.fence === undefined ? ['', ''] : fence(text, view.fence);
  return textBlock(`${head}\n\n${open}`, text, close);
}

function rowsList<T>(view: ItemView<T>, items: readonly T[], level: number) {
  const anyOf = (get: (item: T) => unknown) => items.some((item) => get(item) !== undefined);
  const fields = view.fields.filter((field) => anyOf((item) => field.value(item, false)));
  const showTitle = anyOf(view.title);
  const showState = anyOf(view.state);
  const showText = anyOf(view.text);
  const columns = [
    view.keyLabel,
    ...(showTitle ? ['Title'] : []),
    ...(showState ? ['State'] : []),
    ...fields.map((field) => field.label),
    ...(showText ? ['Excerpt'] : []),
  ];
  const row = (item: T): Block => {
    const url = view.url(item);
    const key = view.key(item);
    const text = view.text(item);
    const cells = [
      key === undefined && url === undefined ? '' : link(oneLine(key ?? 'link'), url),
      ...(showTitle ? [oneLine(view.title(item) ?? '')] : []),
      ...(showState ? [view.state(item) ?? ''] : []),
      ...fields.map((field) => {
        const value = field.value(item, false);
        return value === undefined ? '' : joined(value, field.join);
      }),
      ...(showText ? [text === undefined ? '' : excerpt(text, EXCERPT_GRAPHEMES)] : []),
    ];
    return { text: tableRow(cells) };
  };
  return {
    head: (label: string, empty: boolean) =>
      `${heading(level, `${view.heading} (${label})`)}\n\n${empty ? `No ${view.noun}.` : tableHead(columns)}`,
    ...lazyItems(items, row),
    separator: '\n',
  };
}

function sectionsList<T>(view: ItemView<T>, items: readonly T[], level: number) {
  const section = (item: T): Block => {
    const url = view.url(item);
    const key = view.key(item);
    const meta = [
      headline(view, item, (text) => link(text, url)),
      ...(key === undefined && url !== undefined ? [link('link', url)] : []),
      ...presentFields(view, item, false).map(({ field, value }) => field.compact(joined(value, field.join))),
    ].filter((part) => part !== '');
    return textSection(view, heading(level + 1, meta.join(' · ')), view.text(item));
  };
  return {
    head: (label: string, empty: boolean) =>
      `${heading(level, `${view.heading} (${label})`)}${empty ? `\n\nNo ${view.noun}.` : ''}`,
    ...lazyItems(items, section),
    separator: '\n\n',
  };
}

export const markdownWriter: Writer = {
  list(view, items, nested) {
    const level = nested ? 3 : 2;
    return view.style === 'rows' ? rowsList(view, items, level) : sectionsList(view, items, level);
  },
  detail(view, item) {
    const key = view.key(item);
    const title = view.title(item);
    const name =
      [key, title]
        .filter((part) => part !== undefined)
        .map(oneLine)
        .join(' ') || view.heading;
    const state = view.state(item);
    const url = view.url(item);
    const lines = [
      ...(state === undefined ? [] : [`- **State:** ${oneLine(state)}`]),
      ...(url === undefined ? [] : [`- **URL:** ${url}`]),
      ...presentFields(view, item, true).map(
        ({ field, value }) => `- **${field.label}:** ${oneLine(joined(value, field.join))}`,
      ),
    ];
    const head: Block = {
      text: [heading(2, name), ...(lines.length ? [lines.join('\n')] : [])].join('\n\n'),
    };
    const text = view.text(item);
    return text === undefined ? [head] : [head, textSection(view, heading(3, view.textLabel), text)];
  },
};
