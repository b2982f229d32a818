// GitHub sub-issues: link_issues and get_issue's relations, through the host and a real client, on the fake GitHub.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import github from '../src/plugins/github/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';
import { type FakeGitHub, gh, startFakeGitHub } from './support/fake-github.js';

const TOKEN = 'ghp_sub_issues_0123456789';
const REPO = '/repos/octo-org/octo-repo';
let fake: FakeGitHub;
let connected: Connected | undefined;
/** What the host logged in the current test. */
let records: Record<string, unknown>[] = [];

beforeEach(async () => {
  process.env.GH_SUB_TOKEN = TOKEN;
  fake = await startFakeGitHub();
  fake.expectToken(`token ${TOKEN}`);
  fake.route('GET', `${REPO}/labels`, { status: 200, body: [] });
  fake.route('GET', `${REPO}/milestones`, { status: 200, body: [] });
  fake.route('GET', `${REPO}/issues/:n`, (_r, params) => ({ status: 200, body: gh.issue(Number(params.n)) }));
});

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  await fake.close();
});

async function serve(subIssues: boolean | undefined): Promise<Connected> {
  records = [];
  connected = await connect({
    logger: createMemoryLogger(records),
    plugins: [
      {
        plugin: github,
        name: 'gh',
        options: {
          repo: 'octo-org/octo-repo',
          base_url: fake.url,
          token_env: 'GH_SUB_TOKEN',
          retries: 0,
          throttle: false,
          ...(subIssues === undefined ? {} : { sub_issues: subIssues }),
        },
      },
    ],
  });
  return connected;
}

const idOf = (n: number) => (gh.issue(n) as { id: number }).id;

describe('github sub-issues', () => {
  it('offers link_issues with GitHub link types, and relations on get_issue', async () => {
    const c = await serve(true);
    const { tools } = await c.client.listTools();
    const linkTool = tools.find((t) => t.name === 'gh__link_issues');
    expect(linkTool?.inputSchema.properties?.link_type).toMatchObject({
      enum: ['parent_of', 'child_of'],
      default: 'parent_of',
    });
    expect(tools.find((t) => t.name === 'gh__get_issue')?.inputSchema.properties).toHaveProperty(
      'include_relations',
    );
  });

  it('is off by default away from api.github.com: no link_issues, no include_relations', async () => {
    const c = await serve(undefined);
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('gh__link_issues');
    expect(tools.find((t) => t.name === 'gh__get_issue')?.inputSchema.properties).not.toHaveProperty(
      'include_relations',
    );
  });

  it('makes target_key a sub-issue of key, sending the child issue id', async () => {
    fake.route('POST', `${REPO}/issues/:n/sub_issues`, (_r, params) => ({
      status: 201,
      body: gh.issue(Number(params.n)),
    }));
    const c = await serve(true);
    const parentOf = await c.client.callTool({
      name: 'gh__link_issues',
      arguments: { key: '#5', target_key: 7 },
    });
    expect(textOf(parentOf)).toBe('Linked #7 as a sub-issue of #5');
    expect(parentOf.structuredContent).toMatchObject({
      kind: 'issue',
      item: { key: '#5', links: [{ key: '#7', relation: 'sub-issue', title: 'Issue 7' }] },
    });
    const childOf = await c.client.callTool({
      name: 'gh__link_issues',
      arguments: { key: '#5', target_key: '#9', link_type: 'child_of' },
    });
    expect(textOf(childOf)).toBe('Linked #5 as a sub-issue of #9');
    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.path, r.body])).toEqual([
      [`${REPO}/issues/5/sub_issues`, { sub_issue_id: idOf(7) }],
      [`${REPO}/issues/9/sub_issues`, { sub_issue_id: idOf(5) }],
    ]);
  });

  it('passes GitHub refusing a link on in its own words', async () => {
    fake.route(
      'POST',
      `${REPO}/issues/:n/sub_issues`,
      gh.error(422, 'Validation Failed', [{ message: 'Sub issue may only have one parent' }]),
    );
    const c = await serve(true);
    const result = await c.client.callTool({
      name: 'gh__link_issues',
      arguments: { key: '#5', target_key: '#7' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'GitHub rejected the request for sub-issues of issue #5 of octo-org/octo-repo: Validation Failed; Sub issue may only have one parent',
    );
  });

  it('shows the parent and the sub-issues of an issue when asked', async () => {
    fake.route('GET', `${REPO}/issues/5/parent`, { status: 200, body: gh.issue(1, { title: 'Epic' }) });
    fake.route('GET', `${REPO}/issues/5/sub_issues`, {
      status: 200,
      body: [gh.issue(6, { title: 'Part one', state: 'closed' }), gh.issue(7, { title: 'Part two' })],
    });
    fake.route('GET', `${REPO}/issues/6/parent`, gh.error(404, 'Not Found'));
    fake.route('GET', `${REPO}/issues/6/sub_issues`, { status: 200, body: [] });
    const c = await serve(true);
    const result = await c.client.callTool({
      name: 'gh__get_issue',
      arguments: { key: '#5', include_relations: true, format: 'compact' },
    });
    expect((result.structuredContent as { item: { links: unknown[] } }).item.links).toEqual([
      {
        key: '#1',
        relation: 'parent',
        title: 'Epic',
        state: 'open',
        url: 'https://github.com/octo-org/octo-repo/issues/1',
      },
      {
        key: '#6',
        relation: 'sub-issue',
        title: 'Part one',
        state: 'closed',
        url: 'https://github.com/octo-org/octo-repo/issues/6',
      },
      {
        key: '#7',
        relation: 'sub-issue',
        title: 'Part two',
        state: 'open',
        url: 'https://github.com/octo-org/octo-repo/issues/7',
      },
    ]);
    expect(textOf(result)).toContain(
      'links: parent #1 Epic (open); sub-issue #6 Part one (closed); sub-issue #7 Part two (open)',
    );
    // No parent is GitHub's 404, which means none rather than an error.
    const alone = await c.client.callTool({
      name: 'gh__get_issue',
      arguments: { key: '#6', include_relations: true },
    });
    expect(alone.isError).toBeFalsy();
    expect((alone.structuredContent as { item: { links: unknown[] } }).item.links).toEqual([]);
    expect(
      fake.requests.filter((r) => r.path.endsWith('/parent') || r.path.endsWith('/sub_issues')),
    ).toHaveLength(4);
    // That 404 is expected: logged at debug, not as a failed request.
    // (The planner's speculative reads are not routed here: their 404s are nobody's expectation.)
    const parentLines = records.filter((r) => String(r.request).endsWith('/parent'));
    expect(parentLines.map((r) => [r.request, r.level, r.status])).toEqual([
      [`GET ${REPO}/issues/6/parent`, 'debug', 404],
    ]);
  });

  it('still logs a 404 nobody expected at error, once', async () => {
    fake.route('GET', `${REPO}/issues/5/parent`, { status: 200, body: gh.issue(1) });
    fake.route('GET', `${REPO}/issues/5/sub_issues`, gh.error(404, 'Not Found'));
    const c = await serve(true);
    const result = await c.client.callTool({
      name: 'gh__get_issue',
      arguments: { key: '#5', include_relations: true },
    });
    expect(result.isError).toBe(true);
    expect(records.filter((r) => r.level === 'error').map((r) => [r.request, r.status])).toEqual([
      [`GET ${REPO}/issues/5/sub_issues?per_page=50`, 404],
    ]);
  });
});
