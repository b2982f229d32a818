// End to end as a user runs it: the built CLI over stdio with a foresight.toml that mounts the github plugin
// against a loopback GitHub, the token from the environment; list, read in each format, write, comment on a line.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ObservedStdioClientTransport,
  START_TIMEOUT_MS,
  newClient,
  textOf,
  withTimeout,
} from './support/cli.js';
import { type FakeGitHub, gh, startFakeGitHub } from './support/fake-github.js';
import { HEAD_SHA, routeCodeReview } from './support/github-review-fixture.js';

const TOKEN = 'ghp_e2e_stdio_0123456789abcdef';
const REPO = '/repos/octo-org/octo-repo';
let fake: FakeGitHub;
let dir: string;
let client: Client;
let transport: ObservedStdioClientTransport;

beforeAll(async () => {
  fake = await startFakeGitHub();
  fake.expectToken(`token ${TOKEN}`);
  fake.route('GET', `${REPO}/labels`, { status: 200, body: [gh.label('bug'), gh.label('ui')] });
  fake.route('GET', `${REPO}/milestones`, { status: 200, body: [] });
  fake.route('GET', `${REPO}/issues`, {
    status: 200,
    body: [
      gh.issue(3, { title: 'Кнопка не работает', labels: ['bug'], assignees: ['mona'], comments: 2 }),
      gh.issue(2, { title: 'Dark mode', labels: ['ui'] }),
    ],
  });
  fake.route('POST', `${REPO}/issues`, { status: 201, body: gh.issue(4, { title: 'Crash on save' }) });
  fake.route('PATCH', `${REPO}/issues/:n`, (_r, params) => ({
    status: 200,
    body: gh.issue(Number(params.n), { state: 'closed' }),
  }));
  routeCodeReview(fake);
  dir = await mkdtemp(join(tmpdir(), 'foresight-e2e-github-'));
  await writeFile(
    join(dir, 'foresight.toml'),
    [
      '[plugins.gh]',
      'use = "github"',
      'repo = "octo-org/octo-repo"',
      `base_url = "${fake.url}"`,
      'token_env = "E2E_GITHUB_TOKEN"',
      'retries = 0',
      'throttle = false',
    ].join('\n'),
  );
  transport = new ObservedStdioClientTransport({
    cwd: dir,
    args: ['serve'],
    env: { E2E_GITHUB_TOKEN: TOKEN },
  });
  client = newClient();
  await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
});

afterAll(async () => {
  await client?.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('foresight serve with the github plugin, over stdio', () => {
  it('lists the issue and code-review tools under the instance prefix', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('gh__get_issues');
    expect(names).toContain('gh__create_merge_request_comment');
    expect(names.every((name) => name.startsWith('gh__'))).toBe(true);
  });

  it('reads issues in each of the four formats', async () => {
    const read = async (format: string) =>
      textOf(await client.callTool({ name: 'gh__get_issues', arguments: { format } }));
    expect(await read('markdown')).toMatch(/^## Issues \(2\)\n\n\| Key \| Title \|/);
    expect((await read('markdown')).split('\n').find((l) => l.includes('Кнопка'))).toContain('| bug |');
    const compact = (await read('compact')).split('\n');
    expect(compact[1]).toMatch(/^key\ttitle\tstate\tauthor\tassignees\tlabels\t/);
    expect(compact[2]).toMatch(/^#3\tКнопка не работает\topen\t.+\tmona\tbug\t/);
    const json = JSON.parse(await read('json')) as { items: { key: string }[] };
    expect(json.items.map((i) => i.key)).toEqual(['#3', '#2']);
    expect(await read('toon')).toMatch(/^kind: issue_list\nitems\[2\]/);
  });

  it('creates and updates an issue', async () => {
    const created = textOf(
      await client.callTool({ name: 'gh__create_issue', arguments: { title: 'Crash on save' } }),
    );
    expect(created).toBe('Created #4: Crash on save\nhttps://github.com/octo-org/octo-repo/issues/4');
    const updated = await client.callTool({
      name: 'gh__update_issue',
      arguments: { key: '#4', state: 'closed' },
    });
    expect(textOf(updated)).toMatch(/^Updated #4:/);
    expect(fake.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
      { state: 'closed' },
    ]);
  });

  it('comments on a removed line of a pull request: line_type "old" reaches GitHub as side LEFT', async () => {
    const result = await client.callTool({
      name: 'gh__create_merge_request_comment',
      arguments: { key: '#12', body: 'Why this?', file_path: 'src/sides.ts', line: 1, line_type: 'old' },
    });
    expect(result.isError).toBeFalsy();
    const [sent] = fake.requests.filter((r) => r.method === 'POST' && r.path === `${REPO}/pulls/12/comments`);
    expect(sent?.body).toEqual({
      body: 'Why this?',
      commit_id: HEAD_SHA,
      path: 'src/sides.ts',
      line: 1,
      side: 'LEFT',
    });
  });

  it('sent the token only as the authorization header, and never shows it', async () => {
    expect(fake.requests.every((r) => r.headers.authorization === `token ${TOKEN}`)).toBe(true);
    expect(transport.stderrSoFar()).not.toContain(TOKEN);
    expect(transport.stderrSoFar()).toMatch(/"msg":"1 plugin mounted \(gh\)/);
  });
});
