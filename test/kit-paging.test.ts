import { describe, expect, it } from 'vitest';
import { windowOfPages } from '../src/plugins/kit/index.js';

/** Pages of `size` numbers out of `count`, saying the count when `reportTotal`. */
const source = (count: number, reportTotal: boolean) => {
  const asked: number[] = [];
  const fetchPage = async (page: number, perPage: number) => {
    asked.push(page);
    const items = Array.from({ length: count }, (_, i) => i).slice((page - 1) * perPage, page * perPage);
    return { items, hasNext: page * perPage < count, ...(reportTotal ? { total: count } : {}) };
  };
  return { asked, fetchPage };
};

describe('windowOfPages', () => {
  it("hands each page the address the page before named, so a provider reads its API's own next URL", async () => {
    const asked: [number, string | undefined][] = [];
    const pages = [['a', 'b'], ['c', 'd'], ['e']];
    const fetchPage = async (page: number, _perPage: number, next?: string) => {
      asked.push([page, next]);
      const index = next === undefined ? 0 : Number(next.slice('cursor-'.length));
      const more = index + 1 < pages.length;
      return { items: pages[index] ?? [], hasNext: more, ...(more ? { next: `cursor-${index + 1}` } : {}) };
    };
    expect(await windowOfPages(fetchPage, { offset: 1, limit: 10, perPage: 2, keep: () => true })).toEqual({
      items: ['b', 'c', 'd', 'e'],
      page: { offset: 1, limit: 10, total: 5 },
    });
    expect(asked).toEqual([
      [1, undefined],
      [2, 'cursor-1'],
      [3, 'cursor-2'],
    ]);
  });

  it('starts on the page that holds the offset and knows the total on the last page', async () => {
    const { asked, fetchPage } = source(25, false);
    expect(await windowOfPages(fetchPage, { offset: 18, limit: 5, perPage: 10 })).toEqual({
      items: [18, 19, 20, 21, 22],
      page: { offset: 18, limit: 5, total: 25 },
    });
    expect(asked).toEqual([2, 3]);
  });

  it('takes the total the API reports when it stops before the last page', async () => {
    const reported = source(95, true);
    expect((await windowOfPages(reported.fetchPage, { offset: 0, limit: 3, perPage: 10 })).page).toEqual({
      offset: 0,
      limit: 3,
      total: 95,
    });
    const silent = source(95, false);
    expect((await windowOfPages(silent.fetchPage, { offset: 0, limit: 3, perPage: 10 })).page).toEqual({
      offset: 0,
      limit: 3,
    });
  });

  it('ignores a reported total when a filter thins the list, and counts the kept items at the end', async () => {
    const even = (n: number) => n % 2 === 0;
    const early = source(95, true);
    expect(
      (await windowOfPages(early.fetchPage, { offset: 0, limit: 3, perPage: 10, keep: even })).page,
    ).toEqual({ offset: 0, limit: 3 });
    const whole = source(30, true);
    const window = await windowOfPages(whole.fetchPage, { offset: 12, limit: 10, perPage: 10, keep: even });
    expect(window).toEqual({ items: [24, 26, 28], page: { offset: 12, limit: 10, total: 15 } });
    expect(whole.asked).toEqual([1, 2, 3]);
  });
});
