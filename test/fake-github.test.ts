// The fake GitHub server itself, driven by a real @octokit/rest client: fixture replay, routes, recording,
// authentication, 404s and the gh.* body builders.
import { readFileSync } from 'node:fs';
import { Octokit } from '@octokit/rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, gh, startFakeGitHub } from './support/fake-github.js';

/** The token the fixtures were recorded with (`token 000…001`). */
const FIXTURE_TOKEN = '0000000000000000000000000000000000000001';

let fake: FakeGitHub;
beforeEach(async () => {
  fake = await startFakeGitHub();
});
afterEach(() => fake.close());

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
/** A real client pointed at the fake; its request log (failed requests go to console.error) is silenced. */
const client = (auth = 'token-1') => new Octokit({ auth, baseUrl: fake.url, log: quiet });

/** What a failed octokit request rejects with (a RequestError), as far as these tests read it. */
interface Failure {
  status: number;
  response?: { data: unknown; headers: Record<string, unknown> };
}

/** The rejection of `promise`, failing the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (error) {
    return error as Failure;
  }
  throw new Error('expected the request to fail');
}

describe('fixture replay', () => {
  it('pages through paginate-issues with the recorded Link headers pointed at the fake', async () => {
    fake.expectToken(`token ${FIXTURE_TOKEN}`);
    fake.replay('paginate-issues');
    const octokit = client(FIXTURE_TOKEN);

    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    });

    expect(issues.map((i) => i.number)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(fake.requests.map((r) => `${r.path}?${new URLSearchParams(r.query).toString()}`)).toEqual([
      '/repos/octokit-fixture-org/paginate-issues/issues?per_page=3',
      '/repositories/1000/issues?per_page=3&page=2',
      '/repositories/1000/issues?per_page=3&page=3',
      '/repositories/1000/issues?per_page=3&page=4',
      '/repositories/1000/issues?per_page=3&page=5',
    ]);
    expect(fake.unmatched).toEqual([]);
    expect(issues[0]?.url).toBe(`${fake.url}/repos/octokit-fixture-org/paginate-issues/issues/13`);
    expect(issues[0]?.html_url).toBe('https://github.com/octokit-fixture-org/paginate-issues/issues/13');
  });

  it('rewrites Link, drops content-length and keeps the recorded headers', async () => {
    fake.replay('paginate-issues');
    const first = await client().rest.issues.listForRepo({
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    });
    expect(first.headers.link).toBe(
      `<${fake.url}/repositories/1000/issues?per_page=3&page=2>; rel="next", ` +
        `<${fake.url}/repositories/1000/issues?per_page=3&page=5>; rel="last"`,
    );
    expect(first.headers['x-ratelimit-limit']).toBe('5000');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    // The length is that of the rewritten body, not the recorded 7042.
    expect(first.headers['content-length']).not.toBe('7042');
  });

  it('answers only the recorded query: another per_page is unmatched', async () => {
    fake.replay('paginate-issues');
    const failure = await rejection(
      client().rest.issues.listForRepo({
        owner: 'octokit-fixture-org',
        repo: 'paginate-issues',
        per_page: 4,
      }),
    );
    expect(failure.status).toBe(404);
    expect(fake.unmatched.map((r) => r.query)).toEqual([{ per_page: '4' }]);
  });

  it('takes a default a test names as the recording left it out, and ignores the keys it names', async () => {
    fake.replay('paginate-issues', { ignore: ['per_page'], defaults: { state: 'open', page: '1' } });
    const { data } = await client().rest.issues.listForRepo({
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      state: 'open',
      per_page: 100,
      page: 1,
    });
    expect(data.map((i) => i.number)).toEqual([13, 12, 11]);
    // A value other than the default is still the request's own: nothing recorded it.
    const failure = await rejection(
      client().rest.issues.listForRepo({
        owner: 'octokit-fixture-org',
        repo: 'paginate-issues',
        state: 'closed',
      }),
    );
    expect(failure.status).toBe(404);
    expect(fake.unmatched.map((r) => r.query)).toEqual([{ state: 'closed' }]);
  });

  it('matches an encoded search query and replays the search result', async () => {
    fake.replay('search-issues');
    const { data } = await client().rest.search.issuesAndPullRequests({
      q: 'sesame repo:octokit-fixture-org/search-issues',
    });
    expect(data.total_count).toBe(2);
    expect(data.items.map((i) => [i.number, i.user?.login])).toEqual([
      [2, 'octokit-fixture-user-b'],
      [1, 'octokit-fixture-user-a'],
    ]);
    expect(fake.requests[0]?.query).toEqual({ q: 'sesame repo:octokit-fixture-org/search-issues' });
  });

  it('answers repeated recordings of one request in recorded order, then the last again', async () => {
    fake.replay('api.github.com/add-and-remove-repository-collaborator');
    const octokit = client();
    const list = () =>
      octokit.rest.repos.listCollaborators({
        owner: 'octokit-fixture-org',
        repo: 'add-and-remove-repository-collaborator',
      });
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push((await list()).data.length);
    expect(counts).toEqual([2, 1, 1]);
  });

  it('replays an empty 204, a 422 with its errors and a non-JSON body', async () => {
    fake.replay('labels');
    fake.replay('errors');
    fake.replay('markdown');
    const octokit = client();

    const deleted = await octokit.rest.issues.deleteLabel({
      owner: 'octokit-fixture-org',
      repo: 'labels',
      name: 'test-label-updated',
    });
    expect(deleted.status).toBe(204);

    const invalid = await rejection(
      octokit.rest.issues.createLabel({
        owner: 'octokit-fixture-org',
        repo: 'errors',
        name: 'foo',
        color: 'invalid',
      }),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.response?.data).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'Label', code: 'invalid', field: 'color' }],
    });

    const html = await octokit.rest.markdown.render({
      text: '### Hello\n\nb597b5d',
      context: 'octokit-fixture-org/hello-world',
      mode: 'gfm',
    });
    expect(html.headers['content-type']).toBe('text/html;charset=utf-8');
    expect(String(html.data)).toContain('<h3 dir="auto">Hello</h3>');
  });

  it('names a scenario that does not exist', () => {
    expect(() => fake.replay('no-such-scenario')).toThrow(
      /no @octokit\/fixtures scenario "no-such-scenario"/,
    );
  });
});

describe('routes', () => {
  it('passes decoded params and answers with a builder body octokit reads as an issue', async () => {
    fake.route('GET', '/repos/:owner/:repo/issues/:number', (_request, params) => ({
      status: 200,
      body: gh.issue(
        Number(params.number),
        { title: 'Crash on save', user: 'alice' },
        `${params.owner}/${params.repo}`,
      ),
    }));
    const { data } = await client().rest.issues.get({ owner: 'o', repo: 'r', issue_number: 5 });
    expect(data.number).toBe(5);
    expect(data.title).toBe('Crash on save');
    expect(data.user?.login).toBe('alice');
    expect(data.html_url).toBe('https://github.com/o/r/issues/5');
    expect(data.url).toBe(`${fake.url}/repos/o/r/issues/5`);
  });

  it('decodes a percent-encoded param', async () => {
    let seen: Record<string, string> = {};
    fake.route('GET', '/repos/:owner/:repo/labels/:name', (_request, params) => {
      seen = params;
      return { status: 200, body: gh.label(params.name ?? '') };
    });
    const { data } = await client().rest.issues.getLabel({ owner: 'o', repo: 'r', name: 'good first issue' });
    expect(seen).toEqual({ owner: 'o', repo: 'r', name: 'good first issue' });
    expect(data.name).toBe('good first issue');
    expect(fake.requests[0]?.path).toBe('/repos/o/r/labels/good%20first%20issue');
  });

  it('lets a later route win over an earlier one and over a replay', async () => {
    fake.route('GET', '/repos/:owner/:repo/issues/:number', {
      status: 200,
      body: gh.issue(1, { title: 'first' }),
    });
    fake.route('get', '/repos/:owner/:repo/issues/:number', {
      status: 200,
      body: gh.issue(1, { title: 'second' }),
    });
    fake.replay('paginate-issues');
    fake.route('GET', '/repos/octokit-fixture-org/paginate-issues/issues', { status: 200, body: [] });
    const octokit = client();

    const { data: issue } = await octokit.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 });
    expect(issue.title).toBe('second');
    const { data: list } = await octokit.rest.issues.listForRepo({
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    });
    expect(list).toEqual([]);
  });

  it('matches the method and the whole path only', async () => {
    fake.route('GET', '/repos/:owner/:repo/issues', { status: 200, body: [] });
    const octokit = client();
    await rejection(octokit.rest.issues.create({ owner: 'o', repo: 'r', title: 't' }));
    await rejection(octokit.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 }));
    expect(fake.unmatched.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/o/r/issues',
      'GET /repos/o/r/issues/1',
    ]);
  });

  it('answers 500 with the message when a handler throws', async () => {
    fake.route('GET', '/user', () => {
      throw new Error('boom');
    });
    const failure = await rejection(client().rest.users.getAuthenticated());
    expect(failure.status).toBe(500);
    expect(failure.response?.data).toEqual({ message: 'fake-github: handler threw: Error: boom' });
  });
});

describe('recording', () => {
  it('records method, pathname, query, parsed body and the authorization header as sent', async () => {
    fake.route('POST', '/repos/:owner/:repo/issues/:number/comments', (request) => ({
      status: 201,
      body: gh.comment(77, { body: (request.body as { body: string }).body, issue: 3 }, 'o/r'),
    }));
    fake.route('GET', '/repos/:owner/:repo/issues', { status: 200, body: [] });
    const octokit = client();

    const { data } = await octokit.rest.issues.createComment({
      owner: 'o',
      repo: 'r',
      issue_number: 3,
      body: 'hi',
    });
    await octokit.rest.issues.listForRepo({ owner: 'o', repo: 'r', state: 'closed', labels: 'bug,ui' });

    expect(data.html_url).toBe('https://github.com/o/r/issues/3#issuecomment-77');
    expect(data.body).toBe('hi');
    expect(fake.requests).toMatchObject([
      {
        method: 'POST',
        path: '/repos/o/r/issues/3/comments',
        query: {},
        body: { body: 'hi' },
        headers: { authorization: 'token token-1', 'content-type': 'application/json; charset=utf-8' },
      },
      {
        method: 'GET',
        path: '/repos/o/r/issues',
        query: { state: 'closed', labels: 'bug,ui' },
        body: undefined,
        headers: { authorization: 'token token-1' },
      },
    ]);
  });

  it('records an unanswered request and answers it with GitHub’s 404', async () => {
    const failure = await rejection(client().rest.issues.get({ owner: 'o', repo: 'r', issue_number: 9 }));
    expect(failure.status).toBe(404);
    expect(failure.response?.data).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest',
    });
    expect(fake.unmatched).toHaveLength(1);
    expect(fake.requests).toEqual(fake.unmatched);
  });
});

describe('expectToken', () => {
  it('refuses a wrong or missing token with 401 Bad credentials, recorded but not unmatched', async () => {
    fake.expectToken('token right');
    fake.route('GET', '/user', { status: 200, body: gh.user('octocat') });

    const wrong = await rejection(client('wrong').rest.users.getAuthenticated());
    expect(wrong.status).toBe(401);
    expect(wrong.response?.data).toEqual({
      message: 'Bad credentials',
      documentation_url: 'https://docs.github.com/rest',
    });
    const anonymous = await rejection(
      new Octokit({ baseUrl: fake.url, log: quiet }).rest.users.getAuthenticated(),
    );
    expect(anonymous.status).toBe(401);
    const { data } = await client('right').rest.users.getAuthenticated();
    expect(data.login).toBe('octocat');

    expect(fake.requests.map((r) => r.headers.authorization)).toEqual([
      'token wrong',
      undefined,
      'token right',
    ]);
    expect(fake.unmatched).toEqual([]);
  });

  it('compares the header exactly, so a Bearer token must be expected as such', async () => {
    // auth-token sends a JWT-looking token (three parts) as Bearer.
    fake.expectToken('bearer a.b.c');
    fake.route('GET', '/user', { status: 200, body: gh.user('octocat') });
    expect((await client('a.b.c').rest.users.getAuthenticated()).status).toBe(200);
  });
});

describe('gh builders', () => {
  it('build an issue with labels, assignees, a milestone and a closing date', async () => {
    fake.route('GET', '/repos/:owner/:repo/issues/:number', {
      status: 200,
      body: gh.issue(7, {
        state: 'closed',
        body: 'steps',
        labels: ['bug', 'ui'],
        assignees: ['bob', 'carol'],
        milestone: 'v1.2',
        comments: 4,
        updated_at: '2020-05-02T10:00:00Z',
      }),
    });
    const { data } = await client().rest.issues.get({
      owner: 'octo-org',
      repo: 'octo-repo',
      issue_number: 7,
    });
    expect(data).toMatchObject({
      number: 7,
      state: 'closed',
      state_reason: 'completed',
      closed_at: '2020-05-02T10:00:00Z',
      body: 'steps',
      comments: 4,
      assignee: { login: 'bob' },
      milestone: {
        number: 1,
        title: 'v1.2',
        state: 'open',
        html_url: 'https://github.com/octo-org/octo-repo/milestone/1',
      },
      repository_url: `${fake.url}/repos/octo-org/octo-repo`,
    });
    expect(data.assignees?.map((a) => a.login)).toEqual(['bob', 'carol']);
    const labels = data.labels.map((l) => (typeof l === 'string' ? l : l.name));
    expect(labels).toEqual(['bug', 'ui']);
    expect(data.labels[0]).toEqual({
      id: expect.any(Number) as number,
      node_id: expect.any(String) as string,
      url: `${fake.url}/repos/octo-org/octo-repo/labels/bug`,
      name: 'bug',
      color: 'ededed',
      default: false,
      description: null,
    });
    expect(data.pull_request).toBeUndefined();
  });

  it('build a pull request as the issues API lists one', async () => {
    fake.route('GET', '/repos/:owner/:repo/issues', {
      status: 200,
      body: [gh.issue(8, { pull_request: true }, 'o/r'), gh.issue(9, {}, 'o/r')],
    });
    const { data } = await client().rest.issues.listForRepo({ owner: 'o', repo: 'r' });
    expect(data[0]?.html_url).toBe('https://github.com/o/r/pull/8');
    expect(data[0]?.pull_request).toEqual({
      url: `${fake.url}/repos/o/r/pulls/8`,
      html_url: 'https://github.com/o/r/pull/8',
      diff_url: 'https://github.com/o/r/pull/8.diff',
      patch_url: 'https://github.com/o/r/pull/8.patch',
      merged_at: null,
    });
    expect(data[1]?.pull_request).toBeUndefined();
  });

  it('share the field set of the recorded issues and labels', () => {
    const recorded = (scenario: string) =>
      JSON.parse(
        readFileSync(
          `node_modules/@octokit/fixtures/scenarios/api.github.com/${scenario}/normalized-fixture.json`,
          'utf8',
        ),
      ) as { response: unknown }[];
    const [listed] = recorded('paginate-issues')[0]?.response as Record<string, unknown>[];
    const [added] = recorded('add-labels-to-issue')[1]?.response as Record<string, unknown>[];
    const issue = gh.issue(1);
    expect(Object.keys(issue)).toEqual(Object.keys(listed ?? {}));
    expect(Object.keys(issue.user as object)).toEqual(Object.keys(listed?.user as object));
    expect(Object.keys(gh.label('x'))).toEqual(Object.keys(added ?? {}));
  });

  it('give distinct users distinct ids and GitHub-style node ids', () => {
    const alice = gh.user('alice');
    expect(alice.id).not.toBe(gh.user('bob').id);
    expect(gh.user('alice', 1).node_id).toBe('MDQ6VXNlcjE=');
    expect(gh.issue(1).node_id).toMatch(/^MDU6SXNzdWU/);
  });

  it('build a comment list and its user', async () => {
    fake.route('GET', '/repos/:owner/:repo/issues/:number/comments', {
      status: 200,
      body: [
        gh.comment(1, { body: 'first', user: 'alice', issue: 2 }),
        gh.comment(2, { body: 'second', issue: 2 }),
      ],
    });
    const { data } = await client().rest.issues.listComments({
      owner: 'octo-org',
      repo: 'octo-repo',
      issue_number: 2,
    });
    expect(data.map((c) => [c.id, c.user?.login, c.body])).toEqual([
      [1, 'alice', 'first'],
      [2, 'octocat', 'second'],
    ]);
    expect(data[0]?.issue_url).toBe(`${fake.url}/repos/octo-org/octo-repo/issues/2`);
  });

  it('build GitHub error bodies and rate-limit replies octokit surfaces', async () => {
    fake.route(
      'POST',
      '/repos/:owner/:repo/issues',
      gh.error(422, 'Validation Failed', [{ resource: 'Issue', code: 'missing_field', field: 'title' }]),
    );
    fake.route('GET', '/repos/:owner/:repo/issues/:number', gh.rateLimited(403, 1_700_000_000));
    fake.route('GET', '/repos/:owner/:repo/issues', gh.rateLimited(429, 1_700_000_060));
    const octokit = client();

    const invalid = await rejection(octokit.rest.issues.create({ owner: 'o', repo: 'r', title: '' }));
    expect(invalid.status).toBe(422);
    expect(invalid.response?.data).toEqual({
      message: 'Validation Failed',
      errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
      documentation_url: 'https://docs.github.com/rest',
    });

    const limited = await rejection(octokit.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 }));
    expect(limited.status).toBe(403);
    expect(limited.response?.headers).toMatchObject({
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1700000000',
    });
    expect(limited.response?.data).toMatchObject({
      message: expect.stringMatching(/^API rate limit exceeded for /) as string,
    });

    const tooMany = await rejection(octokit.rest.issues.listForRepo({ owner: 'o', repo: 'r' }));
    expect(tooMany.status).toBe(429);
    expect(tooMany.response?.headers['x-ratelimit-reset']).toBe('1700000060');
  });
});

describe('close', () => {
  it('closes kept-alive connections and refuses later requests', async () => {
    fake.route('GET', '/user', { status: 200, body: gh.user('octocat') });
    const octokit = client();
    await octokit.rest.users.getAuthenticated();
    await fake.close();
    await expect(octokit.rest.users.getAuthenticated()).rejects.toThrow();
    // A fresh one for afterEach to close.
    fake = await startFakeGitHub();
  });
});
