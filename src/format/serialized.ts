// JSON and TOON within the budget: whole items leave the data's list and long strings are cut, so the data stays valid.
import { encode } from '@toon-format/toon';
import { LIST_SHARE } from './budget.js';
import type { ListSlot } from './doc.js';
import type { RenderedText } from './formats.js';
import { type ListOutcome, listNotice, noticeReserve, trimmedInfo } from './notice.js';
import { cutWithNote } from './text.js';
import { countTokens, tokensWithin } from './tokens.js';

export type Serializer = (data: unknown) => string;

export const serializers = {
  json: (data: unknown) => JSON.stringify(data) ?? 'null',
  toon: (data: unknown) => encode(data),
} satisfies Record<string, Serializer>;

// A code unit is at most three tokens (a 4-byte character is two units), so shorter strings never need counting.
const MAX_TOKENS_PER_UNIT = 3;
// Halvings of the per-string limit tried before giving up on getting under the budget.
const SHRINK_ROUNDS = 8;

/** Every string in `value` over `maxTokens` cut, note included, to about that; `keep` (the list) is left as it is. */
function shrinkStrings(value: unknown, maxTokens: number, budgetTokens: number, keep?: unknown): unknown {
  if (value === keep) return value;
  if (typeof value === 'string') {
    if (value.length * MAX_TOKENS_PER_UNIT <= maxTokens) return value;
    // A string too short to pay for the note stays whole.
    const cut = cutWithNote(value, maxTokens, budgetTokens);
    return cut === undefined || cut.note === '' ? value : `${cut.text} ${cut.note}`;
  }
  if (Array.isArray(value)) return value.map((item) => shrinkStrings(item, maxTokens, budgetTokens, keep));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, shrinkStrings(item, maxTokens, budgetTokens, keep)]),
    );
  }
  return value;
}

/** `value` with its strings cut until `fits` holds, halving the per-string limit; the last try when none fits. */
function shrinkUntil(
  value: unknown,
  fits: (value: unknown) => boolean,
  startTokens: number,
  budgetTokens: number,
  keep?: unknown,
): unknown {
  let limit = Math.max(1, startTokens);
  let shrunk = value;
  for (let round = 0; round < SHRINK_ROUNDS; round++) {
    shrunk = shrinkStrings(value, limit, budgetTokens, keep);
    if (fits(shrunk)) break;
    limit = Math.max(1, Math.floor(limit / 2));
  }
  return shrunk;
}

/** Largest `k` in [0, hi] with `fits(k)`, for a `fits` that holds up to some point and not after. */
function largestFitting(hi: number, fits: (k: number) => boolean): number {
  if (fits(hi)) return hi;
  let lo = 0;
  let top = hi;
  while (top - lo > 1) {
    const mid = Math.floor((lo + top) / 2);
    if (fits(mid)) lo = mid;
    else top = mid;
  }
  return lo;
}

export function renderSerialized(
  data: unknown,
  serialize: Serializer,
  listOf: (data: unknown) => ListSlot | undefined,
  budgetTokens: number,
): RenderedText {
  const first = listOf(data);
  const outcomeOf = (slot: ListSlot, shown: number): ListOutcome => ({
    noun: slot.noun,
    page: slot.page,
    rest: slot.rest,
    returned: slot.items.length,
    shown,
    budgetTokens,
  });
  const room = budgetTokens - (first ? noticeReserve(outcomeOf(first, 0)) : 0);
  const within = (text: string, limit: number) => tokensWithin(text, limit) !== undefined;
  const finish = (
    text: string,
    slot: ListSlot | undefined,
    shown: number,
    textCut: boolean,
  ): RenderedText => {
    const outcome = slot && outcomeOf(slot, shown);
    const notice = outcome && listNotice(outcome);
    const trimmed = trimmedInfo(outcome, textCut);
    return {
      text: notice === undefined ? text : `${text}\n\n${notice}`,
      tokens: countTokens(text) + (notice === undefined ? 0 : countTokens(notice) + 1),
      ...(trimmed ? { trimmed } : {}),
    };
  };

  if (!first || first.items.length === 0) {
    // Nothing to drop: only long strings can give.
    const whole = serialize(data);
    if (within(whole, room)) return finish(whole, first, 0, false);
    const shrunk = shrinkUntil(data, (value) => within(serialize(value), room), room, budgetTokens);
    return finish(serialize(shrunk), first, 0, true);
  }

  // Items are measured one by one (each serialized alone), never the whole list, which may be huge.
  const itemTokens: (number | undefined)[] = [];
  const fittingByEstimate = (slot: ListSlot, bareTokens: number) => {
    let used = bareTokens;
    let count = 0;
    for (const [index, item] of slot.items.entries()) {
      const tokens = (itemTokens[index] ??= tokensWithin(serialize(item), room));
      if (tokens === undefined || used + tokens + 1 > room) break;
      used += tokens + 1;
      count++;
    }
    return count;
  };
  const firstBare = tokensWithin(serialize(first.with([])), room);
  if (firstBare !== undefined && fittingByEstimate(first, firstBare) === first.items.length) {
    const whole = serialize(data);
    if (within(whole, room)) return finish(whole, first, first.items.length, false);
  }

  // The part outside the list gives up its long strings first, to leave the list its share.
  const bareOf = (value: unknown) => listOf(value)?.with([]) ?? value;
  const leadRoom = Math.floor(room * (1 - LIST_SHARE));
  let current = data;
  let textCut = false;
  if (firstBare === undefined || firstBare > leadRoom) {
    current = shrinkUntil(
      data,
      (value) => within(serialize(bareOf(value)), leadRoom),
      leadRoom,
      budgetTokens,
      first.items,
    );
    textCut = true;
  }
  const slot = listOf(current) ?? first;
  const bareTokens = countTokens(serialize(slot.with([])));
  const estimate = fittingByEstimate(slot, bareTokens);
  const fits = (k: number) => within(serialize(slot.with(slot.items.slice(0, k))), room);
  // Items cost less together than alone (a TOON table row), so look above the estimate too.
  let shown = largestFitting(Math.min(slot.items.length, estimate * 4 + 4), fits);
  let items = slot.items.slice(0, shown);
  if (shown === 0) {
    // Not even one item fits whole: show the first with its long strings cut.
    const only = shrinkUntil(
      slot.items[0],
      (item) => within(serialize(slot.with([item])), room),
      room - bareTokens,
      budgetTokens,
    );
    items = [only];
    shown = 1;
    textCut = true;
  }
  return finish(serialize(slot.with(items)), slot, shown, textCut);
}
