// Cutting text safely: never inside a grapheme cluster (surrogate pairs, ZWJ emoji, flags, combining marks), by tokens or by graphemes.
import { describe, expect, it } from 'vitest';
import { countTokens } from '../src/format/index.js';
import { boundaryAtOrBefore, cutToTokens, excerpt } from '../src/format/text.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const boundaries = (text: string) =>
  new Set([...[...segmenter.segment(text)].map((s) => s.index), text.length]);

const SAMPLES = {
  emoji: '👨‍👩‍👧‍👦 family 🇺🇦🇯🇵 flags 👍🏽 thumbs '.repeat(40),
  cyrillic: 'Съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(40),
  combining: 'e\u0301a\u0300o\u0302\u0323 ǹ̈ Z̷̢͓̈́a̴̙͊l̶̰̿g̵̙̈́o̷̠͝ '.repeat(60),
  cjk: '日本語のテキストと中文文本。한국어 텍스트. '.repeat(50),
};

describe('grapheme-safe cutting', () => {
  it('cuts to a token limit only at grapheme boundaries, keeping a prefix within the limit', () => {
    for (const [name, text] of Object.entries(SAMPLES)) {
      const safe = boundaries(text);
      for (const maxTokens of [1, 2, 3, 5, 8, 13, 21, 55, 144]) {
        const cut = cutToTokens(text, maxTokens);
        expect(cut.cut, name).toBe(true);
        expect(text.startsWith(cut.text), name).toBe(true);
        expect(safe.has(cut.text.length), `${name} @ ${maxTokens}: ends inside a cluster`).toBe(true);
        expect(countTokens(cut.text), name).toBeLessThanOrEqual(maxTokens);
        expect(cut.omittedChars).toBe([...text.slice(cut.text.length)].length);
      }
    }
  });

  it('returns text that fits unchanged', () => {
    expect(cutToTokens('Привет, мир 👋', 100)).toEqual({
      text: 'Привет, мир 👋',
      cut: false,
      omittedChars: 0,
    });
  });

  it('prefers a paragraph break, then a line break, then a space near the limit', () => {
    const first = 'The first paragraph says what happened, in a sentence or two of plain words. '
      .repeat(3)
      .trim();
    const paragraphs = `${first}\n\nThe second paragraph goes on about it at length, well past the limit.`;
    const limit = countTokens(first) + 6;
    expect(cutToTokens(paragraphs, limit).text).toBe(first);
    const lines = 'line one is here and it is long enough to matter\nline two is here\nline three is here';
    expect(
      cutToTokens(lines, countTokens('line one is here and it is long enough to matter\nline two')).text,
    ).toBe('line one is here and it is long enough to matter');
    const words = 'lorem ipsum dolor sit amet, consectetur adipiscing elit '.repeat(20);
    for (const limit of [37, 50, 61]) {
      const cut = cutToTokens(words, limit).text;
      expect(words[cut.length], `${limit}: ends inside a word`).toBe(' ');
    }
  });

  it('finds the boundary at or before an index', () => {
    const text = 'ae\u0301👍🏽z';
    expect(boundaryAtOrBefore(text, 2)).toBe(1); // inside e + combining acute
    expect(boundaryAtOrBefore(text, 4)).toBe(3); // inside the thumbs-up surrogate pair
    expect(boundaryAtOrBefore(text, 6)).toBe(3); // inside the skin-tone modifier
    expect(boundaryAtOrBefore(text, 7)).toBe(7);
    expect(boundaryAtOrBefore('line\n\u0301x', 5)).toBe(5); // after a line feed is always a boundary
  });

  it('makes one-line excerpts of at most N graphemes, ending at a word with "…"', () => {
    expect(excerpt('Short   text\nwith lines', 80)).toBe('Short text with lines');
    expect(excerpt('one two three four five six', 11)).toBe('one two…');
    expect(excerpt('one two three four five six', 13)).toBe('one two three…');
    const flags = '🇺🇦🇯🇵🇫🇷🇩🇪';
    expect(excerpt(flags, 2)).toBe('🇺🇦🇯🇵…');
    expect(excerpt('e\u0301'.repeat(10), 3)).toBe('e\u0301e\u0301e\u0301…');
    expect(excerpt('Съешь же ещё этих мягких французских булок', 20)).toBe('Съешь же ещё этих…');
  });

  it('counts tokens of any text, special-token lookalikes included', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('ends with <|endoftext|> in a body')).toBeGreaterThan(5);
  });
});
