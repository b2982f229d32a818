// The json and toon formats: the structured data itself, and still valid data when the budget trims it.
import { encode } from '@toon-format/toon';
import { describe, expect, it } from 'vitest';
import type { IssueShape } from '../src/contract/index.js';
import { countTokens, renderStructured } from '../src/format/index.js';

const issue = (n: number): IssueShape => ({
  key: `#${n}`,
  title: `Issue number ${n}`,
  state: n % 2 ? 'open' : 'closed',
  url: `https://github.com/o/r/issues/${n}`,
  author: 'alice',
  createdAt: '2020-05-01T10:00:00Z',
  commentCount: n,
  body: `Body of issue ${n}, Привет 👋`,
});

describe('json and toon formats', () => {
  const list = { kind: 'issue_list', items: [issue(1), issue(2)], page: { offset: 0, total: 2 } };
  const detail = {
    kind: 'issue',
    item: issue(1),
    comments: [{ id: 'c1', author: 'bob', body: 'ok' }],
  };

  it('json is the whole structured data on one line', () => {
    for (const data of [list, detail]) {
      const { text, tokens, trimmed } = renderStructured(data, 'json');
      expect(text).toBe(JSON.stringify(data));
      expect(tokens).toBe(countTokens(text));
      expect(trimmed).toBeUndefined();
    }
  });

  it('toon is the TOON encoding of the structured data', () => {
    for (const data of [list, detail]) expect(renderStructured(data, 'toon').text).toBe(encode(data));
    expect(renderStructured(list, 'toon').text).toContain(
      'items[2]{key,title,state,url,author,createdAt,commentCount,body}:',
    );
  });

  it('keeps the data valid when the budget drops items: the notice follows after a blank line', () => {
    const many = {
      kind: 'issue_list',
      items: Array.from({ length: 100 }, (_, i) => issue(i + 1)),
      page: { offset: 0, total: 250 },
    };
    const { text, trimmed } = renderStructured(many, 'json', { budgetTokens: 1000 });
    const [json, notice, ...rest] = text.split('\n\n');
    expect(rest).toEqual([]);
    const parsed = JSON.parse(json ?? '') as { items: IssueShape[]; page: unknown };
    const shown = parsed.items.length;
    expect(parsed.items).toEqual(many.items.slice(0, shown));
    expect(parsed.page).toEqual({ offset: 0, total: 250 });
    expect(trimmed).toEqual({ shownItems: shown, totalItems: 250, nextOffset: shown });
    expect(notice).toBe(
      `Showing ${shown} of 250 issues (trimmed to fit a budget of about 1000 tokens, estimated); call again with offset=${shown} for the next ones.`,
    );
    expect(countTokens(text)).toBeLessThanOrEqual(1000);
    // Whole items only, and as many as fit: one more would not.
    expect(countTokens(JSON.stringify({ ...many, items: many.items.slice(0, shown + 1) }))).toBeGreaterThan(
      1000 - countTokens(notice ?? ''),
    );

    const toon = renderStructured(many, 'toon', { budgetTokens: 1000 });
    const toonShown = toon.trimmed?.shownItems ?? 0;
    expect(toon.text.split('\n\n')[0]).toBe(encode({ ...many, items: many.items.slice(0, toonShown) }));
    // A TOON table row costs less than a JSON object, so more issues fit.
    expect(toonShown).toBeGreaterThan(shown);
    expect(countTokens(toon.text)).toBeLessThanOrEqual(1000);
  });

  it('cuts a long body inside the data, with a note in the string, when one item alone is over the budget', () => {
    const body = 'Слово за словом. '.repeat(2000);
    const { text, trimmed } = renderStructured({ kind: 'issue', item: { ...issue(1), body } }, 'json', {
      budgetTokens: 500,
    });
    const parsed = JSON.parse(text) as { item: IssueShape };
    expect(parsed.item.title).toBe('Issue number 1');
    expect(parsed.item.body).toMatch(
      /^Слово за словом\. .*\[… cut to fit a budget of about 500 tokens \(estimated\); \d+ more characters not shown\]$/s,
    );
    const shownChars = [...(parsed.item.body ?? '')].length;
    const omitted = Number(/; (\d+) more characters/.exec(parsed.item.body ?? '')?.[1]);
    expect(shownChars).toBeLessThan([...body].length);
    expect(omitted).toBeGreaterThan(0);
    expect(countTokens(text)).toBeLessThanOrEqual(500);
    expect(trimmed).toEqual({});
  });
});
