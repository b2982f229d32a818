// Offset and limit over paged APIs: fetch the pages that cover the window, skip what is filtered out.
import type { PageInfo } from '../../contract/index.js';

export interface FetchedPage<T> {
  items: T[];
  /** False on the last page. */
  hasNext: boolean;
  /** Size of the whole list when the API says (GitHub search's total_count, GitLab's X-Total). */
  total?: number;
  /**
   * The API's own address of the next page, when it gives one (GitHub's Link URL): handed to the next
   * fetchPage call, which reads that address rather than building one from the page number.
   */
  next?: string;
}

export interface PagedWindow<T> {
  items: T[];
  page: PageInfo;
}

/** Most pages one call may read, so a deep offset over a filtered list cannot turn into hundreds of requests. */
export const MAX_PAGES_PER_CALL = 10;

/**
 * Items `offset` .. `offset + limit` of the kept items, reading pages of `perPage` in order. `total` is
 * known when the last page was reached, or when the API reports it and no filter thins the list;
 * otherwise the format layer says more may exist.
 */
export async function windowOfPages<T>(
  fetchPage: (page: number, perPage: number, next?: string) => Promise<FetchedPage<T>>,
  options: { offset: number; limit: number; perPage?: number; keep?: (item: T) => boolean },
): Promise<PagedWindow<T>> {
  const { offset, limit, keep = () => true } = options;
  const perPage = options.perPage ?? 100;
  // Without a filter the window starts on a known page; with one, every earlier page has to be read.
  let page = options.keep ? 1 : Math.floor(offset / perPage) + 1;
  let seen = options.keep ? 0 : (page - 1) * perPage;
  const items: T[] = [];
  let reported: number | undefined;
  let next: string | undefined;
  for (let read = 0; read < MAX_PAGES_PER_CALL; read++, page++) {
    const fetched = await fetchPage(page, perPage, next);
    reported = fetched.total ?? reported;
    next = fetched.next;
    for (const item of fetched.items) {
      if (!keep(item)) continue;
      if (seen >= offset && items.length < limit) items.push(item);
      seen++;
    }
    if (!fetched.hasNext) return { items, page: { offset, limit, total: seen } };
    if (items.length >= limit) break;
  }
  // The API counts every item; with a filter that count is not the kept list's size.
  const total = options.keep ? undefined : reported;
  return { items, page: { offset, limit, ...(total === undefined ? {} : { total }) } };
}
