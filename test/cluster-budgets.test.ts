// Rate budgets shared by several `foresight serve --http` processes over one Redis (issue 21 point 4): the per-host
// cap on calls run ahead holds across all of them, and a GitHub rate limit one process is told of keeps the others
// from spending requests on it until its reset. Everything is counted at a loopback fake GitHub; with Redis
// unreachable each process runs nothing ahead (its caps then have nothing to hold) and every call still succeeds.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type HttpServer, killAll, makeWorkspace, removeWorkspaces, startHttpServer } from './support/cli.js';
import { freePort } from './support/everything-http.js';
import { type FakeGitHub, type RecordedRequest, gh, startFakeGitHub } from './support/fake-github.js';
import { modernPost, readPlannerStats } from './support/modern-wire.js';
import { SHARED_REDIS_URL, deleteKeys, sharedRedis, testPrefix } from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const REPO = 'octo-org/octo-repo';
const TOKEN_ENV = 'GH_BUDGET_TOKEN';
const TOKEN = 'ghp_BUDGETbudgetBUDGET0123456789abcdef';
const PER_HOST = 2;
/** Issues the list answers: each gives get_issue and get_issue_comments a set to run ahead. */
const LISTED = [1, 2, 3];
/** How long the fake holds each answer run ahead, so that calls of the three processes overlap. */
const SLOW_MS = 150;

let fake: FakeGitHub | undefined;

afterEach(async () => {
  await killAll();
  if (redis.ok) await deleteKeys(PREFIX);
  await fake?.close();
  fake = undefined;
});

afterAll(async () => {
  await removeWorkspaces();
  if (redis.ok) await deleteKeys(PREFIX);
});

function config(fakeUrl: string, planner: boolean): string {
  return [
    '[server]',
    'request_state_key_env = "FORESIGHT_RS_KEY"',
    '',
    '[cluster]',
    'redis_url_env = "FORESIGHT_REDIS_URL"',
    `key_prefix = "${PREFIX}"`,
    '',
    '[planner]',
    `enabled = ${planner}`,
    'learning = false',
    'probability_floor = 0.1',
    'max_waste_per_hit = inf',
    'token_budget = 100000',
    'max_in_flight = 8',
    `per_host_in_flight = ${PER_HOST}`,
    '',
    '[plugins.gh]',
    'use = "github"',
    `repo = "${REPO}"`,
    `base_url = "${fakeUrl}"`,
    `token_env = "${TOKEN_ENV}"`,
    'retries = 0',
    '',
  ].join('\n');
}

async function serve(options: {
  fakeUrl: string;
  planner: boolean;
  redisUrl: string;
  token: string;
}): Promise<HttpServer> {
  const cwd = await makeWorkspace();
  const file = path.join(cwd, 'foresight.toml');
  await writeFile(file, config(options.fakeUrl, options.planner));
  return startHttpServer({
    cwd,
    config: file,
    env: {
      FORESIGHT_REDIS_URL: options.redisUrl,
      FORESIGHT_RS_KEY: 'k'.repeat(48),
      [TOKEN_ENV]: options.token,
    },
  });
}

/** The fake GitHub with the start-up requests answered (the health probe, labels and milestones). */
async function startFake(): Promise<FakeGitHub> {
  const started = await startFakeGitHub();
  started.route('GET', '/repos/:owner/:repo', (_r, params) => ({
    status: 200,
    body: gh.repository(`${params.owner}/${params.repo}`),
  }));
  started.route('GET', '/repos/:owner/:repo/labels', { status: 200, body: [] });
  started.route('GET', '/repos/:owner/:repo/milestones', { status: 200, body: [] });
  return started;
}

async function call(server: HttpServer, tool: string, args: Record<string, unknown>) {
  const answer = await modernPost(server.url.href, 'tools/call', { name: tool, arguments: args });
  const result = answer.response?.result as
    { isError?: boolean; content?: { type: string; text?: string }[] } | undefined;
  if (result === undefined) throw new Error(`no result: ${JSON.stringify(answer.messages)}`);
  return { isError: result.isError === true, text: result.content?.[0]?.text ?? '' };
}

interface PlannerStats {
  inFlight: number;
  queued: number;
  counters: { dispatched: number };
}

const plannerStats = (server: HttpServer) => readPlannerStats<PlannerStats>(server.url.href);

/** Counts the requests of the calls run ahead (issue and comments reads) in flight at the fake: overall and per token. */
class Concurrency {
  private now = 0;
  private readonly perToken = new Map<string, number>();
  max = 0;
  readonly maxPerToken = new Map<string, number>();
  total = 0;

  async hold(request: RecordedRequest): Promise<void> {
    const token = String(request.headers.authorization);
    this.total += 1;
    this.now += 1;
    this.max = Math.max(this.max, this.now);
    const mine = (this.perToken.get(token) ?? 0) + 1;
    this.perToken.set(token, mine);
    this.maxPerToken.set(token, Math.max(this.maxPerToken.get(token) ?? 0, mine));
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    this.now -= 1;
    this.perToken.set(token, (this.perToken.get(token) ?? 1) - 1);
  }
}

/** Issues and comments answered slowly, counted; the list answered at once (only the agent asks for it). */
function routeIssues(server: FakeGitHub, counted: Concurrency): void {
  server.route('GET', '/repos/:owner/:repo/issues', {
    status: 200,
    body: LISTED.map((n) => gh.issue(n)),
  });
  server.route('GET', '/repos/:owner/:repo/issues/:number', async (request, params) => {
    await counted.hold(request);
    return { status: 200, body: gh.issue(Number(params.number)) };
  });
  server.route('GET', '/repos/:owner/:repo/issues/:number/comments', async (request, params) => {
    await counted.hold(request);
    return { status: 200, body: [gh.comment(Number(params.number) * 10, { issue: Number(params.number) })] };
  });
}

/** Three processes each list the issues at once, then run ahead until every queue is empty. */
async function listEverywhere(servers: readonly HttpServer[]): Promise<void> {
  const listed = await Promise.all(
    servers.map((server) => call(server, 'gh__get_issues', { limit: LISTED.length })),
  );
  for (const answer of listed) expect(answer.isError, answer.text).toBe(false);
  // With results run ahead shared, a call claimed by one process is not run by the others: some run them all.
  await vi.waitFor(
    async () => {
      let dispatched = 0;
      for (const server of servers) {
        const stats = await plannerStats(server);
        dispatched += stats.counters.dispatched;
        expect(stats.inFlight + stats.queued).toBe(0);
      }
      expect(dispatched).toBeGreaterThan(0);
    },
    { timeout: 20_000, interval: 100 },
  );
}

async function redisKeys(pattern: string): Promise<string[]> {
  const client = createClient({ url: SHARED_REDIS_URL });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.keys(`${PREFIX}${pattern}`);
  } finally {
    client.destroy();
  }
}

describe.skipIf(!redis.ok)('shared rate budgets across foresight serve --http processes', () => {
  it(
    'calls run ahead by three processes never exceed per_host_in_flight at the provider together',
    { timeout: 60_000 },
    async () => {
      const counted = new Concurrency();
      fake = await startFake();
      routeIssues(fake, counted);
      const servers = await Promise.all(
        [1, 2, 3].map(() =>
          serve({ fakeUrl: fake!.url, planner: true, redisUrl: SHARED_REDIS_URL, token: TOKEN }),
        ),
      );
      await Promise.all(
        servers.map((server) => server.waitForStderr(/"msg":"cluster: change events shared over redis"/)),
      );
      await listEverywhere(servers);
      // More calls than the cap, run by three processes (each on its own, or sharing them out once a shared
      // speculative cache claims each call for one process): the cap was there to hold.
      expect(counted.total).toBeGreaterThan(PER_HOST);
      expect(counted.max).toBeLessThanOrEqual(PER_HOST);
      // Every slot was given back: the host's set is empty, so Redis has removed it.
      expect(await redisKeys('slots:*')).toEqual([]);
      console.info(`shared cap: ${counted.total} calls run ahead, at most ${counted.max} at once`);
    },
  );

  it(
    'a GitHub rate limit one process is told of stops the others from sending until the reset',
    { timeout: 60_000 },
    async () => {
      fake = await startFake();
      const resetS = Math.floor(Date.now() / 1000) + 3_600;
      const limited: RecordedRequest[] = [];
      fake.route('GET', '/repos/:owner/:repo/issues/:number', (request) => {
        limited.push(request);
        return gh.rateLimited(403, resetS);
      });
      const servers = await Promise.all(
        [1, 2, 3].map(() =>
          serve({ fakeUrl: fake!.url, planner: false, redisUrl: SHARED_REDIS_URL, token: TOKEN }),
        ),
      );
      await Promise.all(
        servers.map((server) => server.waitForStderr(/"msg":"cluster: change events shared over redis"/)),
      );
      const [a, b, c] = servers as [HttpServer, HttpServer, HttpServer];
      const first = await call(a, 'gh__get_issue', { key: '#7' });
      expect(first.isError).toBe(true);
      expect(first.text).toBe(
        `GitHub rate limit reached for issue #7 of ${REPO}; it resets at ${new Date(resetS * 1000).toISOString()}`,
      );
      await vi.waitFor(async () => expect(await redisKeys('ratelimit:*')).toHaveLength(1));
      // The others answer as GitHub would have, the same words, without a request.
      for (const server of [b, c, a]) {
        expect(await call(server, 'gh__get_issue', { key: '#7' })).toEqual(first);
      }
      expect(limited).toHaveLength(1);
      // The key never holds the token, and lapses at the reset.
      const [key] = await redisKeys('ratelimit:*');
      expect(key).not.toContain(TOKEN);
      const client = createClient({ url: SHARED_REDIS_URL });
      await client.connect();
      const ttlMs = await client.pTTL(key ?? '');
      client.destroy();
      expect(ttlMs).toBeGreaterThan(0);
      expect(ttlMs).toBeLessThanOrEqual(3_600_000);
    },
  );

  it(
    'a short limit: the others wait for the reset as the first does, then send; GitHub refuses only once',
    { timeout: 60_000 },
    async () => {
      fake = await startFake();
      // GitHub refuses every request until the reset, as its primary limit does; the window opens with A's call.
      let resetS = Number.POSITIVE_INFINITY;
      let refused = 0;
      let answered = 0;
      fake.route('GET', '/repos/:owner/:repo/issues/:number', (_request, params) => {
        if (Date.now() < resetS * 1000) {
          refused += 1;
          return gh.rateLimited(403, resetS);
        }
        answered += 1;
        return { status: 200, body: gh.issue(Number(params.number)) };
      });
      const servers = await Promise.all(
        [1, 2, 3].map(() =>
          serve({ fakeUrl: fake!.url, planner: false, redisUrl: SHARED_REDIS_URL, token: TOKEN }),
        ),
      );
      await Promise.all(
        servers.map((server) => server.waitForStderr(/"msg":"cluster: change events shared over redis"/)),
      );
      const [a, b, c] = servers as [HttpServer, HttpServer, HttpServer];
      // A is refused, waits out the reset (within throttling's 10 s) and asks again.
      resetS = Math.floor(Date.now() / 1000) + 6;
      const first = call(a, 'gh__get_issue', { key: '#8' });
      await vi.waitFor(async () => expect(await redisKeys('ratelimit:*')).toHaveLength(1), {
        timeout: 4_000,
      });
      expect(refused).toBe(1);
      // B and C, asked before the reset, wait for it too instead of spending a request on a refusal.
      const answers = await Promise.all([
        first,
        call(b, 'gh__get_issue', { key: '#8' }),
        call(c, 'gh__get_issue', { key: '#8' }),
      ]);
      for (const answer of answers) expect(answer.isError, answer.text).toBe(false);
      expect(refused).toBe(1);
      expect(answered).toBe(3);
    },
  );
});

describe('shared rate budgets with Redis unreachable', () => {
  it(
    'each process runs nothing ahead (it could not hear of a write elsewhere), and every call succeeds',
    { timeout: 60_000 },
    async () => {
      const counted = new Concurrency();
      fake = await startFake();
      routeIssues(fake, counted);
      const down = `redis://127.0.0.1:${await freePort()}`;
      const servers = await Promise.all(
        [1, 2, 3].map((n) =>
          serve({ fakeUrl: fake!.url, planner: true, redisUrl: down, token: `${TOKEN}${n}` }),
        ),
      );
      for (const server of servers) {
        const listed = await call(server, 'gh__get_issues', { limit: LISTED.length });
        expect(listed.isError, listed.text).toBe(false);
        const answer = await call(server, 'gh__get_issue', { key: '#1' });
        expect(answer.isError, answer.text).toBe(false);
        const stats = await plannerStats(server);
        expect(stats.counters.dispatched + stats.inFlight + stats.queued).toBe(0);
      }
      // Only the agent's own reads reached the provider's issue routes: one get_issue per process.
      expect(counted.total).toBe(servers.length);
    },
  );
});
