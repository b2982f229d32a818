// Each provider client says, before it waits to make a request again, which retry it is, how long it waits and
// why, in the one shape `foresight check` and `foresight tools` print as progress (host/logger.ts logRetry).
import { afterEach, describe, expect, it } from 'vitest';
import github from '../src/plugins/github/index.js';
import { gh, startFakeGitHub } from './support/fake-github.js';
import { startGitLabRig } from './support/fake-gitlab-harness.js';
import { type Connected, connect, createMemoryLogger } from './support/in-memory.js';

const REPO = 'octo-org/octo-repo';
const TOKEN_ENV = 'FORESIGHT_TEST_RETRY_NOTES_TOKEN';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  delete process.env[TOKEN_ENV];
});

const retries = (logs: Record<string, unknown>[]) =>
  logs
    .filter((record) => record.retry !== undefined)
    .map(({ level, plugin, retry }) => ({ level, plugin, retry }));

describe('retry notes', () => {
  it('github: one before each retry plugin-retry makes, none for a status it does not retry', async () => {
    const fake = await startFakeGitHub();
    fake.expectToken('token t0k');
    process.env[TOKEN_ENV] = 't0k';
    fake.route('GET', `/repos/${REPO}`, { status: 200, body: gh.repository(REPO) });
    fake.route('GET', `/repos/${REPO}/labels`, { status: 200, body: [] });
    fake.route('GET', `/repos/${REPO}/milestones`, { status: 200, body: [] });
    let answered = 0;
    fake.route('GET', `/repos/${REPO}/issues/:n`, (_r, params) =>
      params.n === '404'
        ? { status: 404, body: { message: 'Not Found' } }
        : answered++ === 0
          ? { status: 502, body: { message: 'Server Error' } }
          : { status: 200, body: gh.issue(Number(params.n)) },
    );
    const logs: Record<string, unknown>[] = [];
    const connected: Connected = await connect({
      planner: { enabled: false },
      logger: createMemoryLogger(logs),
      plugins: [
        {
          plugin: github,
          options: { repo: REPO, base_url: fake.url, token_env: TOKEN_ENV, retries: 1, throttle: false },
        },
      ],
    });
    cleanups.push(async () => {
      await connected.close();
      await fake.close();
    });
    const read = await connected.client.callTool({ name: 'github__get_issue', arguments: { key: '#7' } });
    expect(read.isError).toBeFalsy();
    expect(retries(logs)).toEqual([
      { level: 'info', plugin: 'github', retry: { attempt: 1, waitMs: 1000, why: 'HTTP 502' } },
    ]);
    // A 404 is an answer, not a failure to retry: no note.
    const missing = await connected.client.callTool({
      name: 'github__get_issue',
      arguments: { key: '#404' },
    });
    expect(missing.isError).toBe(true);
    expect(retries(logs)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === `/repos/${REPO}/issues/404`)).toHaveLength(1);
  });

  it('gitlab: one before each retry of a 5xx, with its wait', async () => {
    const rig = await startGitLabRig({ options: { retries: 2 } });
    cleanups.push(() => rig.close());
    await rig.metadataLoaded();
    let answered = 0;
    rig.fake.route('GET', '/projects/:project/issues/:iid', () =>
      answered++ < 2
        ? { status: 503, body: { message: '503 Service Unavailable' } }
        : { status: 404, body: {} },
    );
    await rig.call('get_issue', { key: '#5' });
    expect(retries(rig.logs)).toEqual([
      { level: 'info', plugin: 'gitlab', retry: { attempt: 1, waitMs: 250, why: 'HTTP 503' } },
      { level: 'info', plugin: 'gitlab', retry: { attempt: 2, waitMs: 1000, why: 'HTTP 503' } },
    ]);
  });
});
