// A pull request world for the github plugin's code-review tools on the fake GitHub: pull requests, files,
// review threads, check runs, workflow runs and a job log, enough for every code-review tool to answer.
import { type FakeGitHub, gh } from './fake-github.js';

/** The head commit of every pull request here. */
export const HEAD_SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
/** Check runs of the head commit: two failed Actions jobs and a passing one, in GitHub's order. */
export const JOBS = { lint: 501, test: 502, build: 503 } as const;

/** An Actions log as GitHub stores it: timestamps, colour codes, CRLF line ends. */
export const SAMPLE_LOG = [
  '2024-05-01T10:00:00.0000000Z ##[group]Run npm test',
  '2024-05-01T10:00:01.0000000Z \u001b[36;1mnpm test\u001b[0m',
  '2024-05-01T10:00:02.0000000Z ✓ parses keys',
  '2024-05-01T10:00:03.0000000Z ✗ maps sides',
  '2024-05-01T10:00:03.5000000Z Error: expected LEFT, got RIGHT',
  '2024-05-01T10:00:04.0000000Z ##[error]Process completed with exit code 1.',
].join('\r\n');

const repoPath = '/repos/:owner/:repo';

/**
 * Routes every code-review endpoint the plugin calls. Conversation comments (GET /issues/:n/comments) are
 * left to the caller, which may already route them for the issue tools.
 */
export function routeCodeReview(fake: FakeGitHub): void {
  fake.route('GET', `${repoPath}/pulls`, {
    status: 200,
    body: [
      gh.pullListed(12, { title: 'Map line types to sides', labels: ['bug'], head_sha: HEAD_SHA }),
      gh.pullListed(11, { title: 'Draft: paging', draft: true, head_sha: HEAD_SHA }),
      gh.pullListed(10, { title: 'Merged one', merged_at: '2024-04-01T00:00:00Z', head_sha: HEAD_SHA }),
    ],
  });
  fake.route('GET', `${repoPath}/pulls/:n`, (_request, params) => ({
    status: 200,
    body: gh.pull(Number(params.n), {
      head_sha: HEAD_SHA,
      changed_files: 2,
      comments: 1,
      review_comments: 1,
    }),
  }));
  fake.route('POST', `${repoPath}/pulls`, (request) => {
    const sent = request.body as {
      title: string;
      head: string;
      base: string;
      body?: string;
      draft?: boolean;
    };
    return {
      status: 201,
      body: gh.pull(13, {
        title: sent.title,
        head: sent.head,
        base: sent.base,
        body: sent.body ?? null,
        draft: sent.draft ?? false,
        head_sha: HEAD_SHA,
      }),
    };
  });
  fake.route('PATCH', `${repoPath}/pulls/:n`, (request, params) => ({
    status: 200,
    body: gh.pull(Number(params.n), { ...(request.body as object), head_sha: HEAD_SHA }),
  }));
  fake.route('GET', `${repoPath}/pulls/:n/files`, {
    status: 200,
    body: [
      gh.pullFile('src/sides.ts', {
        additions: 2,
        deletions: 1,
        patch:
          "@@ -1,2 +1,3 @@\n-const side = 'RIGHT';\n+const side = lineType === 'old' ? 'LEFT' : 'RIGHT';\n+export { side };",
      }),
      gh.pullFile('docs/old.md', { status: 'removed', deletions: 1, patch: '@@ -1 +0,0 @@\n-old' }),
    ],
  });
  fake.route('POST', `${repoPath}/pulls/:n/comments`, (request, params) => {
    const sent = request.body as { body: string; path: string; line: number; side: 'LEFT' | 'RIGHT' };
    return {
      status: 201,
      body: gh.reviewComment(900, { ...sent, pull: Number(params.n), commit_id: HEAD_SHA }),
    };
  });
  fake.graphql(() =>
    gh.graphqlData({
      repository: {
        pullRequest: {
          reviewThreads: {
            pageInfo: { hasNextPage: false, endCursor: null },
            nodes: [
              gh.reviewThread({
                path: 'src/sides.ts',
                line: 1,
                comments: [
                  { id: 700, body: 'Why RIGHT?', author: 'alice', createdAt: '2024-05-01T09:00:00Z' },
                ],
              }),
            ],
          },
        },
      },
    }),
  );
  fake.route('GET', repoPath, { status: 200, body: gh.repository('octo-org/octo-repo') });
  fake.route('GET', `${repoPath}/branches/:branch`, (_request, params) => ({
    status: 200,
    body: gh.branch(params.branch ?? 'main', HEAD_SHA),
  }));
  fake.route('GET', `${repoPath}/commits/:ref/check-runs`, {
    status: 200,
    body: gh.checkRunList([
      gh.checkRun(JOBS.build, {
        name: 'build',
        started_at: '2024-05-01T10:00:00Z',
        completed_at: '2024-05-01T10:01:30Z',
      }),
      gh.checkRun(JOBS.lint, { name: 'lint', conclusion: 'failure' }),
      gh.checkRun(JOBS.test, { name: 'test', conclusion: 'failure' }),
    ]),
  });
  // No service reports through the statuses API here: GitHub's answer for a commit without statuses.
  fake.route('GET', `${repoPath}/commits/:ref/status`, {
    status: 200,
    body: gh.combinedStatus([], HEAD_SHA),
  });
  fake.route('GET', `${repoPath}/actions/runs`, {
    status: 200,
    body: gh.workflowRunList([gh.workflowRun(1, { conclusion: 'failure', head_sha: HEAD_SHA })]),
  });
  fake.route('GET', `${repoPath}/actions/jobs/:id/logs`, (_request, params) => ({
    status: 302,
    headers: {
      location: fake.store(`job-${params.id}.txt`, {
        status: 200,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: SAMPLE_LOG,
      }),
    },
  }));
}

/**
 * One page of `items` as GitHub pages a list: `page` and `per_page` from the query (defaults 1 and 30),
 * a Link header naming the next and last pages while there are more.
 */
export function pagedReply(
  fake: FakeGitHub,
  request: { path: string; query: Record<string, string> },
  items: unknown[],
): { status: number; body: unknown[]; headers: Record<string, string> } {
  const page = Number(request.query.page ?? '1');
  const perPage = Number(request.query.per_page ?? '30');
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const at = (n: number) => {
    const query = new URLSearchParams({ ...request.query, page: String(n), per_page: String(perPage) });
    return `<${fake.url}${request.path}?${query.toString()}>`;
  };
  const links = page < last ? [`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`] : [];
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length ? { link: links.join(', ') } : {},
  };
}
