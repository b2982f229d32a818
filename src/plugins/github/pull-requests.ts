// The pull request reads of the github plugin: get_merge_requests and get_merge_request on GitHub's pulls API.
import {
  DEFAULT_LIMIT,
  windowOfPages,
  shapedResult,
  int,
  str,
  strings,
  type ToolHandler,
} from '../kit/index.js';
import { pullNumber } from './args.js';
import { request } from './failure.js';
import { type GitHubPullJson, mergeRequestFromGitHub } from './pr-shape.js';
import { fetchedPage, listPage } from './paging.js';
import type { ReviewContext } from './review-context.js';

type ListedState = 'open' | 'closed' | 'merged' | 'all';

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/**
 * What GitHub cannot filter on: merged versus closed, the author and the labels. Undefined when nothing is
 * filtered here, so the window can start on the page that holds it.
 */
function localFilter(
  state: ListedState,
  author: string | undefined,
  labels: string[],
): ((pull: GitHubPullJson) => boolean) | undefined {
  if (state !== 'merged' && state !== 'closed' && author === undefined && labels.length === 0)
    return undefined;
  return (pull) => {
    const merged = typeof pull.merged_at === 'string';
    if (state === 'merged' && !merged) return false;
    if (state === 'closed' && merged) return false;
    if (author !== undefined && !sameName(pull.user?.login ?? '', author)) return false;
    const has = (pull.labels ?? []).map((label) => label.name ?? '');
    return labels.every((wanted) => has.some((name) => sameName(name, wanted)));
  };
}

export function createPullRequestReads(context: ReviewContext) {
  const { client, owner, repo, target } = context;

  const getMergeRequests: ToolHandler = async (args, ctx) => {
    const state = (str(args.state) ?? 'open') as ListedState;
    const limit = int(args.limit, DEFAULT_LIMIT);
    const source = str(args.source_branch);
    const keep = localFilter(state, str(args.author), strings(args.labels) ?? []);
    const window = await windowOfPages<GitHubPullJson>(
      async (page, perPage, next) => {
        const listed = await listPage<GitHubPullJson[]>(
          client,
          target('pull requests'),
          { signal: ctx.signal },
          next,
          () =>
            client.rest.pulls.list({
              owner,
              repo,
              state: state === 'merged' ? 'closed' : state,
              // GitHub wants "owner:branch"; a branch of a fork can be given that way too.
              ...(source ? { head: source.includes(':') ? source : `${owner}:${source}` } : {}),
              ...(str(args.target_branch) ? { base: str(args.target_branch) } : {}),
              sort: 'created',
              direction: 'desc',
              per_page: perPage,
              page,
              request: { signal: ctx.signal },
            }),
        );
        return fetchedPage(listed);
      },
      {
        offset: int(args.offset, 0),
        limit,
        // Filtered lists are read from the start in full pages; others a page of `limit` at a time.
        perPage: keep ? 100 : limit,
        ...(keep ? { keep } : {}),
      },
    );
    return shapedResult({
      kind: 'merge_request_list',
      items: window.items.map(mergeRequestFromGitHub),
      page: window.page,
    });
  };

  const getMergeRequest: ToolHandler = async (args, ctx) => {
    const number = pullNumber(args);
    const { data } = await request(target(`pull request #${number}`), ctx.signal, () =>
      client.rest.pulls.get({ owner, repo, pull_number: number, request: { signal: ctx.signal } }),
    );
    return shapedResult({ kind: 'merge_request', item: mergeRequestFromGitHub(data as GitHubPullJson) });
  };

  return { get_merge_requests: getMergeRequests, get_merge_request: getMergeRequest };
}
