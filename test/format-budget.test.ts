// The token budget: whole rows dropped from the end, long text cut with a note, and a notice that says how to get the rest.
import { describe, expect, it } from 'vitest';
import { type CommentShape, type IssueShape, OUTPUT_FORMATS } from '../src/contract/index.js';
import { countTokens, renderStructured } from '../src/format/index.js';

const issue = (n: number): IssueShape => ({
  key: `#${n}`,
  title: `Issue number ${n}`,
  state: 'open',
  url: `https://github.com/o/r/issues/${n}`,
  author: 'alice',
  createdAt: '2020-05-01T10:00:00Z',
  commentCount: 3,
  body: `Body of issue ${n}.`,
});
const page21to120 = Array.from({ length: 100 }, (_, i) => issue(21 + i));

/** The issue keys of a markdown table's rows, in order. */
const rowKeys = (text: string) => [...text.matchAll(/^\| \[(#\d+)\]\(/gm)].map((match) => match[1]);

describe('token budget', () => {
  it('drops whole rows from the end and says exactly where the next ones start', () => {
    const data = { kind: 'issue_list', items: page21to120, page: { offset: 20, total: 143 } };
    const { text, tokens, trimmed } = renderStructured(data, 'markdown', { budgetTokens: 2000 });
    // 43 rows fit in 2000 tokens with o200k_base (pinned gpt-tokenizer); the rest follows from it.
    expect(trimmed).toEqual({ shownItems: 43, totalItems: 143, nextOffset: 63 });
    expect(rowKeys(text)).toEqual(page21to120.slice(0, 43).map((item) => item.key));
    expect(
      text.startsWith(
        '## Issues (43 of 143)\n\n| Key | Title | State | Author | Created | Comments | Excerpt |\n',
      ),
    ).toBe(true);
    expect(
      text.endsWith(
        '\n\nShowing 43 of 143 issues (21–63; trimmed to fit a budget of about 2000 tokens, estimated); call again with offset=63 for the next ones.',
      ),
    ).toBe(true);
    // Each row is whole: the same as in an untrimmed rendering.
    const full = renderStructured(data, 'markdown', { budgetTokens: 100_000 }).text.split('\n');
    for (const line of text.split('\n').filter((l) => l.startsWith('| ['))) expect(full).toContain(line);
    expect(countTokens(text)).toBeLessThanOrEqual(2000);
    expect(Math.abs(tokens - countTokens(text))).toBeLessThan(100);
  });

  it('matches the documented example for a first page', () => {
    const items = Array.from({ length: 50 }, (_, i) => issue(i + 1));
    const { text, trimmed } = renderStructured(
      { kind: 'issue_list', items, page: { offset: 0, total: 143 } },
      'compact',
      { budgetTokens: 1000 },
    );
    const shown = trimmed?.shownItems ?? 0;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(50);
    expect(trimmed).toEqual({ shownItems: shown, totalItems: 143, nextOffset: shown });
    expect(text.split('\n')[0]).toBe(`Issues (${shown} of 143):`);
    expect(text.split('\n').filter((line) => line.startsWith('#'))).toHaveLength(shown);
    expect(
      text.endsWith(
        `\n\nShowing ${shown} of 143 issues (trimmed to fit a budget of about 1000 tokens, estimated); call again with offset=${shown} for the next ones.`,
      ),
    ).toBe(true);
  });

  it('uses the page offset parameter and says more may exist when the total is unknown', () => {
    const items = Array.from({ length: 50 }, (_, i) => issue(i + 1));
    const { text, trimmed } = renderStructured(
      { kind: 'issue_list', items, page: { offset: 0, offsetParam: 'start_at' } },
      'markdown',
      { budgetTokens: 1000 },
    );
    expect(trimmed).toEqual({ shownItems: 20, totalItems: 50, nextOffset: 20 });
    expect(text.split('\n')[0]).toBe('## Issues (20 of 50+)');
    expect(text.split('\n').at(-1)).toBe(
      'Showing 20 of 50 issues returned, and more may exist (trimmed to fit a budget of about 1000 tokens, estimated); call again with start_at=20 for the next ones.',
    );
  });

  it('points to the next page when nothing was trimmed but the set goes on', () => {
    const items = Array.from({ length: 20 }, (_, i) => issue(21 + i));
    const known = renderStructured(
      { kind: 'issue_list', items, page: { offset: 20, total: 143 } },
      'compact',
    );
    expect(known.trimmed).toBeUndefined();
    expect(known.text.split('\n').at(-1)).toBe(
      'Showing 20 of 143 issues (21–40); call again with offset=40 for the next ones.',
    );
    const fullPage = renderStructured({ kind: 'issue_list', items, page: { offset: 0, limit: 20 } }, 'json');
    expect(fullPage.text.split('\n\n')[1]).toBe(
      'Showing 20 issues, and more may exist; call again with offset=20 for the next ones.',
    );
    const lastPage = renderStructured(
      { kind: 'issue_list', items, page: { offset: 123, total: 143 } },
      'markdown',
    );
    expect(lastPage.text).not.toContain('Showing');
  });

  it('cuts a long description to its share, keeps the first comments whole and names the rest', () => {
    const paragraph = 'Шаг за шагом 🚶 the steps to reproduce the problem. '.repeat(20);
    const body = Array.from({ length: 40 }, (_, i) => `${i + 1}. ${paragraph}`).join('\n\n');
    const comments: CommentShape[] = Array.from({ length: 30 }, (_, i) => ({
      id: `c${i + 1}`,
      author: 'bob',
      body: `Comment ${i + 1}: ${'more detail '.repeat(40)}`,
    }));
    const { text, trimmed } = renderStructured(
      { kind: 'issue', item: { ...issue(7), body }, comments },
      'markdown',
      {
        budgetTokens: 3000,
      },
    );
    const shown = trimmed?.shownItems ?? 0;
    expect(trimmed).toEqual({ shownItems: shown, totalItems: 30 });
    expect(shown).toBeGreaterThan(0);
    // The description ends at a paragraph break, then the note.
    expect(text).toMatch(
      /steps to reproduce the problem\.\n\[… cut to fit a budget of about 3000 tokens \(estimated\); \d+ more characters not shown\]\n\n### Comments/,
    );
    expect(text).toContain(`### Comments (${shown} of 30)`);
    expect(text.split('\n').at(-1)).toBe(
      `Showing ${shown} of 30 comments (trimmed to fit a budget of about 3000 tokens, estimated); the other ${30 - shown} are left out; get them with the tool that lists comments.`,
    );
    expect(countTokens(text)).toBeLessThanOrEqual(3000);
  });

  it('shows the first item cut rather than nothing when it alone is over the budget', () => {
    const huge = 'x'.repeat(100) + '\n' + 'Долгий текст без конца. '.repeat(3000);
    const { text, trimmed } = renderStructured(
      {
        kind: 'comment_list',
        items: [
          { id: '1', body: huge },
          { id: '2', body: 'short' },
        ],
        page: { offset: 0, total: 2 },
      },
      'compact',
      { budgetTokens: 800 },
    );
    expect(trimmed).toEqual({ shownItems: 1, totalItems: 2, nextOffset: 1 });
    expect(text.startsWith('Comments (1 of 2):\n\n1\nxxxx')).toBe(true);
    expect(text).toMatch(
      /\[… cut to fit a budget of about 800 tokens \(estimated\); \d+ more characters not shown\]\n\nShowing 1 of 2 comments/,
    );
    expect(text).not.toContain('short');
    expect(countTokens(text)).toBeLessThanOrEqual(800);
  });

  it('stays within the budget in every format, for small and large budgets', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({
      ...issue(i + 1),
      body: `Ünïcödé 日本語 😀 ${'word '.repeat(i % 50)}`,
    }));
    for (const budgetTokens of [400, 1500, 6000]) {
      for (const format of OUTPUT_FORMATS) {
        const { text, trimmed } = renderStructured(
          { kind: 'issue_list', items, page: { offset: 0, total: 200 } },
          format,
          {
            budgetTokens,
          },
        );
        expect(countTokens(text), `${format} @ ${budgetTokens}`).toBeLessThanOrEqual(budgetTokens);
        expect(trimmed?.nextOffset).toBe(trimmed?.shownItems);
        expect(text).toContain(`call again with offset=${trimmed?.shownItems} for the next ones.`);
      }
    }
  });

  it('uses the default budget of 8000 tokens', () => {
    const items = Array.from({ length: 400 }, (_, i) => issue(i + 1));
    const { text } = renderStructured({ kind: 'issue_list', items }, 'markdown');
    expect(text).toContain('(trimmed to fit a budget of about 8000 tokens, estimated)');
    expect(countTokens(text)).toBeLessThanOrEqual(8000);
    expect(countTokens(text)).toBeGreaterThan(7000);
  });
});
