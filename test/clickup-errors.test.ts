// ClickUp's failures as the agent reads them: 401 OAUTH_ codes in plain words, the per-token rate limit
// (X-RateLimit-Reset) waited out only within the call's deadline, retries, and the token never in any answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ClientClock, buildUrl, createClickUpClient } from '../src/plugins/clickup/client.js';
import { explainOauthCode } from '../src/plugins/clickup/failure.js';
import type { ClickUpSettings } from '../src/plugins/clickup/options.js';
import type { FakeRest } from './support/fake-rest.js';
import { task } from './support/fake-clickup-bodies.js';
import { TEST_TIMEOUT_MS } from './support/patience.js';
import {
  API_PREFIX,
  type ClickUpRig,
  TOKEN,
  TOKEN_ENV,
  expectAllMatched,
  startClickUpRig,
  startFakeClickUp,
  text,
} from './support/fake-clickup.js';

const T0 = 1_750_000_000_000;

function fakeClock(): ClientClock & { slept: number[] } {
  let now = T0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

describe('the fetch client', () => {
  let fake: FakeRest;
  let settings: ClickUpSettings;
  beforeAll(async () => {
    fake = await startFakeClickUp();
    settings = {
      listIds: ['1'],
      teamId: undefined,
      customTaskIds: false,
      baseUrl: `${fake.url}${API_PREFIX}`,
      apiHost: new URL(fake.url).host,
      token: TOKEN,
      tokenEnv: TOKEN_ENV,
      metadataTtlMs: 600_000,
      retries: 2,
    };
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => {
    expectAllMatched(fake);
    fake.requests.length = 0;
  });

  const get = { method: 'GET' as const, path: '/task/abc', target: 'task abc' };
  const limited = (resetS: number) => ({
    status: 429,
    body: { err: 'Rate limit reached', ECODE: 'APP_002' },
    headers: {
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(resetS),
    },
  });

  it('sends the token as the Authorization header, and arrays as key[]', async () => {
    fake.route('GET', '/task/abc', { status: 200, body: task('abc') });
    const client = createClickUpClient(settings, fakeClock());
    await client.send(get, {});
    expect(fake.requests[0]?.headers.authorization).toBe(TOKEN);
    const url = buildUrl('https://api.clickup.com/api/v2', {
      ...get,
      query: { statuses: ['to do', 'review'], page: 0, x: undefined },
    });
    expect(url.search).toBe('?statuses%5B%5D=to+do&statuses%5B%5D=review&page=0');
  });

  it('waits for X-RateLimit-Reset after a 429 when the deadline leaves room, then retries', async () => {
    const clock = fakeClock();
    let calls = 0;
    fake.route('GET', '/task/abc', () =>
      calls++ === 0 ? limited(T0 / 1000 + 3) : { status: 200, body: task('abc') },
    );
    const client = createClickUpClient(settings, clock);
    const answer = await client.send<{ id: string }>(get, { timeLeftMs: () => 10_000 });
    expect(answer.id).toBe('abc');
    expect(clock.slept).toEqual([3000]);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails at once, saying when the limit resets, when the wait would pass the deadline', async () => {
    const clock = fakeClock();
    fake.route('GET', '/task/abc', limited(T0 / 1000 + 60));
    const client = createClickUpClient(settings, clock);
    await expect(client.send(get, { timeLeftMs: () => 5_000 })).rejects.toMatchObject({
      kind: 'unavailable',
      message: `ClickUp rate limit reached for task abc; it resets at ${new Date(T0 + 60_000).toISOString()}`,
    });
    expect(clock.slept).toEqual([]);
    // The window is known to be used up: the next call fails without spending a request.
    await expect(client.send(get, { timeLeftMs: () => 5_000 })).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('an answer that spends the window (Remaining: 0) makes the next request wait for the reset first', async () => {
    const clock = fakeClock();
    fake.route('GET', '/task/abc', {
      status: 200,
      body: task('abc'),
      headers: {
        'X-RateLimit-Limit': '100',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(T0 / 1000 + 2),
      },
    });
    const client = createClickUpClient(settings, clock);
    await client.send(get, { timeLeftMs: () => 10_000 });
    expect(clock.slept).toEqual([]);
    await client.send(get, { timeLeftMs: () => 10_000 });
    // No 429 was spent: the second request went out only after the reset.
    expect(clock.slept).toEqual([2000]);
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a 5xx read, but not a create', async () => {
    fake.route('GET', '/task/abc', { status: 502, body: { err: 'Bad gateway' } });
    fake.route('POST', '/list/1/task', { status: 503, body: { err: 'Unavailable' } });
    const client = createClickUpClient(settings, fakeClock());
    await expect(client.send(get, {})).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('502'),
    });
    expect(fake.sent('GET', '/task/abc')).toHaveLength(3);
    await expect(
      client.send({ method: 'POST', path: '/list/1/task', body: {}, target: 'a new task' }, {}),
    ).rejects.toThrow(/503/);
    expect(fake.sent('POST', '/list/1/task')).toHaveLength(1);
  });

  it('retries a PUT and a DELETE after a 5xx, and a POST only after a 429 (as the README says)', async () => {
    fake.route('PUT', '/task/abc', { status: 500, body: { err: 'Internal' } });
    fake.route('DELETE', '/task/abc/tag/x', { status: 502, body: { err: 'Bad gateway' } });
    let posts = 0;
    fake.route('POST', '/task/abc/comment', () =>
      posts++ === 0 ? limited(T0 / 1000 + 1) : { status: 200, body: { id: 1 } },
    );
    const client = createClickUpClient(settings, fakeClock());
    const about = { path: '/task/abc', target: 'task abc' };
    await expect(client.send({ ...about, method: 'PUT', body: {} }, {})).rejects.toThrow(/500/);
    await expect(
      client.send({ method: 'DELETE', path: '/task/abc/tag/x', target: 'tag x' }, {}),
    ).rejects.toThrow(/502/);
    await client.send({ method: 'POST', path: '/task/abc/comment', body: {}, target: 'a comment' }, {});
    expect(fake.sent('PUT', '/task/abc')).toHaveLength(3);
    expect(fake.sent('DELETE', '/task/abc/tag/x')).toHaveLength(3);
    expect(fake.sent('POST', '/task/abc/comment')).toHaveLength(2);
  });

  it('ends with the call: an aborted signal is a timeout', async () => {
    fake.route('GET', '/task/abc', { status: 200, body: task('abc') });
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    const client = createClickUpClient(settings, fakeClock());
    await expect(client.send(get, { signal: controller.signal })).rejects.toMatchObject({ kind: 'timeout' });
  });
});

describe('OAUTH_ codes', () => {
  it('explains each documented family in plain words', () => {
    expect(explainOauthCode('OAUTH_017', 'CU')).toContain('carried no token; set CU');
    for (const code of ['OAUTH_019', 'OAUTH_021', 'OAUTH_025', 'OAUTH_077']) {
      expect(explainOauthCode(code, 'CU'), code).toContain('revoked or regenerated');
    }
    for (const code of ['OAUTH_023', 'OAUTH_026', 'OAUTH_027', 'OAUTH_029', 'OAUTH_045']) {
      expect(explainOauthCode(code, 'CU'), code).toContain('not authorized for this workspace');
    }
    expect(explainOauthCode('OAUTH_046', 'CU')).toBeUndefined();
    expect(explainOauthCode('ITEM_015', 'CU')).toBeUndefined();
  });
});

describe('errors through the host', () => {
  let rig: ClickUpRig;
  beforeAll(async () => {
    rig = await startClickUpRig();
    await rig.metadataLoaded();
  });
  afterAll(async () => {
    await rig.close();
  });

  it('a 401 names the code, the meaning and the variable, never the token', async () => {
    rig.fake.route('GET', '/task/:id', {
      status: 401,
      body: { err: 'Team not authorized', ECODE: 'OAUTH_027' },
    });
    const result = await rig.call('get_issue', { key: '86a1b2c3d' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      'ClickUp refused the token for task 86a1b2c3d (401 OAUTH_027 ("Team not authorized")): the token is not authorized for this workspace',
    );
    rig.fake.route('GET', '/task/:id', {
      status: 401,
      body: { err: 'Oauth token not found', ECODE: 'OAUTH_019' },
    });
    expect(text(await rig.call('get_issue', { key: '86a1b2c3d' }))).toContain(
      `put a current personal token (ClickUp Settings → Apps) in ${TOKEN_ENV}`,
    );
  });

  it('a server that echoes the token gets it cut from the message, and nothing logs it', async () => {
    rig.fake.route('GET', '/task/:id', {
      status: 400,
      body: { err: `Bad token ${TOKEN} given`, ECODE: 'INPUT_003' },
    });
    const result = await rig.call('get_issue', { key: '86a1b2c3d' });
    expect(text(result)).toContain('Bad token [redacted] given (INPUT_003)');
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(JSON.stringify(rig.logs)).not.toContain(TOKEN);
  });

  it('a 404 says what was not found', async () => {
    rig.fake.route('GET', '/task/:id', {
      status: 404,
      body: { err: 'Task not found, deleted', ECODE: 'ITEM_013' },
    });
    expect(text(await rig.call('get_issue', { key: '86zzz' }))).toContain(
      'task 86zzz was not found on ClickUp',
    );
  });

  it('a key that is not a task is refused before any request', async () => {
    const before = rig.fake.requests.length;
    const result = await rig.call('get_issue', { key: 'not a key' });
    expect(text(result)).toContain('which is not a ClickUp task');
    expect(rig.fake.requests.length).toBe(before);
  });
});

describe('the rate limit within a tool call', () => {
  let rig: ClickUpRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });
  const limitedUntil = (resetS: number) => ({
    status: 429,
    body: { err: 'Rate limit reached', ECODE: 'APP_002' },
    headers: {
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(resetS),
    },
  });

  it("fails at once, naming the reset, when the reset is past the call's deadline", async () => {
    // A deadline longer than the test's patience and a reset an hour past it: a client that waited for either would
    // leave the test to time out, and one cut by the deadline would say it "did not answer in time".
    rig = await startClickUpRig({ options: { retries: 2 }, deadlines: { callTool: 2 * TEST_TIMEOUT_MS } });
    await rig.metadataLoaded();
    const resetS = Math.floor(Date.now() / 1000) + 3_600 + (2 * TEST_TIMEOUT_MS) / 1000;
    rig.fake.route('GET', '/task/:id', limitedUntil(resetS));
    const result = await rig.call('get_issue', { key: '86a1b2c3d' });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('did not answer in time');
    expect(text(result)).toContain(
      `ClickUp rate limit reached for task 86a1b2c3d; it resets at ${new Date(resetS * 1000).toISOString()}`,
    );
    expect(rig.fake.sent('GET', '/task/86a1b2c3d')).toHaveLength(1);
  });

  it('retries once the reset has come', async () => {
    rig = await startClickUpRig({ options: { retries: 1 } });
    await rig.metadataLoaded();
    let calls = 0;
    rig.fake.route('GET', '/task/:id', () =>
      calls++ === 0
        ? limitedUntil(Math.floor(Date.now() / 1000) - 1)
        : { status: 200, body: task('86a1b2c3d') },
    );
    const result = await rig.call('get_issue', { key: '86a1b2c3d' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.fake.sent('GET', '/task/86a1b2c3d')).toHaveLength(2);
  });
});
