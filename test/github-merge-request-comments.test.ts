// Comments on GitHub pull requests end to end: line_type mapped to GitHub's side by the enricher and checked
// after the mapping, general and line comments, refusals, and the discussions (review threads + conversation).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gh } from './support/fake-github.js';
import { type GitHubHost, startGitHubHost } from './support/github-plugin-host.js';
import { HEAD_SHA, routeCodeReview } from './support/github-review-fixture.js';

const REPO = '/repos/octo-org/octo-repo';
let host: GitHubHost;

beforeEach(async () => {
  host = await startGitHubHost();
  routeCodeReview(host.fake);
});
afterEach(() => host.close());

const reviewCommentBodies = () =>
  host
    .calls()
    .filter((r) => r.method === 'POST' && r.path === `${REPO}/pulls/12/comments`)
    .map((r) => r.body);

describe('create_merge_request_comment: the schema', () => {
  it('shows line_type to the agent and keeps GitHub’s side out of sight', async () => {
    const { tools } = await host.connected.client.listTools();
    const tool = tools.find((t) => t.name === 'github__create_merge_request_comment');
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual([
      'key',
      'body',
      'file_path',
      'line',
      'line_type',
    ]);
    expect(tool?.inputSchema.properties?.line_type).toMatchObject({ enum: ['new', 'old'] });
  });
});

describe('create_merge_request_comment: a line comment', () => {
  it('maps line_type "old" to side LEFT, anchored to the head commit', async () => {
    const result = await host.call('create_merge_request_comment', {
      key: '#12',
      body: 'Why was this removed?',
      file_path: 'src/sides.ts',
      line: 1,
      line_type: 'old',
    });
    expect(host.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${REPO}/pulls/12`,
      `POST ${REPO}/pulls/12/comments`,
    ]);
    expect(reviewCommentBodies()).toEqual([
      { body: 'Why was this removed?', commit_id: HEAD_SHA, path: 'src/sides.ts', line: 1, side: 'LEFT' },
    ]);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Commented on #12 at src/sides.ts:1 (old side)\nhttps://github.com/octo-org/octo-repo/pull/12#discussion_r900',
      },
    ]);
    expect(result.structuredContent).toEqual({
      kind: 'comment_list',
      items: [
        {
          id: '900',
          body: 'Why was this removed?',
          author: 'octocat',
          createdAt: '2017-10-10T16:00:00Z',
          url: 'https://github.com/octo-org/octo-repo/pull/12#discussion_r900',
          path: 'src/sides.ts',
          line: 1,
        },
      ],
    });
  });

  it('maps line_type "new", and no line_type, to side RIGHT', async () => {
    await host.text('create_merge_request_comment', {
      key: '#12',
      body: 'a',
      file_path: 'src/sides.ts',
      line: 2,
      line_type: 'new',
    });
    await host.text('create_merge_request_comment', {
      key: 12,
      body: 'b',
      file_path: 'src/sides.ts',
      line: 3,
    });
    expect(reviewCommentBodies().map((b) => (b as { side: string }).side)).toEqual(['RIGHT', 'RIGHT']);
  });

  it('gives GitHub’s reason when the line is not in the diff', async () => {
    host.fake.route(
      'POST',
      `${REPO}/pulls/:n/comments`,
      gh.error(422, 'Validation Failed', [
        {
          resource: 'PullRequestReviewComment',
          code: 'custom',
          field: 'pull_request_review_thread.line',
          message: 'could not be resolved',
        },
      ]),
    );
    expect(
      await host.error('create_merge_request_comment', {
        key: '#12',
        body: 'x',
        file_path: 'src/sides.ts',
        line: 99,
      }),
    ).toBe(
      'GitHub rejected the request for line 99 of src/sides.ts in pull request #12 of octo-org/octo-repo: Validation Failed; could not be resolved',
    );
  });
});

describe('create_merge_request_comment: refusals, before any request', () => {
  it('refuses a line without a file and a file without a line', async () => {
    expect(await host.error('create_merge_request_comment', { key: '#12', body: 'x', line: 4 })).toBe(
      'a line comment needs "file_path" as well as "line"; leave both out for a general comment',
    );
    expect(
      await host.error('create_merge_request_comment', { key: '#12', body: 'x', file_path: 'src/sides.ts' }),
    ).toBe('a line comment needs "line" as well as "file_path"; leave both out for a general comment');
    expect(host.calls()).toEqual([]);
  });

  it('refuses a line_type outside the enum, naming the allowed values', async () => {
    expect(
      await host.error('create_merge_request_comment', {
        key: '#12',
        body: 'x',
        file_path: 'a.ts',
        line: 1,
        line_type: 'removed',
      }),
    ).toBe(
      'invalid arguments for tool "github__create_merge_request_comment": parameter "line_type" is "removed"; allowed: "new", "old"',
    );
    expect(host.calls()).toEqual([]);
  });

  it('refuses GitHub’s own side from the agent, which must say line_type', async () => {
    expect(
      await host.error('create_merge_request_comment', {
        key: '#12',
        body: 'x',
        file_path: 'a.ts',
        line: 1,
        side: 'LEFT',
      }),
    ).toBe('parameter "side" is not one of this tool\'s; say line_type "new" (RIGHT) or "old" (LEFT)');
    expect(host.calls()).toEqual([]);
  });
});

describe('create_merge_request_comment: a general comment', () => {
  it('goes to the pull request’s conversation, with no side', async () => {
    host.fake.route('POST', `${REPO}/issues/:n/comments`, (request, params) => ({
      status: 201,
      body: gh.comment(55, { body: (request.body as { body: string }).body, issue: Number(params.n) }),
    }));
    const text = await host.text('create_merge_request_comment', {
      key: '#12',
      body: 'Looks good',
      line_type: 'old',
    });
    expect(host.calls().map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', `${REPO}/issues/12/comments`, { body: 'Looks good' }],
    ]);
    expect(text).toBe('Commented on #12\nhttps://github.com/octo-org/octo-repo/issues/12#issuecomment-55');
  });
});

describe('get_merge_request_discussions', () => {
  const thread = (fields: Parameters<typeof gh.reviewThread>[0]) => gh.reviewThread(fields);
  const page = (nodes: unknown[], endCursor: string | null) =>
    gh.graphqlData({
      repository: {
        pullRequest: { reviewThreads: { pageInfo: { hasNextPage: endCursor !== null, endCursor }, nodes } },
      },
    });

  it('reads every page of review threads and the conversation, in the order they began', async () => {
    const operations: { query: string; variables: Record<string, unknown> }[] = [];
    host.fake.graphql((operation) => {
      operations.push(operation);
      return operation.variables.cursor === null
        ? page(
            [
              thread({
                path: 'src/sides.ts',
                line: 3,
                isResolved: true,
                comments: [
                  { id: 1, body: 'Off by one?', author: 'alice', createdAt: '2024-05-01T10:00:00Z' },
                  { id: 2, body: 'Fixed.', author: 'bob', createdAt: '2024-05-01T12:00:00Z' },
                ],
              }),
            ],
            'Y3Vyc29yOjE=',
          )
        : page(
            [
              thread({
                path: 'docs/old.md',
                line: null,
                originalLine: 7,
                comments: [{ id: 3, body: 'Outdated note', author: null, createdAt: '2024-05-03T10:00:00Z' }],
              }),
            ],
            null,
          );
    });
    host.fake.route('GET', `${REPO}/issues/:n/comments`, {
      status: 200,
      body: [
        gh.comment(40, { body: 'Thanks!', user: 'carol', created_at: '2024-05-02T08:00:00Z', issue: 12 }),
      ],
    });

    const result = await host.call('get_merge_request_discussions', { key: '#12' });

    expect(operations.map((o) => o.variables)).toEqual([
      { owner: 'octo-org', repo: 'octo-repo', number: 12, cursor: null },
      { owner: 'octo-org', repo: 'octo-repo', number: 12, cursor: 'Y3Vyc29yOjE=' },
    ]);
    expect(operations[0]?.query).toMatch(/reviewThreads\(first: \d+, after: \$cursor\)/);
    expect(operations[0]?.query).toMatch(/isResolved\s+path\s+line\s+originalLine/);
    expect(host.calls().find((r) => r.path.endsWith('/issues/12/comments'))?.query).toEqual({
      per_page: '100',
    });
    expect(result.structuredContent).toEqual({
      kind: 'comment_list',
      items: [
        {
          id: '1',
          body: 'Off by one?',
          author: 'alice',
          createdAt: '2024-05-01T10:00:00Z',
          url: 'https://github.com/octo-org/octo-repo/pull/1#discussion_r1',
          path: 'src/sides.ts',
          line: 3,
          resolved: true,
        },
        expect.objectContaining({ id: '2', author: 'bob', path: 'src/sides.ts', line: 3, resolved: true }),
        {
          id: '40',
          body: 'Thanks!',
          author: 'carol',
          createdAt: '2024-05-02T08:00:00Z',
          url: 'https://github.com/octo-org/octo-repo/issues/12#issuecomment-40',
        },
        expect.objectContaining({ id: '3', path: 'docs/old.md', line: 7, resolved: false }),
      ],
      page: { offset: 0, limit: 20, total: 4 },
    });
    expect((result.structuredContent as { items: object[] }).items[3]).not.toHaveProperty('author');
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('src/sides.ts:3');
    expect(text).toContain('resolved');
    expect(text).toContain('Off by one?');
  });

  it('pages through the flattened list by offset and limit', async () => {
    host.fake.graphql(() =>
      page(
        [1, 2, 3].map((n) =>
          thread({
            path: `f${n}.ts`,
            comments: [{ id: n, body: `c${n}`, createdAt: `2024-05-0${n}T00:00:00Z` }],
          }),
        ),
        null,
      ),
    );
    host.fake.route('GET', `${REPO}/issues/:n/comments`, { status: 200, body: [] });
    const first = await host.call('get_merge_request_discussions', { key: '#12', limit: 2 });
    expect((first.structuredContent as { items: { id: string }[] }).items.map((c) => c.id)).toEqual([
      '1',
      '2',
    ]);
    expect((first.content[0] as { text: string }).text).toContain('call again with offset=2');
    const rest = await host.call('get_merge_request_discussions', { key: '#12', limit: 2, offset: 2 });
    expect(rest.structuredContent).toMatchObject({ items: [{ id: '3' }], page: { offset: 2, total: 3 } });
  });

  it('404 from GraphQL names the pull request and the repository', async () => {
    host.fake.graphql(() =>
      gh.graphqlErrors(
        [
          {
            type: 'NOT_FOUND',
            path: ['repository', 'pullRequest'],
            message: 'Could not resolve to a PullRequest with the number of 404.',
          },
        ],
        { repository: { pullRequest: null } },
      ),
    );
    host.fake.route('GET', `${REPO}/issues/:n/comments`, { status: 200, body: [] });
    expect(await host.error('get_merge_request_discussions', { key: '#404' })).toBe(
      'pull request #404 of octo-org/octo-repo was not found on GitHub',
    );
  });
});
