// GitHub's paging: a list's first page comes from its endpoint, each later one from the URL the Link header names.
import { PluginError } from '../../contract/index.js';
import type { FailureContext, FetchedPage } from '../kit/index.js';
import type { GitHubClient, RequestScope } from './client.js';
import { request } from './failure.js';

/** The next page's URL in a Link header, as GitHub wrote it; undefined on the last page. */
export function nextPageUrl(link: string | undefined): string | undefined {
  return /<([^<>]+)>;\s*rel="next"/.exec(link ?? '')?.[1];
}

interface ListResponse {
  data: unknown;
  headers: { link?: string };
}

export interface ListPage<D> {
  data: D;
  /** The URL of the next page, when there is one. */
  next?: string;
}

/**
 * A next page is read only where the API lives: the token goes with the request. GitHub always names one
 * there; a URL elsewhere (a proxy that rewrote the base URL but not Link) is refused rather than followed.
 */
function checkedNext(client: GitHubClient, next: string, about: FailureContext): string {
  if (!URL.canParse(next)) return next;
  const api = new URL(client.request.endpoint.DEFAULTS.baseUrl);
  const named = new URL(next);
  if (named.origin === api.origin) return next;
  throw new PluginError(
    'unavailable',
    `GitHub named the next page of ${about.target} on ${named.origin}, not on ${api.origin}; ` +
      'it is not read, so that the token does not go there',
  );
}

/**
 * One page of a list: the first from `first` (the endpoint and its parameters, with `request: scope`), a
 * later one from `next`, the URL the page before named. A later page's address is GitHub's, never rebuilt
 * from a page number: GitHub may move the list (to /repositories/ID/…), or page by cursor. `D` is what
 * every page of the list answers with.
 */
export async function listPage<D>(
  client: GitHubClient,
  about: FailureContext,
  scope: RequestScope,
  next: string | undefined,
  first: () => Promise<ListResponse>,
): Promise<ListPage<D>> {
  const url = next === undefined ? undefined : checkedNext(client, next, about);
  const response: ListResponse = await request(about, scope.signal, () =>
    url === undefined ? first() : client.request({ method: 'GET', url, request: scope }),
  );
  const following = nextPageUrl(response.headers.link);
  return { data: response.data as D, ...(following === undefined ? {} : { next: following }) };
}

/** A page of a plain list (an array) as the kit's windowOfPages reads it. */
export function fetchedPage<T>(page: ListPage<T[]>): FetchedPage<T> {
  return { items: page.data, hasNext: page.next !== undefined, ...(page.next ? { next: page.next } : {}) };
}

/** Every page of a list, up to `maxPages`, in order; `complete` is false when the cap stopped it. */
export async function allPages<T>(
  client: GitHubClient,
  about: FailureContext,
  scope: RequestScope,
  maxPages: number,
  first: () => Promise<ListResponse>,
  itemsOf: (data: unknown) => T[] = (data) => data as T[],
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let next: string | undefined;
  for (let read = 0; read < maxPages; read++) {
    const page = await listPage<unknown>(client, about, scope, next, first);
    items.push(...itemsOf(page.data));
    if (page.next === undefined) return { items, complete: true };
    next = page.next;
  }
  return { items, complete: false };
}
