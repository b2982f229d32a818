// The words that say what was left out and how to get it: the list notice and the note after cut text.
import type { PageInfo } from '../contract/index.js';
import type { RenderedText } from './formats.js';
import { countTokens } from './tokens.js';

/** "20 of 143" for list headings; "20 of 50+" when the total is unknown and items were left out. */
export function countLabel(shown: number, returned: number, page: PageInfo | undefined): string {
  const total = page?.total;
  if (total !== undefined) return shown === total ? `${total}` : `${shown} of ${total}`;
  return shown === returned ? `${returned}` : `${shown} of ${returned}+`;
}

export function cutNote(budgetTokens: number, omittedChars: number): string {
  return `[… cut to fit a budget of about ${budgetTokens} tokens (estimated); ${omittedChars} more characters not shown]`;
}

export interface ListOutcome {
  noun: string;
  page?: PageInfo;
  rest: 'page' | ((leftOut: number) => string);
  /** Items the result holds. */
  returned: number;
  /** Items shown. */
  shown: number;
  budgetTokens: number;
}

/** Where the next items start, when there are more to get by paging; undefined when there are none. */
export function nextOffset(outcome: ListOutcome): number | undefined {
  const { page, returned, shown } = outcome;
  const offset = page?.offset ?? 0;
  if (shown < returned) return offset + shown;
  if (page?.total !== undefined) return page.total > offset + returned ? offset + returned : undefined;
  // No total: a full page suggests there is another.
  return page?.limit !== undefined && returned > 0 && returned >= page.limit ? offset + returned : undefined;
}

/**
 * "Showing 20 of 143 issues (trimmed to fit a budget of about 8000 tokens, estimated); call again with
 * offset=20 for the next ones." Undefined when the list is whole and there is no next page.
 */
export function listNotice(outcome: ListOutcome): string | undefined {
  const { noun, page, rest, returned, shown, budgetTokens } = outcome;
  const next = nextOffset(outcome);
  if (next === undefined) return undefined;
  const offset = page?.offset ?? 0;
  const notes = [
    ...(offset > 0 && shown > 0 ? [`${offset + 1}–${offset + shown}`] : []),
    ...(shown < returned ? [`trimmed to fit a budget of about ${budgetTokens} tokens, estimated`] : []),
  ];
  const aside = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  const total = page?.total;
  const count =
    total !== undefined
      ? `Showing ${shown} of ${total} ${noun}${aside}`
      : shown < returned
        ? `Showing ${shown} of ${returned} ${noun} returned, and more may exist${aside}`
        : `Showing ${shown} ${noun}${aside}, and more may exist`;
  const how =
    rest === 'page'
      ? `call again with ${page?.offsetParam ?? 'offset'}=${next} for the next ones.`
      : rest(returned - shown);
  return `${count}; ${how}`;
}

/** Tokens to keep free for the longest notice a list can get (nothing shown, everything left out). */
export function noticeReserve(outcome: Omit<ListOutcome, 'shown'>): number {
  return countTokens(listNotice({ ...outcome, shown: 0, returned: Math.max(outcome.returned, 1) }) ?? '') + 2;
}

/** The `trimmed` report of a rendering: set when items were left out or text was cut. */
export function trimmedInfo(outcome: ListOutcome | undefined, textCut: boolean): RenderedText['trimmed'] {
  if (outcome === undefined) return textCut ? {} : undefined;
  if (outcome.shown >= outcome.returned && !textCut) return undefined;
  const next = nextOffset(outcome);
  return {
    shownItems: outcome.shown,
    totalItems: outcome.page?.total ?? outcome.returned,
    ...(outcome.rest === 'page' && next !== undefined ? { nextOffset: next } : {}),
  };
}
