// Grapheme-safe text cutting: short excerpts for list rows, token-bounded prefixes for bodies, comments and diffs.
import { cutNote } from './notice.js';
import { countTokens, tokenPrefixLength, tokensWithin } from './tokens.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Largest grapheme-cluster boundary at or before `index` (a cut there splits no surrogate pair or mark sequence). */
export function boundaryAtOrBefore(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  // A line feed always ends a cluster, so segmenting from just after the last one gives the true boundaries.
  const start = text.lastIndexOf('\n', index - 1) + 1;
  if (start === index) return index;
  let best = start;
  // Two units past `index` so the segmenter sees the whole code point that starts there.
  for (const { index: at } of segmenter.segment(text.slice(start, index + 2))) {
    if (start + at > index) break;
    best = start + at;
  }
  return best;
}

/** Where to end a cut near `end`: after a blank line, else after a line break, else before a space, in that order. */
function preferredEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const lineFloor = end - Math.max(1, Math.floor(end / 4));
  let lineEnd = -1;
  for (
    let at = text.lastIndexOf('\n', end - 1);
    at >= 0 && at >= lineFloor;
    at = text.lastIndexOf('\n', at - 1)
  ) {
    if (lineEnd < 0) lineEnd = at + 1;
    const lineStart = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    if (text.slice(lineStart, at).trim() === '') return at + 1;
  }
  if (lineEnd > 0) return lineEnd;
  const spaceFloor = end - Math.max(1, Math.floor(end / 8));
  for (let at = end - 1; at > 0 && at >= spaceFloor; at--) {
    if (/\s/.test(text[at] ?? '')) return boundaryAtOrBefore(text, at);
  }
  return end;
}

export interface CutText {
  text: string;
  /** True when part of the text was left out. */
  cut: boolean;
  /** Characters (code points) left out. */
  omittedChars: number;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The longest start of `text` within `maxTokens` that ends at a grapheme boundary, preferring a paragraph
 * or line break near the end. Returns the text unchanged when it already fits.
 */
export function cutToTokens(text: string, maxTokens: number): CutText {
  if (tokensWithin(text, maxTokens) !== undefined) return { text, cut: false, omittedChars: 0 };
  let limit = maxTokens;
  // Tokens of a prefix can differ by one or two from the prefix of the tokens; retry a little shorter.
  for (let attempt = 0; attempt < 4 && limit > 0; attempt++) {
    const end = preferredEnd(text, boundaryAtOrBefore(text, tokenPrefixLength(text, limit)));
    const head = text.slice(0, end).trimEnd();
    if (tokensWithin(head, maxTokens) !== undefined) {
      return { text: head, cut: true, omittedChars: codePoints(text.slice(head.length)) };
    }
    limit -= Math.max(2, Math.ceil(limit / 20));
  }
  return { text: '', cut: true, omittedChars: codePoints(text) };
}

// Below this many tokens of room for the text itself, a cut says too little to be worth showing.
const MIN_TEXT_TOKENS = 16;

/**
 * `text` cut so that it and the note saying so fit in `maxTokens`; `note` is empty when the text fits whole.
 * Undefined when the room left beside the note is too small to be worth showing.
 */
export function cutWithNote(
  text: string,
  maxTokens: number,
  budgetTokens: number,
): { text: string; note: string } | undefined {
  // The note is sized for the longest count it could give.
  const room = maxTokens - countTokens(cutNote(budgetTokens, text.length)) - 1;
  if (room < MIN_TEXT_TOKENS)
    return tokensWithin(text, maxTokens) === undefined ? undefined : { text, note: '' };
  const cut = cutToTokens(text, room);
  return cut.cut ? { text: cut.text, note: cutNote(budgetTokens, cut.omittedChars) } : { text, note: '' };
}

/** All whitespace runs as one space, trimmed: for titles and table cells. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The first `maxGraphemes` grapheme clusters of `text` on one line, ending in "…" when cut (at a word if one is near). */
export function excerpt(text: string, maxGraphemes: number): string {
  // Graphemes are rarely longer than a few units; looking further would only spend time on long bodies.
  const window = text.slice(0, maxGraphemes * 8 + 8);
  const flat = oneLine(window);
  let count = 0;
  let end = 0;
  let space = -1;
  let cut = false;
  for (const { index, segment } of segmenter.segment(flat)) {
    if (count === maxGraphemes) {
      cut = true;
      // The last word shown is whole when a space follows it.
      if (segment === ' ') space = index;
      break;
    }
    count++;
    if (segment === ' ') space = index;
    end = index + segment.length;
  }
  if (!cut && window.length === text.length) return flat;
  if (!cut) {
    // The window ended first; unless it ended in whitespace, its last cluster may be broken: drop it.
    end = /\s$/.test(window) ? flat.length : boundaryAtOrBefore(flat, flat.length - 1);
  } else if (space > end * 0.6) {
    end = space;
  }
  return `${flat.slice(0, end).trimEnd()}…`;
}

// Generic data shows strings in rows up to this many graphemes, and nested values up to this many characters of JSON.
export const ROW_TEXT_GRAPHEMES = 200;
const SHORT_JSON_CHARS = 80;

/** A nested value as JSON on one line, cut with "…" past a few dozen characters. */
export function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= SHORT_JSON_CHARS
    ? text
    : `${text.slice(0, boundaryAtOrBefore(text, SHORT_JSON_CHARS))}…`;
}
