// GitLab, Jira and ClickUp behind two hosts of one cluster (each host with its own Redis connections, as two
// processes have): a rate limit one host is told of reaches the other, which answers its agent the same way
// without sending a request, until the reset. Requests are counted at each provider's loopback fake.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Cluster, joinCluster } from '../src/cluster/index.js';
import github from '../src/plugins/github/index.js';
import { startClickUpRig, text as clickupText } from './support/fake-clickup.js';
import { gh, startFakeGitHub } from './support/fake-github.js';
import { PROJECT_PATH, startGitLabRig } from './support/fake-gitlab-harness.js';
import { API_PREFIX } from './support/fake-gitlab.js';
import { startJiraRig } from './support/fake-jira-harness.js';
import { connect, createMemoryLogger } from './support/in-memory.js';
import { SHARED_REDIS_URL, deleteKeys, sharedRedis, testPrefix } from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const joined: Cluster[] = [];
const closing: (() => Promise<void>)[] = [];

/** Two members of one cluster, both connected. */
async function twoMembers(): Promise<[Cluster, Cluster]> {
  const make = () =>
    joinCluster({
      redisUrl: SHARED_REDIS_URL,
      endpoint: SHARED_REDIS_URL,
      keyPrefix: PREFIX,
      logger: createMemoryLogger(),
    });
  const members: [Cluster, Cluster] = [make(), make()];
  joined.push(...members);
  await vi.waitFor(() => expect(members.every((m) => m.reachable())).toBe(true), { timeout: 5_000 });
  return members;
}

const textOf = (result: CallToolResult) => clickupText(result);

/** Resolves once the first host's rate limit is in Redis (it is written after its call has answered). */
async function limitShared(): Promise<void> {
  const client = createClient({ url: SHARED_REDIS_URL });
  await client.connect();
  try {
    await vi.waitFor(async () => expect(await client.keys(`${PREFIX}ratelimit:*`)).toHaveLength(1));
  } finally {
    client.destroy();
  }
}

/** The reset a message names, in epoch ms. */
function resetIn(message: string): number {
  const at = /it resets at (\S+)$/.exec(message)?.[1];
  return at === undefined ? Number.NaN : Date.parse(at);
}

/** A fake GitHub and two hosts of one cluster with the github plugin on it (one token), calling its tools. */
async function twoGitHubHosts() {
  const [a, b] = await twoMembers();
  const fake = await startFakeGitHub();
  closing.push(() => fake.close());
  fake.route('GET', '/repos/:owner/:repo', (_r, params) => ({
    status: 200,
    body: gh.repository(`${params.owner}/${params.repo}`),
  }));
  fake.route('GET', '/repos/:owner/:repo/labels', { status: 200, body: [] });
  fake.route('GET', '/repos/:owner/:repo/milestones', { status: 200, body: [] });
  fake.route('GET', '/repos/:owner/:repo/issues/:number', (_r, params) => ({
    status: 200,
    body: gh.issue(Number(params.number)),
  }));
  process.env.GH_LIMITS_TOKEN = 'ghp_LIMITSlimitsLIMITS0123456789abcdef';
  closing.push(() => Promise.resolve(void delete process.env.GH_LIMITS_TOKEN));
  const host = async (member: Cluster) => {
    const connected = await connect({
      planner: { enabled: false },
      shared: member.shared,
      plugins: [
        {
          plugin: github,
          options: {
            repo: 'octo-org/octo-repo',
            base_url: fake.url,
            token_env: 'GH_LIMITS_TOKEN',
            retries: 0,
          },
        },
      ],
    });
    closing.push(() => connected.close());
    return (tool: string, args: Record<string, unknown>) =>
      connected.client.callTool({ name: `github__${tool}`, arguments: args });
  };
  return { fake, first: await host(a), second: await host(b) };
}

afterEach(async () => {
  // The second rig of each pair first: the first one closes the fake they share.
  for (const close of closing.splice(0).reverse()) await close();
  await Promise.all(joined.splice(0).map((cluster) => cluster.close()));
  if (redis.ok) await deleteKeys(PREFIX);
});

afterAll(async () => {
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)('provider rate limits shared by the hosts of a cluster', () => {
  it('GitLab: a 429 with Retry-After on one host; the other fails the same way without a request', async () => {
    const [a, b] = await twoMembers();
    const first = await startGitLabRig({ shared: a.shared });
    closing.push(() => first.close());
    const second = await startGitLabRig({ shared: b.shared, fake: first.fake });
    closing.push(() => second.close());
    first.fake.route('GET', '/projects/:project/issues/:iid', {
      status: 429,
      headers: { 'retry-after': '3600' },
      body: { message: '429 Too Many Requests' },
    });
    const issuePath = `${API_PREFIX}${PROJECT_PATH}/issues/5`;
    const sent = () => first.fake.requests.filter((r) => r.path === issuePath);

    const refused = textOf(await first.call('get_issue', { key: '#5' }));
    expect(refused).toMatch(/^GitLab \([^)]+\) rate limit reached for issue #5 .*; it resets at /);
    expect(sent()).toHaveLength(1);
    await limitShared();
    {
      const answer = await second.call('get_issue', { key: '#5' });
      expect(answer.isError).toBe(true);
      // Known without asking: the fake saw only the first host's request.
      expect(sent()).toHaveLength(1);
      const told = textOf(answer);
      expect(told.replace(/resets at .*$/, '')).toBe(refused.replace(/resets at .*$/, ''));
      // The same reset, to the second (GitLab's Retry-After is whole seconds).
      expect(Math.abs(resetIn(told) - resetIn(refused))).toBeLessThanOrEqual(1_000);
    }
  });

  it('Jira: a 429 with Retry-After on one host; the other fails the same way without a request', async () => {
    const [a, b] = await twoMembers();
    const first = await startJiraRig({ shared: a.shared });
    closing.push(() => first.close());
    const second = await startJiraRig({ shared: b.shared, fake: first.fake });
    closing.push(() => second.close());
    first.fake.route('GET', `${first.api}/issue/:key`, {
      status: 429,
      headers: { 'retry-after': '3600' },
      body: { errorMessages: ['Rate limit exceeded.'] },
    });
    const sent = () => first.fake.requests.filter((r) => r.path === `${first.api}/issue/PROJ-1`);

    const refused = textOf(await first.call('get_issue', { key: 'PROJ-1' }));
    expect(refused).toMatch(/rate limit reached for .*PROJ-1.*; it resets at /);
    expect(sent()).toHaveLength(1);
    await limitShared();
    {
      const answer = await second.call('get_issue', { key: 'PROJ-1' });
      expect(answer.isError).toBe(true);
      expect(sent()).toHaveLength(1);
      const told = textOf(answer);
      expect(told.replace(/resets at .*$/, '')).toBe(refused.replace(/resets at .*$/, ''));
      expect(Math.abs(resetIn(told) - resetIn(refused))).toBeLessThanOrEqual(1_000);
    }
  });

  it('ClickUp: a 429 with X-RateLimit-Reset on one host; the other fails the same way without a request', async () => {
    const [a, b] = await twoMembers();
    const first = await startClickUpRig({ shared: a.shared });
    closing.push(() => first.close());
    const second = await startClickUpRig({ shared: b.shared, fake: first.fake });
    closing.push(() => second.close());
    const resetS = Math.floor(Date.now() / 1000) + 3_600;
    first.fake.route('GET', '/task/:id', {
      status: 429,
      body: { err: 'Rate limit reached', ECODE: 'APP_002' },
      headers: {
        'X-RateLimit-Limit': '100',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(resetS),
      },
    });
    const sent = () => first.fake.sent('GET', '/task/86a1b2c3d');
    const key = 'https://app.clickup.com/t/86a1b2c3d';

    const refused = textOf(await first.call('get_issue', { key }));
    expect(refused).toBe(
      `ClickUp rate limit reached for task 86a1b2c3d; it resets at ${new Date(resetS * 1000).toISOString()}`,
    );
    expect(sent()).toHaveLength(1);
    await limitShared();
    {
      const answer = await second.call('get_issue', { key });
      expect(answer.isError).toBe(true);
      expect(sent()).toHaveLength(1);
      expect(textOf(answer)).toBe(refused);
    }
  });

  it('GitHub: a used-up search budget holds back the searches of every host, not their other requests', async () => {
    const { fake, first, second } = await twoGitHubHosts();
    const resetS = Math.floor(Date.now() / 1000) + 3_600;
    const limited = gh.rateLimited(403, resetS);
    fake.route('GET', '/search/issues', {
      ...limited,
      headers: { ...limited.headers, 'x-ratelimit-resource': 'search' },
    });
    const searches = () => fake.requests.filter((r) => r.path === '/search/issues');

    const refused = textOf(await first('get_issues', { search: 'crash' }));
    expect(refused).toMatch(/^GitHub rate limit reached for .*; it resets at /);
    await limitShared();
    const told = await second('get_issues', { search: 'crash' });
    expect(textOf(told)).toBe(refused);
    expect(searches()).toHaveLength(1);
    // The core budget is another: reading an issue still goes out, and succeeds.
    const read = await second('get_issue', { key: '#3' });
    expect(read.isError, textOf(read)).toBeFalsy();
  });

  it("GitHub: writes of every host go out one at a time, spaced as throttling spaces one process's", async () => {
    const { fake, first, second } = await twoGitHubHosts();
    let writing = 0;
    let most = 0;
    fake.route('POST', '/repos/:owner/:repo/issues/:number/comments', async (request, params) => {
      writing += 1;
      most = Math.max(most, writing);
      // Held well under the 1 s spacing, so only writes sent together could overlap.
      await new Promise((resolve) => setTimeout(resolve, 200));
      writing -= 1;
      const body = (request.body as { body: string }).body;
      return {
        status: 201,
        body: gh.comment(Number(params.number) * 100, { issue: Number(params.number), body }),
      };
    });
    const answers = await Promise.all([
      first('add_issue_comment', { key: '1', body: 'one' }),
      second('add_issue_comment', { key: '2', body: 'two' }),
      first('add_issue_comment', { key: '3', body: 'three' }),
      second('add_issue_comment', { key: '4', body: 'four' }),
    ]);
    for (const answer of answers) expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(4);
    expect(most).toBe(1);
  });
});
