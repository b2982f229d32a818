// Test seam for the GitLab plugin: the loopback REST fake with GitLab's prefix and refusals, and lists paged
// the way GitLab pages them.
import { type FakeReply, type FakeRest, type RecordedRequest, startFakeRest } from './fake-rest.js';

export type { FakeHandler, FakeReply, RecordedRequest } from './fake-rest.js';
export type FakeGitLab = FakeRest;

export const API_PREFIX = '/api/v4';

export function startFakeGitLab(): Promise<FakeGitLab> {
  return startFakeRest({
    name: 'gitlab',
    prefix: API_PREFIX,
    unauthorized: { status: 401, body: { message: '401 Unauthorized' } },
    notFound: { status: 404, body: { error: '404 Not Found' } },
  });
}

/**
 * A page of `items` as GitLab's offset pagination answers it: `page` and `per_page` from the query (GitLab's
 * defaults 1 and 20, per_page at most 100), and the X-Page, X-Per-Page, X-Next-Page, X-Prev-Page, X-Total,
 * X-Total-Pages and Link headers. `omitTotal` drops X-Total, X-Total-Pages and rel="last", as GitLab does
 * for lists of more than 10,000 items.
 */
export function paged(
  items: readonly unknown[],
  request: RecordedRequest,
  baseUrl: string,
  options: { omitTotal?: boolean } = {},
): FakeReply {
  const perPage = Math.min(100, Math.max(1, Number(request.query.per_page ?? 20) || 20));
  const page = Math.max(1, Number(request.query.page ?? 1) || 1);
  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const next = page < totalPages ? page + 1 : undefined;
  const prev = page > 1 ? page - 1 : undefined;
  const link = (to: number, rel: string) => {
    const query = new URLSearchParams({ ...request.query, page: String(to), per_page: String(perPage) });
    return `<${baseUrl}${request.path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(prev === undefined ? [] : [link(prev, 'prev')]),
    ...(next === undefined ? [] : [link(next, 'next')]),
    link(1, 'first'),
    ...(options.omitTotal ? [] : [link(totalPages, 'last')]),
  ];
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': next === undefined ? '' : String(next),
      'x-prev-page': prev === undefined ? '' : String(prev),
      ...(options.omitTotal ? {} : { 'x-total': String(items.length), 'x-total-pages': String(totalPages) }),
      link: links.join(', '),
    },
  };
}
