// The github plugin's pull request tools end to end: listing, reading, creating and updating pull requests
// through a real MCP client and the host, against the loopback GitHub; what GitHub receives and what the agent reads.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gh } from './support/fake-github.js';
import { type GitHubHost, TOKEN, startGitHubHost } from './support/github-plugin-host.js';
import { pagedReply, routeCodeReview } from './support/github-review-fixture.js';

const PULLS = '/repos/octo-org/octo-repo/pulls';
let host: GitHubHost;

beforeEach(async () => {
  host = await startGitHubHost();
});
afterEach(() => host.close());

describe('get_merge_requests', () => {
  it('lists open pull requests as merge requests, asking GitHub for one page of `limit`', async () => {
    routeCodeReview(host.fake);
    const result = await host.call('get_merge_requests', { limit: 3 });

    expect(host.calls()).toMatchObject([
      {
        method: 'GET',
        path: PULLS,
        query: { state: 'open', sort: 'created', direction: 'desc', per_page: '3', page: '1' },
        headers: { authorization: `token ${TOKEN}` },
      },
    ]);
    expect(result.structuredContent).toEqual({
      kind: 'merge_request_list',
      items: [
        {
          key: '#12',
          title: 'Map line types to sides',
          state: 'open',
          url: 'https://github.com/octo-org/octo-repo/pull/12',
          author: 'octocat',
          labels: ['bug'],
          sourceBranch: 'feature-12',
          targetBranch: 'main',
          createdAt: '2017-10-10T16:00:00Z',
          updatedAt: '2017-10-10T16:00:00Z',
        },
        expect.objectContaining({ key: '#11', draft: true, state: 'open' }),
        expect.objectContaining({ key: '#10', state: 'merged', mergedAt: '2024-04-01T00:00:00Z' }),
      ],
      page: { offset: 0, limit: 3, total: 3 },
    });
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('## Merge requests (3)');
    expect(text).toContain(
      '| [#12](https://github.com/octo-org/octo-repo/pull/12) | Map line types to sides | open |',
    );
    expect(text).toContain('feature-12 → main');
  });

  it('pages by offset and limit over GitHub pages, and says where the next ones start', async () => {
    const all = Array.from({ length: 7 }, (_, i) => gh.pullListed(100 - i));
    host.fake.route('GET', PULLS, (request) => pagedReply(host.fake, request, all));

    const first = await host.call('get_merge_requests', { limit: 3 });
    expect((first.structuredContent as { items: { key: string }[] }).items.map((i) => i.key)).toEqual([
      '#100',
      '#99',
      '#98',
    ]);
    expect(first.structuredContent).toMatchObject({ page: { offset: 0, limit: 3 } });
    expect((first.content[0] as { text: string }).text).toContain(
      'call again with offset=3 for the next ones',
    );

    // Offset 4 with pages of 3 starts on page 2 and runs into page 3.
    const later = await host.call('get_merge_requests', { limit: 3, offset: 4 });
    expect((later.structuredContent as { items: { key: string }[] }).items.map((i) => i.key)).toEqual([
      '#96',
      '#95',
      '#94',
    ]);
    expect(later.structuredContent).toMatchObject({ page: { offset: 4, limit: 3, total: 7 } });
    expect(host.calls().map((r) => [r.query.page, r.query.per_page])).toEqual([
      ['1', '3'],
      ['2', '3'],
      ['3', '3'],
    ]);
  });

  it('finds merged pull requests among closed ones, over more than one page of 100', async () => {
    const closed = Array.from({ length: 150 }, (_, i) =>
      gh.pullListed(500 - i, i % 50 === 7 ? { merged_at: '2024-01-01T00:00:00Z' } : { state: 'closed' }),
    );
    host.fake.route('GET', PULLS, (request) => pagedReply(host.fake, request, closed));

    const merged = await host.call('get_merge_requests', { state: 'merged' });
    expect((merged.structuredContent as { items: { key: string; state: string }[] }).items).toEqual([
      expect.objectContaining({ key: '#493', state: 'merged' }),
      expect.objectContaining({ key: '#443', state: 'merged' }),
      expect.objectContaining({ key: '#393', state: 'merged' }),
    ]);
    expect(merged.structuredContent).toMatchObject({ page: { total: 3 } });
    expect(host.calls().map((r) => [r.query.state, r.query.page, r.query.per_page])).toEqual([
      ['closed', '1', '100'],
      ['closed', '2', '100'],
    ]);

    const notMerged = await host.call('get_merge_requests', { state: 'closed', limit: 2 });
    expect((notMerged.structuredContent as { items: { key: string; state: string }[] }).items).toEqual([
      expect.objectContaining({ key: '#500', state: 'closed' }),
      expect.objectContaining({ key: '#499', state: 'closed' }),
    ]);
  });

  it('sends branches as GitHub filters and matches author and labels itself', async () => {
    host.fake.route('GET', PULLS, {
      status: 200,
      body: [
        gh.pullListed(3, { user: 'alice', labels: ['bug', 'ui'] }),
        gh.pullListed(2, { user: 'Alice', labels: ['bug'] }),
        gh.pullListed(1, { user: 'bob', labels: ['bug', 'ui'] }),
      ],
    });
    const result = await host.call('get_merge_requests', {
      author: 'alice',
      labels: ['UI'],
      source_branch: 'fix-sides',
      target_branch: 'release',
      state: 'all',
    });
    expect(host.calls()[0]?.query).toMatchObject({
      state: 'all',
      head: 'octo-org:fix-sides',
      base: 'release',
      per_page: '100',
    });
    expect((result.structuredContent as { items: { key: string }[] }).items.map((i) => i.key)).toEqual([
      '#3',
    ]);

    await host.call('get_merge_requests', { source_branch: 'someone:their-fix' });
    expect(host.calls()[1]?.query.head).toBe('someone:their-fix');
  });
});

describe('get_merge_request', () => {
  it('reads one pull request by "#12", 12 or its URL, with its comment count and description', async () => {
    host.fake.route('GET', `${PULLS}/:n`, (_r, params) => ({
      status: 200,
      body: gh.pull(Number(params.n), {
        title: 'Map sides',
        body: 'Fixes the side mapping.',
        assignees: ['bob'],
        reviewers: ['carol'],
        comments: 2,
        review_comments: 3,
        head: 'fix-sides',
      }),
    }));
    for (const key of ['#12', 12, 'https://github.com/octo-org/octo-repo/pull/12/files']) {
      const result = await host.call('get_merge_request', { key });
      expect(result.structuredContent).toEqual({
        kind: 'merge_request',
        item: {
          key: '#12',
          title: 'Map sides',
          state: 'open',
          url: 'https://github.com/octo-org/octo-repo/pull/12',
          author: 'octocat',
          assignees: ['bob'],
          reviewers: ['carol'],
          sourceBranch: 'fix-sides',
          targetBranch: 'main',
          createdAt: '2017-10-10T16:00:00Z',
          updatedAt: '2017-10-10T16:00:00Z',
          commentCount: 5,
          body: 'Fixes the side mapping.',
        },
      });
    }
    expect(host.calls().map((r) => r.path)).toEqual([`${PULLS}/12`, `${PULLS}/12`, `${PULLS}/12`]);
    const text = await host.text('get_merge_request', { key: '#12', format: 'compact' });
    expect(text).toContain('#12');
    expect(text).toContain('fix-sides → main');
  });

  it('refuses a key that is not a pull request key, before asking GitHub', async () => {
    expect(await host.error('get_merge_request', { key: 'PROJ-7' })).toBe(
      'parameter "key" is "PROJ-7", which is not a pull or merge request key; use "#45", "!45", 45 or the request\'s URL',
    );
    expect(host.calls()).toEqual([]);
  });

  it('404 names the pull request and the repository', async () => {
    expect(await host.error('get_merge_request', { key: '#404' })).toBe(
      'pull request #404 of octo-org/octo-repo was not found on GitHub',
    );
  });
});

describe('create_merge_request', () => {
  it('opens a draft pull request, then adds labels and assignees and requests reviews', async () => {
    routeCodeReview(host.fake);
    const issue = '/repos/octo-org/octo-repo/issues/13';
    host.fake.route('POST', `${issue}/labels`, (request) => ({
      status: 200,
      body: (request.body as { labels: string[] }).labels.map((name) => gh.label(name)),
    }));
    host.fake.route('POST', `${issue}/assignees`, (request) => ({
      status: 201,
      body: gh.issue(13, {
        pull_request: true,
        assignees: (request.body as { assignees: string[] }).assignees,
      }),
    }));
    host.fake.route('POST', `${PULLS}/13/requested_reviewers`, (request) => ({
      status: 201,
      body: gh.pull(13, { reviewers: (request.body as { reviewers: string[] }).reviewers }),
    }));

    const result = await host.call('create_merge_request', {
      title: 'Map sides',
      source_branch: 'fix-sides',
      target_branch: 'main',
      body: 'Fixes it.',
      draft: true,
      labels: ['bug'],
      assignees: ['bob'],
      reviewers: ['carol', 'dave'],
    });

    expect(host.calls().map((r) => [r.method, r.path, r.body])).toEqual([
      [
        'POST',
        PULLS,
        { title: 'Map sides', head: 'fix-sides', base: 'main', body: 'Fixes it.', draft: true },
      ],
      ['POST', `${issue}/labels`, { labels: ['bug'] }],
      ['POST', `${issue}/assignees`, { assignees: ['bob'] }],
      ['POST', `${PULLS}/13/requested_reviewers`, { reviewers: ['carol', 'dave'] }],
    ]);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      kind: 'merge_request',
      item: {
        key: '#13',
        title: 'Map sides',
        draft: true,
        sourceBranch: 'fix-sides',
        labels: ['bug'],
        assignees: ['bob'],
        reviewers: ['carol', 'dave'],
      },
    });
    expect(result.content).toEqual([
      { type: 'text', text: 'Created #13: Map sides\nhttps://github.com/octo-org/octo-repo/pull/13' },
    ]);
  });

  it('gives GitHub’s own words on a 422', async () => {
    host.fake.route(
      'POST',
      PULLS,
      gh.error(422, 'Validation Failed', [
        { resource: 'PullRequest', code: 'custom', message: 'No commits between main and fix-sides' },
      ]),
    );
    expect(
      await host.error('create_merge_request', {
        title: 'T',
        source_branch: 'fix-sides',
        target_branch: 'main',
      }),
    ).toBe(
      'GitHub rejected the request for a new pull request of octo-org/octo-repo: Validation Failed; No commits between main and fix-sides',
    );
  });

  it('says the pull request exists when a later step fails, so the agent does not open another', async () => {
    routeCodeReview(host.fake);
    host.fake.route(
      'POST',
      `${PULLS}/13/requested_reviewers`,
      gh.error(422, 'Reviews may only be requested from collaborators.'),
    );
    const message = await host.error('create_merge_request', {
      title: 'T',
      source_branch: 'fix-sides',
      target_branch: 'main',
      reviewers: ['stranger'],
    });
    expect(message).toBe(
      'Created #13 (https://github.com/octo-org/octo-repo/pull/13), but requesting the reviews failed: GitHub rejected the request for pull request #13 of octo-org/octo-repo: Reviews may only be requested from collaborators.',
    );
  });
});

describe('update_merge_request', () => {
  it('changes the pull request fields, replaces labels and assignees on its issue, and requests reviews', async () => {
    routeCodeReview(host.fake);
    host.fake.route('PATCH', '/repos/octo-org/octo-repo/issues/12', {
      status: 200,
      body: gh.issue(12, { pull_request: true }),
    });
    host.fake.route('POST', `${PULLS}/12/requested_reviewers`, {
      status: 201,
      body: gh.pull(12, { title: 'Renamed', state: 'closed', labels: ['ui'], reviewers: ['carol'] }),
    });

    const result = await host.call('update_merge_request', {
      key: '#12',
      title: 'Renamed',
      state: 'closed',
      target_branch: 'release',
      labels: ['ui'],
      assignees: [],
      reviewers: ['carol'],
    });

    expect(host.calls().map((r) => [r.method, r.path, r.body])).toEqual([
      ['PATCH', `${PULLS}/12`, { title: 'Renamed', state: 'closed', base: 'release' }],
      ['PATCH', '/repos/octo-org/octo-repo/issues/12', { labels: ['ui'], assignees: [] }],
      ['POST', `${PULLS}/12/requested_reviewers`, { reviewers: ['carol'] }],
    ]);
    expect(result.structuredContent).toMatchObject({
      kind: 'merge_request',
      item: { key: '#12', title: 'Renamed', state: 'closed', labels: ['ui'], reviewers: ['carol'] },
    });
    expect((result.content[0] as { text: string }).text).toBe(
      'Updated #12: Renamed\nhttps://github.com/octo-org/octo-repo/pull/12',
    );
  });

  it('marks a draft ready through GraphQL with the pull request’s node id, then reads it back', async () => {
    const operations: { query: string; variables: Record<string, unknown> }[] = [];
    let draft = true;
    host.fake.route('GET', `${PULLS}/12`, () => ({ status: 200, body: gh.pull(12, { draft }) }));
    host.fake.graphql((operation) => {
      operations.push(operation);
      draft = false;
      return gh.graphqlData({ markPullRequestReadyForReview: { pullRequest: { isDraft: false } } });
    });

    const result = await host.call('update_merge_request', { key: '#12', draft: false });

    expect(operations).toHaveLength(1);
    expect(operations[0]?.query).toContain('markPullRequestReadyForReview(input: { pullRequestId: $id })');
    expect(operations[0]?.variables).toEqual({ id: gh.pull(12).node_id });
    expect(host.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${PULLS}/12`,
      'POST /graphql',
      `GET ${PULLS}/12`,
    ]);
    expect(result.structuredContent).toMatchObject({ item: { key: '#12' } });
    expect((result.structuredContent as { item: { draft?: boolean } }).item.draft).toBeUndefined();

    // Already ready: nothing to convert, and the answer says so.
    const again = await host.text('update_merge_request', { key: '#12', draft: false });
    expect(again).toMatch(/^Nothing to change on #12/);
    expect(operations).toHaveLength(1);
  });

  it('says what was already changed when a later step fails', async () => {
    routeCodeReview(host.fake);
    host.fake.route('PATCH', '/repos/octo-org/octo-repo/issues/12', gh.error(403, 'Must have admin rights'));
    expect(
      await host.error('update_merge_request', {
        key: '#12',
        title: 'New',
        target_branch: 'release',
        labels: [],
      }),
    ).toBe(
      'Updated #12 (set title, target_branch), but setting labels failed: GitHub denied access to pull request #12 of octo-org/octo-repo (403); the token may lack a scope: Must have admin rights',
    );
  });

  it('refuses an update that changes nothing, before asking GitHub', async () => {
    expect(await host.error('update_merge_request', { key: '#12' })).toBe(
      'nothing to change on #12: give title, body, state, target_branch, draft, labels, assignees or reviewers',
    );
    expect(host.calls()).toEqual([]);
  });

  it('reports a GraphQL refusal in GitHub’s words', async () => {
    host.fake.route('GET', `${PULLS}/12`, { status: 200, body: gh.pull(12) });
    host.fake.graphql(() =>
      gh.graphqlErrors([
        { type: 'UNPROCESSABLE', message: 'Pull request is in a state that cannot be converted to draft' },
      ]),
    );
    expect(await host.error('update_merge_request', { key: '#12', draft: true })).toBe(
      'GitHub rejected the request for pull request #12 of octo-org/octo-repo: Pull request is in a state that cannot be converted to draft',
    );
  });
});

describe('errors and the token', () => {
  it('401 says the token was refused; no result or error ever shows the token', async () => {
    routeCodeReview(host.fake);
    host.fake.route('GET', `${PULLS}/401`, gh.error(401, 'Bad credentials'));
    const calls: [string, Record<string, unknown>][] = [
      ['get_merge_requests', {}],
      ['get_merge_request', { key: '#12' }],
      ['get_merge_request', { key: '#401' }],
      ['get_merge_request_diffs', { key: '#12' }],
      ['get_pipeline', {}],
      ['create_merge_request', { title: 'T', source_branch: 'a', target_branch: 'b' }],
    ];
    for (const [tool, args] of calls) {
      const result = await host.call(tool, args);
      expect(JSON.stringify(result), tool).not.toContain(TOKEN);
    }
    expect(await host.error('get_merge_request', { key: '#401' })).toBe(
      'GitHub refused the token for pull request #401 of octo-org/octo-repo (401); check the token the config names: Bad credentials',
    );
    expect(host.fake.requests.every((r) => r.headers.authorization === `token ${TOKEN}`)).toBe(true);
  });

  it('a rate limit says when it resets', async () => {
    host.fake.route('GET', PULLS, gh.rateLimited(403, 1_700_000_000));
    expect(await host.error('get_merge_requests', {})).toBe(
      'GitHub rate limit reached for pull requests of octo-org/octo-repo; it resets at 2023-11-14T22:13:20.000Z',
    );
  });
});
