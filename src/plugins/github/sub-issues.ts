// GitHub's sub-issues: link_issues (parent and child) and the relations get_issue shows.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isForesightError, type IssueLinkShape, type RequestContext } from '../../contract/index.js';
import { type Args, numberedKey, parseNumberedKey, shapedResult } from '../kit/index.js';
import type { GitHubClient, RequestScope } from './client.js';
import { request } from './failure.js';
import { type GitHubIssueJson, issueFromGitHub } from './issue-shape.js';
import type { GitHubSettings } from './options.js';
import { githubTarget } from './review-context.js';

/** How two issues relate on GitHub, from `key`'s side: it is the parent of `target_key`, or its child. */
export const GITHUB_LINK_TYPES = ['parent_of', 'child_of'] as const;

/** Sub-issues shown with an issue; GitHub allows 100 per parent. */
const SHOWN_SUB_ISSUES = 50;

const link = (issue: GitHubIssueJson, relation: string): IssueLinkShape => {
  const shape = issueFromGitHub(issue);
  return {
    key: shape.key,
    relation,
    title: shape.title,
    state: shape.state,
    ...(shape.url ? { url: shape.url } : {}),
  };
};

export function createSubIssueTools(client: GitHubClient, settings: GitHubSettings) {
  const { owner, repo } = settings;
  const target = githubTarget(settings);

  /** The parent and the first sub-issues of an issue; a missing parent is GitHub's 404, which means none. */
  async function relationsOf(number: number, signal: AbortSignal): Promise<IssueLinkShape[]> {
    const [parent, children] = await Promise.all([
      request(target(`the parent of issue #${number}`), signal, () =>
        client.rest.issues.getParent({
          owner,
          repo,
          issue_number: number,
          request: { signal, expectedStatuses: [404] } satisfies RequestScope,
        }),
      ).then(
        ({ data }) => [link(data as GitHubIssueJson, 'parent')],
        (error: unknown) => {
          // GitHub answers 404 for an issue without a parent: that means none, not a failure.
          if (isForesightError(error) && error.kind === 'not_found') return [];
          throw error;
        },
      ),
      request(target(`sub-issues of issue #${number}`), signal, () =>
        client.rest.issues.listSubIssues({
          owner,
          repo,
          issue_number: number,
          per_page: SHOWN_SUB_ISSUES,
          request: { signal },
        }),
      ).then(({ data }) => (data as GitHubIssueJson[]).map((issue) => link(issue, 'sub-issue'))),
    ]);
    return [...parent, ...children];
  }

  /** Makes one issue a sub-issue of the other: GitHub wants the child's id, not its number. */
  async function linkIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const first = parseNumberedKey(args.key, 'issue');
    const second = parseNumberedKey(args.target_key, 'issue', 'target_key');
    const [parent, child] = args.link_type === 'child_of' ? [second, first] : [first, second];
    const { data: childIssue } = await request(target(`issue #${child}`), ctx.signal, () =>
      client.rest.issues.get({ owner, repo, issue_number: child, request: { signal: ctx.signal } }),
    );
    const { data: parentIssue } = await request(target(`sub-issues of issue #${parent}`), ctx.signal, () =>
      client.rest.issues.addSubIssue({
        owner,
        repo,
        issue_number: parent,
        sub_issue_id: childIssue.id,
        request: { signal: ctx.signal },
      }),
    );
    const item = issueFromGitHub(parentIssue as GitHubIssueJson);
    return shapedResult(
      { kind: 'issue', item: { ...item, links: [link(childIssue as GitHubIssueJson, 'sub-issue')] } },
      `Linked ${numberedKey(child)} as a sub-issue of ${numberedKey(parent)}`,
    );
  }

  return { relationsOf, linkIssues };
}
