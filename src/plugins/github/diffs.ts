// get_merge_request_diffs on GitHub: a page of a pull request's changed files with their (capped) diffs.
import { DEFAULT_LIMIT, windowOfPages, shapedResult, int, type ToolHandler } from '../kit/index.js';
import { pullNumber } from './args.js';
import { type GitHubDiffEntryJson, diffFileFromGitHub, withinDiffBudget } from './diff-shape.js';
import { request } from './failure.js';
import { fetchedPage, listPage } from './paging.js';
import type { ReviewContext } from './review-context.js';

export function createDiffTools(context: ReviewContext) {
  const { client, owner, repo, target } = context;

  const getMergeRequestDiffs: ToolHandler = async (args, ctx) => {
    const { signal } = ctx;
    const number = pullNumber(args);
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const about = target(`pull request #${number}`);
    // The pull request knows how many files changed, which the file list only tells on its last page.
    const [pull, window] = await Promise.all([
      request(about, signal, () =>
        client.rest.pulls.get({ owner, repo, pull_number: number, request: { signal } }),
      ),
      windowOfPages(
        async (page, perPage, next) =>
          fetchedPage(
            await listPage<GitHubDiffEntryJson[]>(client, about, { signal }, next, () =>
              client.rest.pulls.listFiles({
                owner,
                repo,
                pull_number: number,
                per_page: perPage,
                page,
                request: { signal },
              }),
            ),
          ),
        { offset, limit, perPage: limit },
      ),
    ]);
    const items = withinDiffBudget(window.items.map((file) => diffFileFromGitHub(file)));
    const total = window.page.total ?? pull.data.changed_files;
    return shapedResult({ kind: 'diff_list', items, page: { offset, limit, total } });
  };

  return { get_merge_request_diffs: getMergeRequestDiffs };
}
