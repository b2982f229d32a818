// The github plugin's issue tools, end to end: a real MCP client, the host, the plugin, a loopback GitHub.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import github from '../src/plugins/github/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';
import { type FakeGitHub, type RecordedRequest, gh, startFakeGitHub } from './support/fake-github.js';

const TOKEN = 'ghp_test_issues_0123456789';
const REPO = '/repos/octo-org/octo-repo';
let fake: FakeGitHub;
let connected: Connected | undefined;

beforeEach(async () => {
  process.env.GH_ISSUES_TOKEN = TOKEN;
  fake = await startFakeGitHub();
  fake.expectToken(`token ${TOKEN}`);
  fake.route('GET', `${REPO}/labels`, { status: 200, body: [gh.label('bug'), gh.label('ui')] });
  fake.route('GET', `${REPO}/milestones`, {
    status: 200,
    body: [gh.milestone(3, 'v1.0'), gh.milestone(4, 'v2.0')],
  });
});

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  await fake.close();
  delete process.env.GH_ISSUES_TOKEN;
});

async function serve(options: Record<string, unknown> = {}): Promise<Connected> {
  connected = await connect({
    // The request logs asserted here are the provider's own: the planner's are tested in planner-*.test.ts.
    planner: { enabled: false },
    plugins: [
      {
        plugin: github,
        name: 'gh',
        options: {
          repo: 'octo-org/octo-repo',
          base_url: fake.url,
          token_env: 'GH_ISSUES_TOKEN',
          retries: 0,
          throttle: false,
          ...options,
        },
      },
    ],
  });
  return connected;
}

async function call(c: Connected, name: string, args: Record<string, unknown>) {
  const result = await c.client.callTool({ name, arguments: args });
  return { result, text: textOf(result), isError: result.isError === true };
}

const sent = (method: string, path: string): RecordedRequest[] =>
  fake.requests.filter((r) => r.method === method && r.path === path);

/** Waits until the background load of labels and milestones shows in the listed schemas. */
async function toolsWithMetadata(c: Connected) {
  let tools = (await c.client.listTools()).tools;
  // The first test of the file pays for cold imports: on a busy machine the load takes over the default second.
  await vi.waitFor(
    async () => {
      tools = (await c.client.listTools()).tools;
      const create = tools.find((t) => t.name === 'gh__create_issue');
      expect(create?.inputSchema.properties?.milestone).toMatchObject({ enum: ['v1.0', 'v2.0'] });
    },
    { timeout: 20_000, interval: 50 },
  );
  return tools;
}

describe('github issue tools: the schemas', () => {
  it('publishes the six issue tools fitted to GitHub and to the repository', async () => {
    const c = await serve();
    const tools = await toolsWithMetadata(c);
    // The code-review tools follow them; test/github-merge-requests.test.ts covers those.
    expect(tools.map((t) => t.name).filter((name) => !/merge_request|pipeline|job_logs/.test(name))).toEqual([
      'gh__get_issues',
      'gh__get_issue',
      'gh__get_issue_comments',
      'gh__create_issue',
      'gh__update_issue',
      'gh__add_issue_comment',
    ]);
    const create = tools.find((t) => t.name === 'gh__create_issue');
    // What GitHub lacks is gone; labels and milestones are the repository's own.
    expect(Object.keys(create?.inputSchema.properties ?? {})).toEqual([
      'title',
      'body',
      'labels',
      'assignees',
      'milestone',
    ]);
    expect(create?.inputSchema.properties?.labels).toMatchObject({
      items: { type: 'string', enum: ['bug', 'ui'] },
    });
    expect(tools.find((t) => t.name === 'gh__update_issue')?.inputSchema.properties?.milestone).toMatchObject(
      {
        enum: ['v1.0', 'v2.0', ''],
      },
    );
    const list = tools.find((t) => t.name === 'gh__get_issues');
    expect(list?.inputSchema.properties).not.toHaveProperty('priority');
    expect(list?.inputSchema.properties?.format).toMatchObject({ default: 'markdown' });
    expect(list?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'gh__get_issue')?.inputSchema.properties).not.toHaveProperty(
      'include_relations',
    );
    expect(create?.description).toContain('GitHub repository octo-org/octo-repo');
  });

  it('tells the client when labels and milestones arrive after it listed the tools', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.route('GET', `${REPO}/labels`, async () => {
      await held;
      return { status: 200, body: [gh.label('bug')] };
    });
    const c = await serve();
    const labelsOf = async () =>
      (await c.client.listTools()).tools.find((t) => t.name === 'gh__create_issue')?.inputSchema.properties
        ?.labels;
    expect(await labelsOf()).toEqual({
      type: 'array',
      items: { type: 'string' },
      description: 'label names',
    });
    const changed = new Promise<void>((resolve) =>
      c.client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    release();
    await changed;
    expect(await labelsOf()).toMatchObject({ items: { enum: ['bug'] } });
  });

  it('serves generic schemas when labels cannot be loaded', async () => {
    fake.route('GET', `${REPO}/labels`, gh.error(500, 'Server Error'));
    const c = await serve();
    await vi.waitFor(() => expect(sent('GET', `${REPO}/labels`)).toHaveLength(1));
    const create = (await c.client.listTools()).tools.find((t) => t.name === 'gh__create_issue');
    expect(create?.inputSchema.properties?.labels).toEqual({
      type: 'array',
      items: { type: 'string' },
      description: 'label names',
    });
  });
});

describe('github issue tools: reading', () => {
  it('lists issues page by page, leaving pull requests out, and says where the next ones start', async () => {
    const page1 = [gh.issue(9, { labels: ['bug'] }), gh.issue(8, { pull_request: true }), gh.issue(7)];
    const page2 = [gh.issue(6, { assignees: ['mona'] }), gh.issue(5)];
    // GitHub's Link names the next page with a query of its own: the plugin reads that URL, not one it builds.
    const next = 'labels=bug&state=open&per_page=100&page=2&after=Y3Vyc29y';
    fake.route('GET', `${REPO}/issues`, (request) =>
      request.query.page === '1'
        ? {
            status: 200,
            body: page1,
            headers: { link: `<https://api.github.com${REPO}/issues?${next}>; rel="next"` },
          }
        : { status: 200, body: page2 },
    );
    const c = await serve();
    const { result, text } = await call(c, 'gh__get_issues', {
      labels: ['bug'],
      limit: 3,
      format: 'compact',
    });
    const list = sent('GET', `${REPO}/issues`);
    expect(list.map((r) => r.query)).toEqual([
      { state: 'open', sort: 'created', direction: 'desc', labels: 'bug', per_page: '100', page: '1' },
      Object.fromEntries(new URLSearchParams(next)),
    ]);
    expect(list[0]?.headers.authorization).toBe(`token ${TOKEN}`);
    const data = result.structuredContent as { kind: string; items: { key: string }[]; page: unknown };
    expect(data.kind).toBe('issue_list');
    expect(data.items.map((i) => i.key)).toEqual(['#9', '#7', '#6']);
    expect(data.page).toEqual({ offset: 0, limit: 3, total: 4 });
    expect(text.split('\n')[1]).toMatch(/^key\ttitle\tstate\tauthor\t/);
    expect(text.split('\n')[2]).toMatch(/^#9\tIssue 9\topen\t/);
    expect(text).toContain('call again with offset=3');
  });

  it('searches with the repository qualifiers and reports the total GitHub gives', async () => {
    fake.route('GET', '/search/issues', {
      status: 200,
      body: { total_count: 57, incomplete_results: false, items: [gh.issue(12, { title: 'Crash on save' })] },
      headers: { link: '<https://api.github.com/search/issues?q=crash&per_page=20&page=2>; rel="next"' },
    });
    const c = await serve();
    const { result } = await call(c, 'gh__get_issues', {
      search: 'crash',
      state: 'closed',
      labels: ['bug'],
      author: 'mona',
      limit: 1,
    });
    const [search] = sent('GET', '/search/issues');
    expect(search?.query.q).toBe(
      'crash repo:octo-org/octo-repo is:issue state:closed label:"bug" author:mona',
    );
    expect(search?.query).toMatchObject({ sort: 'created', order: 'desc', per_page: '20', page: '1' });
    expect(result.structuredContent).toMatchObject({ page: { offset: 0, limit: 1, total: 57 } });
  });

  it('reads one issue by any key form, with its comments when asked', async () => {
    fake.route('GET', `${REPO}/issues/42`, {
      status: 200,
      body: gh.issue(42, { body: 'Steps…', comments: 2 }),
    });
    fake.route('GET', `${REPO}/issues/42/comments`, {
      status: 200,
      body: [gh.comment(1, { body: 'Seen it', issue: 42 }), gh.comment(2, { body: 'Fixed?', issue: 42 })],
    });
    const c = await serve();
    for (const key of ['#42', '42', 42, 'https://github.com/octo-org/octo-repo/issues/42']) {
      const { result } = await call(c, 'gh__get_issue', { key });
      expect(result.structuredContent).toMatchObject({ kind: 'issue', item: { key: '#42', body: 'Steps…' } });
    }
    expect(sent('GET', `${REPO}/issues/42/comments`)).toHaveLength(0);
    const { result, text } = await call(c, 'gh__get_issue', { key: '#42', include_comments: true });
    expect(result.structuredContent).toMatchObject({ comments: [{ id: '1', body: 'Seen it' }, { id: '2' }] });
    expect(text).toContain('### Comments (2)');
  });

  it('pages through comments by offset', async () => {
    const all = Array.from({ length: 45 }, (_, i) => gh.comment(i + 1, { body: `c${i + 1}`, issue: 7 }));
    fake.route('GET', `${REPO}/issues/7/comments`, (request) => {
      const perPage = Number(request.query.per_page);
      const page = Number(request.query.page);
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const more = page * perPage < all.length;
      return {
        status: 200,
        body: slice,
        ...(more
          ? {
              headers: {
                link: `<https://api.github.com${REPO}/issues/7/comments?per_page=${perPage}&page=${page + 1}>; rel="next"`,
              },
            }
          : {}),
      };
    });
    const c = await serve();
    const { result } = await call(c, 'gh__get_issue_comments', { key: '#7', offset: 25, limit: 10 });
    expect((result.structuredContent as { items: { body: string }[] }).items.map((i) => i.body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c${26 + i}`),
    );
    expect(sent('GET', `${REPO}/issues/7/comments`).map((r) => r.query)).toEqual([
      { per_page: '30', page: '1' },
      { per_page: '30', page: '2' },
    ]);
  });

  it('refuses a key that is not an issue key, before asking GitHub', async () => {
    const c = await serve();
    const { isError, text } = await call(c, 'gh__get_issue', { key: 'PROJ-7' });
    expect(isError).toBe(true);
    expect(text).toBe(
      'parameter "key" is "PROJ-7", which is not an issue key; use "#123", 123 or the issue\'s URL',
    );
    expect(fake.requests.filter((r) => r.path.includes('/issues/'))).toEqual([]);
  });
});

describe('github issue tools: writing', () => {
  it('creates an issue with labels, assignees and the milestone number for its title', async () => {
    fake.route('POST', `${REPO}/issues`, (request) => ({
      status: 201,
      body: gh.issue(101, { title: String((request.body as { title: string }).title), labels: ['bug'] }),
    }));
    const c = await serve();
    await toolsWithMetadata(c);
    const { text, result } = await call(c, 'gh__create_issue', {
      title: 'Save button does nothing',
      body: 'Click it.',
      labels: ['bug'],
      assignees: ['mona'],
      milestone: 'v2.0',
    });
    expect(sent('POST', `${REPO}/issues`)[0]?.body).toEqual({
      title: 'Save button does nothing',
      body: 'Click it.',
      labels: ['bug'],
      assignees: ['mona'],
      milestone: 4,
    });
    expect(text).toBe(
      'Created #101: Save button does nothing\nhttps://github.com/octo-org/octo-repo/issues/101',
    );
    expect(result.structuredContent).toMatchObject({ kind: 'issue', item: { key: '#101', labels: ['bug'] } });
  });

  it('refuses a label or milestone the repository does not have, naming what it has', async () => {
    const c = await serve();
    await toolsWithMetadata(c);
    const { text } = await call(c, 'gh__create_issue', { title: 'x', labels: ['feature'], milestone: 'v9' });
    expect(text).toContain('parameter "labels.0" is "feature"; allowed: "bug", "ui"');
    expect(text).toContain('parameter "milestone" is "v9"; allowed: "v1.0", "v2.0"');
    expect(sent('POST', `${REPO}/issues`)).toEqual([]);
  });

  it('updates only the fields given: closes an issue and clears its milestone', async () => {
    fake.route('PATCH', `${REPO}/issues/5`, { status: 200, body: gh.issue(5, { state: 'closed' }) });
    const c = await serve();
    await toolsWithMetadata(c);
    const { text } = await call(c, 'gh__update_issue', { key: '#5', state: 'closed', milestone: '' });
    expect(sent('PATCH', `${REPO}/issues/5`)[0]?.body).toEqual({ state: 'closed', milestone: null });
    expect(text).toMatch(/^Updated #5: Issue 5/);
  });

  it('comments on an issue', async () => {
    fake.route('POST', `${REPO}/issues/5/comments`, {
      status: 201,
      body: gh.comment(77, { body: 'On it', issue: 5 }),
    });
    const c = await serve();
    const { text } = await call(c, 'gh__add_issue_comment', { key: '5', body: 'On it' });
    expect(sent('POST', `${REPO}/issues/5/comments`)[0]?.body).toEqual({ body: 'On it' });
    expect(text).toBe('Commented on #5\nhttps://github.com/octo-org/octo-repo/issues/5#issuecomment-77');
  });
});

describe('github issue tools: errors', () => {
  const failing = async (reply: Parameters<FakeGitHub['route']>[2]) => {
    fake.route('GET', `${REPO}/issues/99`, reply);
    const c = await serve();
    return call(c, 'gh__get_issue', { key: '#99' });
  };

  it('404 names the issue and the repository', async () => {
    expect((await failing(gh.error(404, 'Not Found'))).text).toBe(
      'issue #99 of octo-org/octo-repo was not found on GitHub',
    );
  });

  it('401 says the token was refused, naming no token', async () => {
    const { text } = await failing(gh.error(401, 'Bad credentials'));
    expect(text).toBe(
      'GitHub refused the token for issue #99 of octo-org/octo-repo (401); check the token the config names: Bad credentials',
    );
  });

  it('422 gives GitHub its own words', async () => {
    fake.route(
      'POST',
      `${REPO}/issues`,
      gh.error(422, 'Validation Failed', [{ resource: 'Issue', field: 'title', code: 'missing_field' }]),
    );
    const c = await serve();
    const { text } = await call(c, 'gh__create_issue', { title: ' ' });
    expect(text).toBe(
      'GitHub rejected the request for a new issue of octo-org/octo-repo: Validation Failed; title missing_field',
    );
  });

  it('409 says GitHub reported a conflict, in its words', async () => {
    fake.route('PATCH', `${REPO}/issues/5`, gh.error(409, 'Issue is locked'));
    const c = await serve();
    const { text } = await call(c, 'gh__update_issue', { key: '#5', title: 'x' });
    expect(text).toBe('GitHub reported a conflict for issue #5 of octo-org/octo-repo: Issue is locked');
  });

  it('a GitHub that does not answer in time fails the call at its deadline, naming tool and limit', async () => {
    fake.route('GET', `${REPO}/issues/99`, () => new Promise<never>(() => {}));
    const records: Record<string, unknown>[] = [];
    connected = await connect({
      logger: createMemoryLogger(records),
      plugins: [
        {
          plugin: github,
          name: 'gh',
          deadlines: { callTool: 300 },
          options: {
            repo: 'octo-org/octo-repo',
            base_url: fake.url,
            token_env: 'GH_ISSUES_TOKEN',
            retries: 0,
            throttle: false,
          },
        },
      ],
    });
    const { isError, text } = await call(connected, 'gh__get_issue', { key: '#99' });
    expect(isError).toBe(true);
    expect(text).toContain('gh__get_issue');
    expect(text).toContain('300 ms');
    // The deadline aborted the request: the request log says so at debug, not as a failure of GitHub's.
    await vi.waitFor(() =>
      expect(records).toContainEqual(
        expect.objectContaining({
          level: 'debug',
          msg: 'GitHub request aborted',
          request: `GET ${REPO}/issues/99`,
        }),
      ),
    );
    expect(records.filter((r) => r.level === 'error')).toEqual([]);
  });

  it('a rate limit says when it resets', async () => {
    const reset = Math.floor(Date.UTC(2030, 0, 2, 3, 4, 5) / 1000);
    const { text } = await failing(gh.rateLimited(403, reset));
    expect(text).toBe(
      'GitHub rate limit reached for issue #99 of octo-org/octo-repo; it resets at 2030-01-02T03:04:05.000Z',
    );
  });

  it('a server that cannot be reached is named, not the token', async () => {
    const closedUrl = fake.url;
    await fake.close();
    fake = await startFakeGitHub();
    connected = await connect({
      plugins: [
        {
          plugin: github,
          name: 'gh',
          options: {
            repo: 'octo-org/octo-repo',
            base_url: closedUrl,
            token_env: 'GH_ISSUES_TOKEN',
            retries: 0,
            throttle: false,
          },
        },
      ],
    });
    const { isError, text } = await call(connected, 'gh__get_issue', { key: '#1' });
    expect(isError).toBe(true);
    expect(text).toBe('cannot reach GitHub (ECONNREFUSED) for issue #1 of octo-org/octo-repo');
  });

  it("cuts the token from GitHub's own words even without the config redacting it", async () => {
    fake.route('GET', `${REPO}/issues/1`, gh.error(401, `Bad credentials ${TOKEN}`));
    const c = await serve();
    const { text } = await call(c, 'gh__get_issue', { key: '#1' });
    expect(text).toBe(
      'GitHub refused the token for issue #1 of octo-org/octo-repo (401); check the token the config names: Bad credentials [redacted]',
    );
  });

  it('never shows the token in a result or an error, even when GitHub echoes it', async () => {
    fake.route('GET', `${REPO}/issues/1`, gh.error(401, `Bad credentials ${TOKEN}`));
    fake.route('GET', `${REPO}/issues/2`, { status: 200, body: gh.issue(2, { body: `leaked ${TOKEN}` }) });
    // Through the config, as users run it: the loader reads token_env and registers the value for redaction.
    const toml = [
      '[plugins.gh]',
      'use = "github"',
      'repo = "octo-org/octo-repo"',
      `base_url = "${fake.url}"`,
      'token_env = "GH_ISSUES_TOKEN"',
      'retries = 0',
      'throttle = false',
    ].join('\n');
    connected = await connect({ config: parseConfig(toml, '/proj/foresight.toml', '/proj', process.env) });
    const texts: string[] = [];
    for (const key of ['#1', '#2']) {
      for (const format of ['markdown', 'json']) {
        const { result, text } = await call(connected, 'gh__get_issue', { key, format });
        expect(JSON.stringify(result)).not.toContain(TOKEN);
        texts.push(text);
      }
    }
    expect(texts[0]).toContain('Bad credentials [redacted]');
    expect(texts[2]).toContain('leaked [redacted]');
  });
});

describe('github issue tools: the planner hooks', () => {
  it('gives value models under the instance prefix, with the API host', async () => {
    const c = await serve();
    const entry = c.host.plugins.publishedTools().find((e) => e.ref.published === 'gh__update_issue');
    const model = entry?.enrichers[0]?.valueModel?.(entry.ref);
    expect(model).toEqual({
      valueClass: 'critical',
      sideEffect: 'mutates_external',
      cost: { typicalKb: 1 },
      followUp: [],
      invalidates: ['gh__get_issue', 'gh__get_issues'],
      invalidateBy: ['key'],
      rateLimitHost: new URL(fake.url).host,
      sessionIndependent: true,
    });
    const list = c.host.plugins.publishedTools().find((e) => e.ref.published === 'gh__get_issues');
    expect(list?.enrichers[0]?.valueModel?.(list.ref)?.followUp).toEqual([
      { tool: 'gh__get_issue', probability: 0.4, projection: 'items[*].key', projectionArg: 'key' },
      { tool: 'gh__get_issue_comments', probability: 0.25, projection: 'items[*].key', projectionArg: 'key' },
    ]);
  });
});
