// The document a writer builds before the budget is applied: blocks always shown, and a list whose tail may go.
import type { PageInfo } from '../contract/index.js';
import { cutWithNote } from './text.js';
import { countTokens } from './tokens.js';
import type { ItemView } from './item-view.js';

/** A piece of rendered text; one with long text in it can be cut. */
export interface Block {
  text: string;
  /** The block within about `maxTokens`, its long text cut with a note; undefined when it cannot get that small. */
  cut?(maxTokens: number, budgetTokens: number): string | undefined;
}

export interface DocList {
  /** The list heading (and table header) for a count label such as "20 of 143"; `empty` when nothing is listed. */
  head(label: string, empty: boolean): string;
  /** Items in the list; each is laid out only when the budget gets to it. */
  count: number;
  item(index: number): Block;
  /** Between the head and the first item, and between items. */
  separator: string;
  /** Plural noun for the notice: "issues". */
  noun: string;
  page?: PageInfo;
  /** How to get the items left out: call again with the page's offset parameter, or what to say instead. */
  rest: 'page' | ((leftOut: number) => string);
}

/** A result's list that the budget may shorten, and how to put a shorter one back into the data. */
export interface ListSlot extends Pick<DocList, 'noun' | 'page' | 'rest'> {
  items: readonly unknown[];
  with(items: unknown[]): unknown;
}

export interface Doc {
  /** Shown in full, in order, except that long text in them may be cut. */
  lead: Block[];
  list?: DocList;
}

/** Turns the writer's view of one format into documents: what markdown and compact each provide. */
export interface Writer {
  list<T>(
    view: ItemView<T>,
    items: readonly T[],
    nested: boolean,
  ): Pick<DocList, 'head' | 'count' | 'item' | 'separator'>;
  /** One item in full: its head (key, title, fields), then its long text. */
  detail<T>(view: ItemView<T>, item: T): Block[];
}

/** The list's items, each laid out on first use and kept: a budget usually reaches only the first few. */
export function lazyItems<T>(
  items: readonly T[],
  layout: (item: T) => Block,
): Pick<DocList, 'count' | 'item'> {
  const done: Block[] = [];
  return {
    count: items.length,
    item: (index) => (done[index] ??= layout(items[index] as T)),
  };
}

/** A block of `before` + `text` + `after` whose `text` can be cut at a grapheme boundary, with a note after it. */
export function textBlock(before: string, text: string, after = ''): Block {
  const whole = `${before}${text}${after}`;
  return {
    text: whole,
    cut(maxTokens, budgetTokens) {
      const cut = cutWithNote(text, maxTokens - countTokens(before) - countTokens(after) - 1, budgetTokens);
      if (cut === undefined) return undefined;
      return cut.note === '' ? whole : `${before}${cut.text}${after}\n${cut.note}`;
    },
  };
}
