// The github plugin against recorded GitHub traffic (@octokit/fixtures) where a recording covers what it sends.
import { afterEach, describe, expect, it, vi } from 'vitest';
import github from '../src/plugins/github/index.js';
import { createGitHubClient } from '../src/plugins/github/client.js';
import { createMetadataStore } from '../src/plugins/github/metadata.js';
import { GitHubOptionsSchema, githubSettings } from '../src/plugins/github/options.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';
import { type FakeGitHub, gh, startFakeGitHub } from './support/fake-github.js';

// The token the fixtures were recorded with.
const RECORDED_TOKEN = '0000000000000000000000000000000000000001';
/** The commit create-status recorded its statuses on. */
const RECORDED_SHA = '0000000000000000000000000000000000000001';
let fake: FakeGitHub | undefined;
let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  await fake?.close();
  connected = undefined;
  delete process.env.GH_REPLAY_TOKEN;
});

/** The fake, expecting the recorded token. */
async function startReplay(): Promise<FakeGitHub> {
  fake = await startFakeGitHub();
  fake.expectToken(`token ${RECORDED_TOKEN}`);
  process.env.GH_REPLAY_TOKEN = RECORDED_TOKEN;
  return fake;
}

const options = (repo: string, url: string) => ({
  repo,
  base_url: url,
  token_env: 'GH_REPLAY_TOKEN',
  retries: 0,
  throttle: false,
});

/** A host with the github plugin as `gh` on one recorded repository; its log records land in `records`. */
async function serve(repo: string, records: Record<string, unknown>[] = []): Promise<Connected> {
  // The plugin's health probe at start reads the repository, which no recording holds.
  fake?.route('GET', `/repos/${repo}`, { status: 200, body: gh.repository(repo) });
  connected = await connect({
    logger: createMemoryLogger(records),
    planner: { enabled: false },
    plugins: [{ plugin: github, name: 'gh', options: options(repo, fake?.url ?? '') }],
  });
  return connected;
}

describe('github plugin on recorded GitHub responses', () => {
  it('creates an issue exactly as recorded in add-labels-to-issue, and maps the recorded answer', async () => {
    const fake = await startReplay();
    fake.replay('add-labels-to-issue');
    const connected = await serve('octokit-fixture-org/add-labels-to-issue');
    const result = await connected.client.callTool({
      name: 'gh__create_issue',
      arguments: { title: 'Issue without a label' },
    });
    expect(textOf(result)).toBe(
      'Created #1: Issue without a label\nhttps://github.com/octokit-fixture-org/add-labels-to-issue/issues/1',
    );
    expect(result.structuredContent).toMatchObject({
      kind: 'issue',
      item: { key: '#1', title: 'Issue without a label', state: 'open', author: 'octokit-fixture-user-a' },
    });
    const create = fake.requests.find((r) => r.method === 'POST');
    expect(create?.body).toEqual({ title: 'Issue without a label' });
    // The recording answered it: nothing the plugin sent for the issue went unanswered.
    expect(fake.unmatched.filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe('labels and milestones load apart (the labels recording, which has no milestones)', () => {
  const REPO = 'octokit-fixture-org/labels';
  const RECORDED_LABELS = [
    'bug',
    'documentation',
    'duplicate',
    'enhancement',
    'good first issue',
    'help wanted',
    'invalid',
    'question',
    'wontfix',
  ];

  it('serves the recorded labels as the enum while milestones fail, and warns about milestones only', async () => {
    const fake = await startReplay();
    // The recording listed the labels at GitHub's default page size; they all fit on one page at any size.
    fake.replay('labels', { ignore: ['per_page'] });
    const records: Record<string, unknown>[] = [];
    const connected = await serve(REPO, records);

    const createSchema = async () =>
      (await connected.client.listTools()).tools.find((t) => t.name === 'gh__create_issue')?.inputSchema;
    // The load runs in the background; a busy machine may take a while before the first one lands.
    await vi.waitFor(
      async () =>
        expect((await createSchema())?.properties?.labels).toMatchObject({
          items: { enum: RECORDED_LABELS },
        }),
      { timeout: 20_000, interval: 50 },
    );
    // Nothing recorded the milestones: GitHub's 404 for them leaves that parameter free.
    expect(fake.unmatched.map((r) => r.path)).toEqual([`/repos/${REPO}/milestones`]);
    expect((await createSchema())?.properties?.milestone).toEqual({
      type: 'string',
      description: 'milestone title',
    });
    const warnings = records.filter((r) => r.level === 'warn');
    expect(warnings.map((r) => r.msg)).toEqual([
      `cannot load the milestones of ${REPO}; the schemas take any until the next try`,
    ]);
    expect(warnings[0]?.err).toBe(`the open milestones of ${REPO} was not found on GitHub`);
    // The failure is reported once, by the metadata store: the request log keeps the expected 404 at debug.
    expect(records.filter((r) => r.level === 'error')).toEqual([]);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        request: `GET /repos/${REPO}/milestones?state=open&per_page=100`,
      }),
    );

    // A label outside the recorded ones is refused from the enum; one of them goes through to GitHub.
    const refused = await connected.client.callTool({
      name: 'gh__create_issue',
      arguments: { title: 'x', labels: ['no-such-label'] },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('no-such-label');
  });

  it('names the part that failed for a health check, and keeps the labels', async () => {
    const fake = await startReplay();
    fake.replay('labels', { ignore: ['per_page'] });
    const logger = createMemoryLogger();
    const settings = githubSettings(GitHubOptionsSchema.parse(options(REPO, fake.url)), process.env);
    const store = createMetadataStore(createGitHubClient(settings, logger), settings, logger);
    expect(store.partialFailure()).toBeUndefined();
    await store.refresh();
    expect(store.current()?.labels).toEqual(RECORDED_LABELS);
    expect(store.current()?.milestones).toBeUndefined();
    expect(store.partialFailure()).toBe(
      `milestones could not be loaded (the open milestones of ${REPO} was not found on GitHub); their schemas take any value until the next load`,
    );
    // The next load fails the same way: the warning is not repeated at every reload.
    await store.refresh();
    expect(store.current()?.labels).toEqual(RECORDED_LABELS);
    expect(logger.records.filter((r) => r.level === 'warn')).toHaveLength(1);
    await store.stop();
  });

  it('reports the plugin degraded, naming the part, when one part fails (foresight tools and check show it)', async () => {
    const fake = await startReplay();
    fake.replay('labels', { ignore: ['per_page'] });
    const connected = await serve(REPO);
    const health = () => connected.host.plugins.mountedPlugins()[0]?.health;
    await vi.waitFor(() => expect(health()?.state).toBe('degraded'), { timeout: 10_000, interval: 20 });
    expect(health()?.detail).toBe(
      `GitHub repository ${REPO}: milestones could not be loaded (the open milestones of ${REPO} was not found on GitHub); their schemas take any value until the next load`,
    );
  });

  it('fails the load only when both fail, keeping the schemas generic', async () => {
    const fake = await startReplay();
    fake.replay('labels', { ignore: ['per_page'] });
    fake.route('GET', `/repos/${REPO}/labels`, gh.error(500, 'Server Error'));
    const logger = createMemoryLogger();
    const settings = githubSettings(GitHubOptionsSchema.parse(options(REPO, fake.url)), process.env);
    const store = createMetadataStore(createGitHubClient(settings, logger), settings, logger);
    await store.refresh();
    expect(store.current()).toBeUndefined();
    expect(store.failure()).toBeDefined();
    expect(store.partialFailure()).toBeUndefined();
    await store.stop();
  });
});

describe('CI status from the commit statuses API (create-status: a repository with statuses only)', () => {
  const REPO = 'octokit-fixture-org/create-status';

  it('lists the recorded statuses as jobs, failed first, and projects no log reads for them', async () => {
    const fake = await startReplay();
    // The recording read the combined status at GitHub's default page size; both statuses fit on one page.
    fake.replay('create-status', { ignore: ['per_page'] });
    // What the recording did not read, in GitHub's shapes: the branch, and no check runs or workflow runs,
    // as in a repository whose CI reports only through statuses.
    fake.route('GET', `/repos/${REPO}/branches/main`, {
      status: 200,
      body: gh.branch('main', RECORDED_SHA, REPO),
    });
    fake.route('GET', `/repos/${REPO}/commits/:ref/check-runs`, { status: 200, body: gh.checkRunList([]) });
    fake.route('GET', `/repos/${REPO}/actions/runs`, { status: 200, body: gh.workflowRunList([]) });
    fake.route('GET', `/repos/${REPO}/labels`, { status: 200, body: [] });
    fake.route('GET', `/repos/${REPO}/milestones`, { status: 200, body: [] });
    const connected = await serve(REPO);

    const result = await connected.client.callTool({
      name: 'gh__get_pipeline',
      arguments: { branch: 'main', format: 'json' },
    });
    expect(result.isError).toBeFalsy();
    expect(fake.unmatched).toEqual([]);
    expect(fake.requests.map((r) => r.path)).toContain(`/repos/${REPO}/commits/${RECORDED_SHA}/status`);
    expect(result.structuredContent).toEqual({
      kind: 'pipeline',
      item: {
        id: RECORDED_SHA,
        status: 'failed',
        ref: 'main',
        sha: RECORDED_SHA,
        createdAt: '2017-10-10T16:00:00Z',
        jobs: [
          {
            id: 'status-1000',
            name: 'example/1',
            status: 'failed',
            stage: 'commit status',
            url: 'https://example.com',
          },
          {
            id: 'status-1001',
            name: 'example/2',
            status: 'success',
            stage: 'commit status',
            url: 'https://example.com',
          },
        ],
      },
    });

    // A failed status has no log here: the planner is given no get_job_logs call for it.
    const entry = connected.host.plugins.publishedTools().find((e) => e.ref.published === 'gh__get_pipeline');
    const link = { tool: 'gh__get_job_logs', probability: 0.5 };
    const sets = entry?.enrichers
      .map((enricher) => enricher.projectArgs?.(entry.ref, result, link))
      .find(Boolean);
    expect(sets).toEqual([]);
  });

  it('keeps the check run when a service reports the same name both ways', async () => {
    const fake = await startReplay();
    fake.replay('create-status', { ignore: ['per_page'] });
    fake.route('GET', `/repos/${REPO}/branches/main`, {
      status: 200,
      body: gh.branch('main', RECORDED_SHA, REPO),
    });
    fake.route('GET', `/repos/${REPO}/commits/:ref/check-runs`, {
      status: 200,
      body: gh.checkRunList([
        gh.checkRun(77, { name: 'example/1', conclusion: 'failure', head_sha: RECORDED_SHA }, REPO),
      ]),
    });
    fake.route('GET', `/repos/${REPO}/actions/runs`, { status: 200, body: gh.workflowRunList([]) });
    const connected = await serve(REPO);
    const result = await connected.client.callTool({
      name: 'gh__get_pipeline',
      arguments: { branch: 'main' },
    });
    const jobs = (result.structuredContent as { item: { jobs: { id: string; name: string }[] } }).item.jobs;
    expect(jobs.map((job) => [job.id, job.name])).toEqual([
      ['77', 'example/1'],
      ['status-1001', 'example/2'],
    ]);
  });
});

describe('pagination follows the Link URL (paginate-issues)', () => {
  const REPO = 'octokit-fixture-org/paginate-issues';

  it('reads every recorded page at the address its Link named, not one rebuilt from a page number', async () => {
    const fake = await startReplay();
    // The first request carries what the plugin always sends, GitHub's defaults; the recording paged by 3.
    fake.replay('paginate-issues', {
      ignore: ['per_page'],
      defaults: { state: 'open', sort: 'created', direction: 'desc', page: '1' },
    });
    fake.route('GET', `/repos/${REPO}/labels`, { status: 200, body: [] });
    fake.route('GET', `/repos/${REPO}/milestones`, { status: 200, body: [] });
    const connected = await serve(REPO);

    const result = await connected.client.callTool({ name: 'gh__get_issues', arguments: { format: 'json' } });
    expect(result.isError).toBeFalsy();
    const listed = fake.requests.filter((r) => r.path.endsWith('/issues'));
    // GitHub moved the list to /repositories/1000/issues after the first page: only its Link said so.
    expect(listed.map((r) => `${r.path}?${new URLSearchParams(r.query).toString()}`)).toEqual([
      `/repos/${REPO}/issues?state=open&sort=created&direction=desc&per_page=100&page=1`,
      '/repositories/1000/issues?per_page=3&page=2',
      '/repositories/1000/issues?per_page=3&page=3',
      '/repositories/1000/issues?per_page=3&page=4',
      '/repositories/1000/issues?per_page=3&page=5',
    ]);
    expect(fake.unmatched).toEqual([]);
    const data = result.structuredContent as { items: { key: string }[]; page: unknown };
    expect(data.items.map((item) => item.key)).toEqual(Array.from({ length: 13 }, (_, i) => `#${13 - i}`));
    expect(data.page).toEqual({ offset: 0, limit: 20, total: 13 });
  });

  it('does not follow a Link to another host: the token stays with the API', async () => {
    const fake = await startReplay();
    fake.route('GET', `/repos/${REPO}/labels`, { status: 200, body: [] });
    fake.route('GET', `/repos/${REPO}/milestones`, { status: 200, body: [] });
    fake.route('GET', `/repos/${REPO}/issues`, {
      status: 200,
      body: [gh.issue(2)],
      headers: { link: '<https://elsewhere.example/repositories/1000/issues?page=2>; rel="next"' },
    });
    const connected = await serve(REPO);
    const result = await connected.client.callTool({ name: 'gh__get_issues', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `GitHub named the next page of issues of ${REPO} on https://elsewhere.example, not on ${fake.url}; ` +
        'it is not read, so that the token does not go there',
    );
  });
});
