// How the gitlab plugin reports GitLab's failures: each HTTP error class, rate limits, retries, network and
// deadline failures become clear tool errors, and the token never appears in any output or log.
import { createServer } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gl } from './support/fake-gitlab-bodies.js';
import {
  type GitLabRig,
  PROJECT_PATH,
  type RigOptions,
  TOKEN,
  startGitLabRig,
  text,
} from './support/fake-gitlab-harness.js';

const rigs: GitLabRig[] = [];
const outputs: unknown[] = [];

async function rigWith(options: RigOptions = {}): Promise<GitLabRig> {
  const rig = await startGitLabRig({ metadata: false, ...options });
  rigs.push(rig);
  const call = rig.call;
  rig.call = async (tool, args) => {
    const result = await call(tool, args);
    outputs.push(result);
    return result;
  };
  return rig;
}

afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    // Every request carried the token in its header, and nothing the agent or the logs saw holds it.
    expect(JSON.stringify(outputs)).not.toContain(TOKEN);
    expect(JSON.stringify(rig.logs)).not.toContain(TOKEN);
    await rig.close();
  }
  outputs.length = 0;
});

const failed = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return text(result);
};

/** "GitLab (127.0.0.1:PORT)": how messages name a self-managed instance. */
const provider = (rig: GitLabRig) => `GitLab (${new URL(rig.fake.url).host})`;

describe('gitlab errors', () => {
  it('401: the token was refused', async () => {
    const rig = await rigWith({ token: 'a-different-token' });
    const message = failed(await rig.call('get_issues'));
    expect(message).toBe(
      `${provider(rig)} refused the token for issues of group/sub/project (401); check the token the config names: Unauthorized`,
    );
    expect(rig.fake.requests.at(-1)?.headers['private-token']).toBe(TOKEN);
  });

  it('sends the token as a Bearer header when auth = "bearer"', async () => {
    const rig = await rigWith({ options: { auth: 'bearer' } });
    rig.list('GET', '/projects/:project/issues', []);
    expect((await rig.call('get_issues')).isError).toBeFalsy();
    expect(rig.fake.requests.at(-1)?.headers).toMatchObject({ authorization: `Bearer ${TOKEN}` });
    expect(rig.fake.requests.at(-1)?.headers['private-token']).toBeUndefined();
  });

  it('403: access denied', async () => {
    const rig = await rigWith();
    rig.fake.route('GET', '/projects/:project/issues/:iid', gl.error(403, '403 Forbidden'));
    expect(failed(await rig.call('get_issue', { key: '#3' }))).toBe(
      `${provider(rig)} denied access to issue #3 of group/sub/project (403); the token may lack a scope: Forbidden`,
    );
  });

  it('404: names the project and the key', async () => {
    const rig = await rigWith();
    rig.fake.route('GET', '/projects/:project/merge_requests/:iid', gl.error(404, '404 Not found'));
    expect(failed(await rig.call('get_merge_request', { key: '!99' }))).toBe(
      `merge request !99 of group/sub/project was not found on ${provider(rig)}`,
    );
    rig.fake.route('GET', '/projects/:project/issues', gl.error(404, '404 Project Not Found'));
    expect(failed(await rig.call('get_issues'))).toBe(
      `project group/sub/project (or the token cannot see it) was not found on ${provider(rig)}`,
    );
  });

  it("409: a conflict, with GitLab's own words", async () => {
    const rig = await rigWith();
    rig.fake.route(
      'POST',
      '/projects/:project/merge_requests',
      gl.error(409, ['Another open merge request already exists for this source branch: !5']),
    );
    const message = failed(
      await rig.call('create_merge_request', { title: 't', source_branch: 'a', target_branch: 'main' }),
    );
    expect(message).toBe(
      `${provider(rig)} reported a conflict for a new merge request of group/sub/project: Another open merge request already exists for this source branch: !5`,
    );
  });

  it('400 and 422: validation, field by field', async () => {
    const rig = await rigWith();
    rig.fake.route(
      'POST',
      '/projects/:project/issues',
      gl.error(400, { title: ["can't be blank"], labels: ['is invalid'] }),
    );
    rig.fake.route(
      'PUT',
      '/projects/:project/merge_requests/:iid',
      gl.error(422, 'Source branch does not exist'),
    );
    expect(failed(await rig.call('create_issue', { title: ' ' }))).toBe(
      `${provider(rig)} rejected the request for a new issue of group/sub/project: title can't be blank; labels is invalid`,
    );
    expect(failed(await rig.call('update_merge_request', { key: '!4', title: 'x' }))).toBe(
      `${provider(rig)} rejected the request for merge request !4 of group/sub/project: Source branch does not exist`,
    );
  });

  it('429: gives up on a long wait and says when the limit resets', async () => {
    const rig = await rigWith({ options: { retries: 2 } });
    const reset = Math.floor(Date.now() / 1000) + 120;
    rig.fake.route('GET', '/projects/:project/issues', gl.rateLimited(reset, 120));
    expect(failed(await rig.call('get_issues'))).toBe(
      `${provider(rig)} rate limit reached for issues of group/sub/project; it resets at ${new Date(reset * 1000).toISOString()}`,
    );
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/issues`)).toHaveLength(1);
  });

  it('429 with a short Retry-After, and a 5xx on a read: retried, then answered', async () => {
    const rig = await rigWith({ options: { retries: 1 } });
    let calls = 0;
    rig.fake.route('GET', '/projects/:project/issues', () =>
      calls++ === 0 ? gl.rateLimited(Math.floor(Date.now() / 1000), 0) : { status: 200, body: [gl.issue(1)] },
    );
    let pipelineCalls = 0;
    rig.fake.route('GET', '/projects/:project/pipelines', () =>
      pipelineCalls++ === 0 ? gl.error(502, 'Bad Gateway') : { status: 200, body: [] },
    );
    expect((await rig.call('get_issues')).isError).toBeFalsy();
    expect(calls).toBe(2);
    // The retry reached GitLab, which has no pipeline for the branch: that, not the 502, is the answer.
    expect(failed(await rig.call('get_pipeline', { branch: 'main' }))).toContain('no pipeline has run');
    expect(pipelineCalls).toBe(2);
  });

  it('5xx on a write is not repeated (the write may have happened)', async () => {
    const rig = await rigWith({ options: { retries: 2 } });
    rig.fake.route(
      'POST',
      '/projects/:project/issues/:iid/notes',
      gl.error(500, '500 Internal Server Error'),
    );
    expect(failed(await rig.call('add_issue_comment', { key: '#1', body: 'hi' }))).toBe(
      `${provider(rig)} failed (500) for issue #1 of group/sub/project: Internal Server Error`,
    );
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/issues/1/notes`)).toHaveLength(1);
  });

  it('network: an instance that does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const rig = await rigWith({ options: { base_url: `http://127.0.0.1:${port}` } });
    expect(failed(await rig.call('get_issues'))).toBe(
      `cannot reach GitLab (127.0.0.1:${port}) (ECONNREFUSED) for issues of group/sub/project`,
    );
  });

  it('a call past its deadline fails with the deadline and its request is aborted', async () => {
    const rig = await rigWith({ deadlines: { callTool: 300 } });
    rig.fake.route('GET', '/projects/:project/issues', () => new Promise<never>(() => {}));
    const message = failed(await rig.call('get_issues'));
    expect(message).toContain('gitlab__get_issues');
    expect(message).toContain('300 ms');
    // The plugin's signal aborted the fetch: GitLab sees the client hang up rather than a request left running.
    await vi.waitFor(() => expect(rig.fake.abandoned).toHaveLength(1), { timeout: 2000, interval: 10 });
  });
});
