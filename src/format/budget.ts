// Fits a document into a token budget: long lead text is cut to a fair share, list items are dropped from the end.
import type { Block, Doc, DocList } from './doc.js';
import type { RenderedText } from './formats.js';
import { countLabel, listNotice, noticeReserve, trimmedInfo } from './notice.js';
import { countTokens, tokensWithin } from './tokens.js';

// Most of the room goes to the lead (a detail's body) when it and a list compete; the list keeps this share.
export const LIST_SHARE = 0.4;
// A list item that does not fit whole is still shown cut when at least this share of the budget is left.
const CUT_ITEM_SHARE = 0.25;
// The least a block that must be shown is cut to, even past the budget: enough to say what it is and that it was cut.
const FLOOR_CUT_TOKENS = 64;
// Tokens counted for each "\n" or "\n\n" joining two parts.
const JOIN_TOKENS = 1;

interface Fitted {
  texts: string[];
  tokens: number;
  cut: boolean;
}

/** Water-filling: blocks smaller than a fair share stay whole, the larger ones are cut to share what is left. */
function fitLead(blocks: readonly Block[], allowance: number, budgetTokens: number): Fitted {
  const texts = blocks.map((block) => block.text);
  const sizes = blocks.map((block) => (block.cut ? undefined : countTokens(block.text)));
  let room = allowance - sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
  const cuttable = blocks.flatMap((block, index) => (block.cut ? [index] : []));
  const measured = cuttable.map((index) => ({
    index,
    tokens: tokensWithin(texts[index] ?? '', Math.max(0, room)),
  }));
  measured.sort((a, b) => (a.tokens ?? Infinity) - (b.tokens ?? Infinity));
  let cut = false;
  measured.forEach(({ index, tokens }, order) => {
    const fair = Math.floor(room / (measured.length - order));
    const block = blocks[index];
    if (tokens !== undefined && tokens <= fair) {
      sizes[index] = tokens;
      room -= tokens;
      return;
    }
    const shortened = block?.cut?.(Math.max(FLOOR_CUT_TOKENS, fair), budgetTokens) ?? '';
    cut = true;
    texts[index] = shortened;
    sizes[index] = countTokens(shortened);
    room -= sizes[index];
  });
  const kept = texts.filter((text) => text !== '');
  const tokens = sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0) + JOIN_TOKENS * kept.length;
  return { texts: kept, tokens, cut };
}

/** Tokens of the first items, counted until `limit` is passed: enough to know whether the list needs its share. */
function listTokensUpTo(list: DocList, limit: number): number {
  let sum = 0;
  for (let index = 0; index < list.count; index++) {
    const tokens = tokensWithin(list.item(index).text, limit - sum);
    if (tokens === undefined) return limit + 1;
    sum += tokens + JOIN_TOKENS;
    if (sum > limit) break;
  }
  return sum;
}

/** Whole items from the start while they fit; then one item cut if enough room is left, or if none fit. */
function fitItems(list: DocList, room: number, budgetTokens: number): Fitted & { shown: number } {
  const texts: string[] = [];
  let used = 0;
  let cut = false;
  for (let index = 0; index < list.count; index++) {
    const item = list.item(index);
    const left = room - used - JOIN_TOKENS;
    const tokens = tokensWithin(item.text, left);
    if (tokens !== undefined) {
      texts.push(item.text);
      used += tokens + JOIN_TOKENS;
      continue;
    }
    const first = texts.length === 0;
    const worthCutting = first || left >= budgetTokens * CUT_ITEM_SHARE;
    const shortened = worthCutting
      ? item.cut?.(first ? Math.max(FLOOR_CUT_TOKENS, left) : left, budgetTokens)
      : undefined;
    if (shortened !== undefined) {
      texts.push(shortened);
      used += countTokens(shortened) + JOIN_TOKENS;
      cut = true;
    } else if (first) {
      // Showing nothing would leave no way forward: the first row (short, as rows are) goes in whole, over budget.
      texts.push(item.text);
      used += countTokens(item.text) + JOIN_TOKENS;
    }
    break;
  }
  return { texts, tokens: used, cut, shown: texts.length };
}

export function fitDoc(doc: Doc, budgetTokens: number): RenderedText {
  const { list } = doc;
  const returned = list?.count ?? 0;
  const outcome = list && {
    noun: list.noun,
    page: list.page,
    rest: list.rest,
    returned,
    budgetTokens,
  };
  // Reserve room for the longest the list head and notice can be (nothing shown yet, everything left out).
  const reserve = outcome
    ? countTokens(list.head(countLabel(returned, returned, list.page), returned === 0)) +
      noticeReserve(outcome) +
      2 * JOIN_TOKENS
    : 0;
  const available = budgetTokens - reserve;
  const listNeed = list ? Math.min(listTokensUpTo(list, available), Math.floor(available * LIST_SHARE)) : 0;
  const lead = fitLead(doc.lead, available - listNeed, budgetTokens);
  const parts = [...lead.texts];
  let tokens = lead.tokens;
  let trimmed: RenderedText['trimmed'];
  if (list && outcome) {
    const items = fitItems(list, available - lead.tokens, budgetTokens);
    const head = list.head(countLabel(items.shown, returned, list.page), returned === 0);
    parts.push([head, ...items.texts].join(list.separator));
    const notice = listNotice({ ...outcome, shown: items.shown });
    if (notice !== undefined) parts.push(notice);
    tokens +=
      countTokens(head) + items.tokens + (notice === undefined ? 0 : countTokens(notice) + JOIN_TOKENS);
    trimmed = trimmedInfo({ ...outcome, shown: items.shown }, items.cut || lead.cut);
  } else {
    trimmed = trimmedInfo(undefined, lead.cut);
  }
  return { text: parts.join('\n\n'), tokens, ...(trimmed ? { trimmed } : {}) };
}
