// `foresight check` and `foresight tools` as a user meets them, against loopback servers in each provider's REST
// shapes: a server that refuses connections, one that rejects the token, one that answers; a Jira whose metadata
// fails (degraded, with why); and the progress lines printed while a plugin waits to retry.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, makeWorkspace, removeWorkspaces, runCli } from './support/cli.js';
import { LIST_ID, MEMBERS, teams } from './support/fake-clickup-bodies.js';
import {
  API_PREFIX as CLICKUP_API,
  routeMetadata as routeClickUpLists,
  startFakeClickUp,
} from './support/fake-clickup.js';
import { gh, startFakeGitHub } from './support/fake-github.js';
import { startFakeGitLab } from './support/fake-gitlab.js';
import { jira, startFakeJira } from './support/fake-jira.js';
import { PROJ, routeMetadata as routeJiraMetadata } from './support/fake-jira-metadata.js';

const TOKEN = 'tok_Sup3rSecret_health_0123456789';
const TOKEN_ENV = 'FORESIGHT_TEST_HEALTH_TOKEN';
const REPO = 'octo-org/octo-repo';
/** How long one check may take on a busy box: the probe answers at once, the retries below wait 1.25 s. */
const RUN_MS = 20_000;

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback port nothing listens on: bound, then closed, so a connection to it is refused. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function check(toml: string, command: 'check' | 'tools' = 'check') {
  const cwd = await makeWorkspace({});
  const config = path.join(cwd, 'foresight.toml');
  await writeFile(config, toml);
  return runCli([command, '--config', config], { cwd, env: { [TOKEN_ENV]: TOKEN }, timeoutMs: RUN_MS });
}

const githubTable = (baseUrl: string) =>
  [
    '[plugins.gh]',
    'use = "github"',
    `repo = "${REPO}"`,
    `base_url = "${baseUrl}"`,
    `token_env = "${TOKEN_ENV}"`,
    'throttle = false',
  ].join('\n');

async function fakeGitHub() {
  const fake = await startFakeGitHub();
  closers.push(() => fake.close());
  return fake;
}

describe('foresight check against GitHub', () => {
  it('says down and exits 1 when the base URL refuses connections, naming the URL and the network error', async () => {
    const port = await refusingPort();
    const run = await check(githubTable(`http://127.0.0.1:${port}`));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^fail\\s+gh \\(github\\), prefix "gh", \\d+ tools \\(GET http://127\\.0\\.0\\.1:${port}/repos/${REPO}: cannot connect \\(ECONNREFUSED\\): check base_url and that the server is up\\)$`,
        'm',
      ),
    );
    expect(run.stdout).not.toMatch(/config is valid/);
    expect(run.stderr).toMatch(/^foresight: 1 plugin not available$/m);
  });

  it('says down and exits 1 when the server answers 401, naming the variable and never the token', async () => {
    const fake = await fakeGitHub();
    fake.expectToken('token some-other-token');
    const run = await check(githubTable(fake.url));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^fail\\s+gh \\(github\\), .*\\(GET ${fake.url}/repos/${REPO}: token rejected \\(HTTP 401\\): check ${TOKEN_ENV}\\)$`,
        'm',
      ),
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
    // The probe is one request, made once: a rejected token is not asked again.
    expect(fake.requests.filter((r) => r.path === `/repos/${REPO}`)).toHaveLength(1);
  });

  it('says ok and exits 0 when the server answers 200 with the token', async () => {
    const fake = await fakeGitHub();
    fake.expectToken(`token ${TOKEN}`);
    fake.route('GET', `/repos/${REPO}`, { status: 200, body: gh.repository(REPO) });
    fake.route('GET', `/repos/${REPO}/labels`, { status: 200, body: [gh.label('bug')] });
    fake.route('GET', `/repos/${REPO}/milestones`, { status: 200, body: [] });
    const run = await check(githubTable(fake.url));
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(
      /^ok\s+gh \(github\), prefix "gh", \d+ tools \(GitHub repository octo-org\/octo-repo.*\)$/m,
    );
    expect(run.stdout).toMatch(/^config is valid: 1 plugin, \d+ tools$/m);
    const probe = fake.requests.find((r) => r.path === `/repos/${REPO}`);
    expect(probe?.headers.authorization).toBe(`token ${TOKEN}`);
  });
});

describe('foresight check against GitLab, Jira and ClickUp', () => {
  it('GitLab: a rejected token is down, naming GET /user and the variable', async () => {
    const fake = await startFakeGitLab();
    closers.push(() => fake.close());
    fake.expectAuth('private-token', 'another-token');
    const run = await check(
      [
        '[plugins.lab]',
        'use = "gitlab"',
        'project = "group/project"',
        `base_url = "${fake.url}"`,
        `token_env = "${TOKEN_ENV}"`,
      ].join('\n'),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^fail\\s+lab \\(gitlab\\), .*\\(GET ${fake.url}/api/v4/user: token rejected \\(HTTP 401\\): check ${TOKEN_ENV}\\)$`,
        'm',
      ),
    );
    expect(fake.sent('GET', '/user')[0]?.headers['private-token']).toBe(TOKEN);
    expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
  });

  it('Jira: metadata that fails after retries is degraded, says why, and check passes; retries print progress', async () => {
    const fake = await startFakeJira();
    closers.push(() => fake.close());
    fake.expectAuth('authorization', `Bearer ${TOKEN}`);
    fake.route('GET', '/rest/api/2/myself', { status: 200, body: jira.user('server', 'mia', 'Mia Krystof') });
    routeJiraMetadata(fake, 'server', [PROJ]);
    // Later routes win: the priority list fails every time, so the load fails once its two retries are spent.
    fake.route('GET', '/rest/api/2/priority', { status: 502, body: 'Bad Gateway' });
    const toml = [
      '[plugins.jr]',
      'use = "jira"',
      'flavor = "server"',
      `base_url = "${fake.url}"`,
      `token_env = "${TOKEN_ENV}"`,
      `projects = ["${PROJ.key}"]`,
    ].join('\n');
    const run = await check(toml);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(
      /^warn\s+jr \(jira\), prefix "jr", \d+ tools \(degraded: Jira \(127\.0\.0\.1:\d+\): PROJ: project metadata could not be loaded \(.*502.*priority list.*\); tools serve with generic schemas\)$/m,
    );
    expect(run.stdout).toMatch(/^config is valid: 1 plugin \(1 degraded\), \d+ tools$/m);
    expect(run.stderr).toMatch(/^foresight: waiting for jr \(jira\): retry 1 in 250 ms after HTTP 502…$/m);
    expect(run.stderr).toMatch(/^foresight: waiting for jr \(jira\): retry 2 in 1 s after HTTP 502…$/m);
    expect(fake.sent('GET', '/rest/api/2/priority')).toHaveLength(3);

    // `tools` waits the same way, says so, and reports the plugin degraded on stderr.
    const tools = await check(toml, 'tools');
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stderr).toMatch(/^foresight: waiting for jr \(jira\): retry 1 in 250 ms after HTTP 502…$/m);
    expect(tools.stderr).toMatch(/^foresight: jr \(jira\) degraded: .*could not be loaded/m);
    expect(tools.stdout).toMatch(/^jr__get_issues\s/m);
  });

  it('--log-level warn leaves the progress lines out', async () => {
    const fake = await startFakeJira();
    closers.push(() => fake.close());
    fake.route('GET', '/rest/api/2/myself', { status: 200, body: jira.user('server', 'mia', 'Mia Krystof') });
    routeJiraMetadata(fake, 'server', [PROJ]);
    fake.route('GET', '/rest/api/2/priority', { status: 502, body: 'Bad Gateway' });
    const cwd = await makeWorkspace({});
    const config = path.join(cwd, 'foresight.toml');
    await writeFile(
      config,
      `[plugins.jr]\nuse = "jira"\nflavor = "server"\nbase_url = "${fake.url}"\ntoken_env = "${TOKEN_ENV}"\nprojects = ["PROJ"]\n`,
    );
    const run = await runCli(['check', '--config', config, '--log-level', 'warn'], {
      cwd,
      env: { [TOKEN_ENV]: TOKEN },
      timeoutMs: RUN_MS,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^warn\s+jr \(jira\)/m);
    expect(run.stderr).not.toMatch(/waiting for/);
  });

  it('Jira: a site that refuses connections is down', async () => {
    const port = await refusingPort();
    const run = await check(
      `[plugins.jr]\nuse = "jira"\nflavor = "server"\nbase_url = "http://127.0.0.1:${port}"\ntoken_env = "${TOKEN_ENV}"\nprojects = ["PROJ"]\n`,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^fail\\s+jr \\(jira\\), .*\\(GET http://127\\.0\\.0\\.1:${port}/rest/api/2/myself: cannot connect \\(ECONNREFUSED\\): check base_url and that the server is up\\)$`,
        'm',
      ),
    );
  });

  it('ClickUp: a token that works and lists that load are ok', async () => {
    const fake = await startFakeClickUp();
    closers.push(() => fake.close());
    fake.expectAuth('authorization', TOKEN);
    fake.route('GET', '/user', { status: 200, body: { user: MEMBERS[0] } });
    fake.route('GET', '/team', { status: 200, body: teams() });
    routeClickUpLists(fake, [{ id: LIST_ID, name: 'Backlog' }]);
    const run = await check(
      [
        '[plugins.cu]',
        'use = "clickup"',
        `lists = ["${LIST_ID}"]`,
        `base_url = "${fake.url}${CLICKUP_API}"`,
        `token_env = "${TOKEN_ENV}"`,
      ].join('\n'),
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^ok\\s+cu \\(clickup\\), prefix "cu", \\d+ tools \\(ClickUp lists ${LIST_ID}: Backlog\\)$`,
        'm',
      ),
    );
    expect(fake.sent('GET', '/user')).toHaveLength(1);
  });

  it('ClickUp: a rejected token is down, naming the variable', async () => {
    const fake = await startFakeClickUp();
    closers.push(() => fake.close());
    fake.expectAuth('authorization', 'pk_other');
    const run = await check(
      [
        '[plugins.cu]',
        'use = "clickup"',
        `lists = ["${LIST_ID}"]`,
        `base_url = "${fake.url}${CLICKUP_API}"`,
        `token_env = "${TOKEN_ENV}"`,
      ].join('\n'),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^fail\\s+cu \\(clickup\\), .*\\(GET ${fake.url}${CLICKUP_API}/user: token rejected \\(HTTP 401\\): check ${TOKEN_ENV}\\)$`,
        'm',
      ),
    );
  });
});
