// Token counting with gpt-tokenizer (o200k_base): an estimate of what a model will read.
import { createRequire } from 'node:module';
import type * as GptTokenizer from 'gpt-tokenizer';

type Tokenizer = typeof GptTokenizer;

// The tokenizer's tables take ~0.3 s to load: far too much to add to every start-up (most
// configurations never format a result), so it loads on first use, or ahead of it via preloadTokenizer().
let tokenizer: Tokenizer | undefined;
let preloadScheduled = false;
const requireModule = createRequire(import.meta.url);

function loaded(): Tokenizer {
  tokenizer ??= requireModule('gpt-tokenizer') as Tokenizer;
  return tokenizer;
}

/** Loads the tokenizer soon, off the current task, so the first formatted answer does not wait for it. */
export function preloadTokenizer(): void {
  // Every formatted tool of a listing asks; one scheduled load answers them all.
  if (tokenizer || preloadScheduled) return;
  preloadScheduled = true;
  setImmediate(loaded).unref();
}

// Text from trackers may contain "<|endoftext|>" and the like; count it as plain text instead of throwing.
const PLAIN = { disallowedSpecial: new Set<string>() };

/** Estimated tokens of `text`. */
export function countTokens(text: string): number {
  return text === '' ? 0 : loaded().countTokens(text, PLAIN);
}

/** The token count of `text` if it is at most `limit`, else undefined; stops counting past the limit. */
export function tokensWithin(text: string, limit: number): number | undefined {
  if (text === '') return 0;
  if (limit < 0) return undefined;
  const counted = loaded().isWithinTokenLimit(text, limit, PLAIN);
  return counted === false ? undefined : counted;
}

// Each token spans at most a few dozen characters of ordinary text; encoding more than this many
// characters per wanted token would only spend time.
const MAX_CHARS_PER_TOKEN = 12;

/**
 * Length (UTF-16 units) of the longest prefix of `text` that the first `maxTokens` tokens cover exactly.
 * The prefix may end inside a grapheme cluster; callers snap it back to a boundary.
 */
export function tokenPrefixLength(text: string, maxTokens: number): number {
  if (maxTokens <= 0) return 0;
  const window = text.slice(0, maxTokens * MAX_CHARS_PER_TOKEN + 16);
  const { encode, decode } = loaded();
  const tokens = encode(window, PLAIN);
  if (tokens.length <= maxTokens) return window.length;
  const decoded = decode(tokens.slice(0, maxTokens));
  // A token may end inside a multi-byte character; decode() then ends in U+FFFD, which is not the text.
  let length = Math.min(decoded.length, text.length);
  while (length > 0 && decoded.charCodeAt(length - 1) !== text.charCodeAt(length - 1)) length--;
  return length;
}
