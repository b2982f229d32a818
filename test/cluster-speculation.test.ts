// The planner's cache shared by several `foresight serve --http` processes on one Redis: a result run ahead on A is
// served on B, a call still running on A is joined from B, a write on C reaches every process, a claim whose holder
// died lapses, and with Redis stopped nothing stale is served (sharing resumes when it returns). The tracker fixture
// keeps its items in files every process reads and logs each get_item that reaches it, so a test counts requests at
// the "provider" whichever process made them.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type HttpServer, killAll, makeWorkspace, removeWorkspaces, startHttpServer } from './support/cli.js';
import { freePort } from './support/everything-http.js';
import { modernPost, readPlannerStats } from './support/modern-wire.js';
import {
  PrivateRedis,
  SHARED_REDIS_URL,
  deleteKeys,
  redisServerInstalled,
  sharedRedis,
  testPrefix,
} from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const TRACKER = fileURLToPath(new URL('./fixtures/plugins/tracker.mjs', import.meta.url));
const PREFETCH = 'foresight/prefetch';
/** How long a claim holds in these processes: a dead holder's claim lapses within the test's patience. */
const CLAIM_TIMEOUT_S = 2;
/** What get_item of a "slow…" id takes: shorter than the claim, so a live holder's call is joined, not redone. */
const SLOW_MS = 1_200;

/** A follow-up less than certain, under a strict budget: what a process may run ahead depends on its account. */
interface Budgeted {
  probability: number;
  maxWastePerHit: number;
}

function config(dir: string, keyPrefix: string, learning = false, budgeted?: Budgeted): string {
  return [
    '[server]',
    'request_state_key_env = "FORESIGHT_RS_KEY"',
    '',
    '[cluster]',
    'redis_url_env = "FORESIGHT_REDIS_URL"',
    `key_prefix = "${keyPrefix}"`,
    `claim_timeout_s = ${CLAIM_TIMEOUT_S}`,
    '',
    '[planner]',
    `learning = ${learning}`,
    `state_file = ${JSON.stringify(path.join(dir, 'planner.json'))}`,
    ...(budgeted ? [`max_waste_per_hit = ${budgeted.maxWastePerHit}`, 'probability_floor = 0.1'] : []),
    '',
    '[plugins.tracker]',
    `module = ${JSON.stringify(TRACKER)}`,
    `dir = ${JSON.stringify(dir)}`,
    `delay_ms = ${SLOW_MS}`,
    '',
    '[tools."tracker__list_items"]',
    `follow_up = [{ tool = "tracker__get_item", probability = ${budgeted?.probability ?? 1}, projection = "items[*].id", projection_arg = "id" }]`,
    '',
    '[tools."tracker__get_item"]',
    'freshness_ttl_s = 60',
    '',
    '[tools."tracker__set_item"]',
    'side_effect = "mutates_external"',
    'invalidates = ["tracker__get_item"]',
    'invalidate_by = ["id"]',
    '',
  ].join('\n');
}

interface Rig {
  dir: string;
  servers: HttpServer[];
}

/** `count` processes on one tracker directory and one Redis, each sharing (its subscriptions confirmed). */
async function startRig(
  count: number,
  redisUrl: string,
  keyPrefix: string,
  learning = false,
  budgeted?: Budgeted,
): Promise<Rig> {
  const dir = await makeWorkspace({});
  const file = path.join(dir, 'foresight.toml');
  await writeFile(file, config(dir, keyPrefix, learning, budgeted));
  const env = { FORESIGHT_REDIS_URL: redisUrl, FORESIGHT_RS_KEY: 'k'.repeat(48) };
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = await startHttpServer({ cwd: dir, config: file, env });
      await server.waitForStderr(/"msg":"cluster: change events shared over redis"/);
      return server;
    }),
  );
  return { dir, servers };
}

async function call(
  server: HttpServer,
  name: string,
  args: Record<string, unknown>,
): Promise<{ value: unknown; prefetch: { source: string } | undefined }> {
  const answer = await modernPost(server.url.href, 'tools/call', { name, arguments: args });
  expect(answer.response?.error).toBeUndefined();
  const result = answer.response?.result as {
    structuredContent?: { value?: unknown };
    isError?: boolean;
    _meta?: Record<string, unknown>;
  };
  expect(result.isError).not.toBe(true);
  return {
    value: result.structuredContent?.value,
    prefetch: result._meta?.[PREFETCH] as { source: string } | undefined,
  };
}

/** The lines of the tracker's call log (`started <id> <pid>`, `done <id> <pid>`). */
async function calls(dir: string): Promise<string[]> {
  try {
    return (await readFile(path.join(dir, 'calls.log'), 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function count(lines: readonly string[], what: string): number {
  return lines.filter((line) => line.startsWith(`${what} `)).length;
}

/** Waits until the call log holds every line of `what` (e.g. "done item1"). */
async function untilLogged(dir: string, what: readonly string[], timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = await calls(dir);
    if (what.every((expected) => count(lines, expected) > 0)) return;
    if (Date.now() > deadline) throw new Error(`not logged within ${timeoutMs} ms: ${what.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function wasteBudget(server: HttpServer): Promise<{ hits: number; waste: number }> {
  return (await readPlannerStats<{ wasteBudget: { hits: number; waste: number } }>(server.url.href))
    .wasteBudget;
}

afterEach(async () => {
  await killAll();
});

afterAll(async () => {
  await removeWorkspaces();
  if (redis.ok) await deleteKeys(PREFIX);
});

describe.skipIf(!redis.ok)(
  `the planner's cache across processes on one Redis${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('results run ahead on A are served on B and C, and the provider is asked once per item', async () => {
      const { dir, servers } = await startRig(3, SHARED_REDIS_URL, `${PREFIX}served:`);
      const [a, b, c] = servers as [HttpServer, HttpServer, HttpServer];
      await call(a, 'tracker__list_items', {});
      await untilLogged(dir, ['done item1', 'done item2']);
      const onB = await call(b, 'tracker__get_item', { id: 'item2' });
      const onC = await call(c, 'tracker__get_item', { id: 'item1' });
      expect(onB).toMatchObject({
        value: 'v0',
        prefetch: { source: expect.stringMatching(/^(cache|in_flight)$/) },
      });
      expect(onC).toMatchObject({
        value: 'v0',
        prefetch: { source: expect.stringMatching(/^(cache|in_flight)$/) },
      });
      const lines = await calls(dir);
      for (const id of ['item1', 'item2']) expect(count(lines, `started ${id}`)).toBe(1);
    });

    it('a call on B joins the same call still running on A instead of asking the provider again', async () => {
      const { dir, servers } = await startRig(2, SHARED_REDIS_URL, `${PREFIX}joined:`);
      const [a, b] = servers as [HttpServer, HttpServer];
      await call(a, 'tracker__list_items', { prefix: 'slow' });
      await untilLogged(dir, ['started slow1']);
      const onB = await call(b, 'tracker__get_item', { id: 'slow1' });
      expect(onB).toMatchObject({ value: 'v0', prefetch: { source: 'in_flight' } });
      expect(count(await calls(dir), 'started slow1')).toBe(1);
    });

    it('a write on C makes every process answer the new value, not what was run ahead', async () => {
      const { dir, servers } = await startRig(3, SHARED_REDIS_URL, `${PREFIX}written:`);
      const [a, b, c] = servers as [HttpServer, HttpServer, HttpServer];
      await call(a, 'tracker__list_items', {});
      await untilLogged(dir, ['done item1', 'done item2']);
      await call(c, 'tracker__set_item', { id: 'item2', value: 'v1' });
      // A holds item2 in its own cache and B would find A's copy in Redis: neither may serve it now.
      for (const server of [a, b]) {
        const read = await call(server, 'tracker__get_item', { id: 'item2' });
        expect(read).toEqual({ value: 'v1', prefetch: undefined });
      }
    });

    it('a walk through a listing goes on when the agent’s reads land on other processes', async () => {
      // Learning on: the processes relay each agent call to the others, whose learning windows and listings see it.
      const { dir, servers } = await startRig(3, SHARED_REDIS_URL, `${PREFIX}walked:`, true);
      const [a, b, c] = servers as [HttpServer, HttpServer, HttpServer];
      await call(a, 'tracker__list_items', { prefix: 'walk', count: 6 });
      await untilLogged(dir, ['done walk1', 'done walk2']);
      expect(count(await calls(dir), 'started walk3')).toBe(0);
      // The read of walk1 lands on B; A holds the listing and runs the next unread items ahead.
      expect(await call(b, 'tracker__get_item', { id: 'walk1' })).toMatchObject({
        prefetch: { source: 'cache' },
      });
      await untilLogged(dir, ['done walk3']);
      const onC = await call(c, 'tracker__get_item', { id: 'walk3' });
      expect(onC).toMatchObject({
        value: 'v0',
        prefetch: { source: expect.stringMatching(/^(cache|in_flight)$/) },
      });
      expect(count(await calls(dir), 'started walk3')).toBe(1);
    });

    it('the waste budget is the cluster’s: B runs ahead the unlikely call A’s empty account refused', async () => {
      // Items at 0.8, 0.4, 0.2 (each later one half as likely), at most 1 unused result per used one: an empty
      // account admits the first two only. A's two used results make room that B, whose own account is empty, uses.
      const { dir, servers } = await startRig(2, SHARED_REDIS_URL, `${PREFIX}budget:`, false, {
        probability: 0.8,
        maxWastePerHit: 1,
      });
      const [a, b] = servers as [HttpServer, HttpServer];
      await call(a, 'tracker__list_items', { prefix: 'a' });
      await untilLogged(dir, ['done a1', 'done a2']);
      for (const id of ['a1', 'a2'])
        expect(await call(a, 'tracker__get_item', { id })).toMatchObject({ prefetch: { source: 'cache' } });
      expect(count(await calls(dir), 'started a3')).toBe(0);
      // B's account holds A's decisions and outcomes (two results used: about two hits, no waste).
      await vi.waitFor(async () => expect((await wasteBudget(b)).hits).toBeGreaterThan(1.9), {
        timeout: 5_000,
        interval: 50,
      });
      expect((await wasteBudget(b)).waste).toBeLessThan(0.1);
      await call(b, 'tracker__list_items', { prefix: 'b' });
      await untilLogged(dir, ['done b1', 'done b2', 'done b3']);
    });

    it('a process killed mid-run: calls the client retries on the next process all complete', async () => {
      const { servers } = await startRig(3, SHARED_REDIS_URL, `${PREFIX}killed:`);
      const answered: unknown[] = [];
      let retried = 0;
      for (let i = 0; i < 24; i++) {
        if (i === 8) {
          servers[1]?.child.kill('SIGKILL');
          await servers[1]?.exited;
        }
        const id = `item${(i % 3) + 1}`;
        const name = i % 4 === 0 ? 'tracker__list_items' : 'tracker__get_item';
        // Round-robin, as a balancer with no health checks would; a refused connection goes to the next process.
        for (let attempt = 0; ; attempt++) {
          const server = servers[(i + attempt) % 3] as HttpServer;
          try {
            const { value } = await call(server, name, name === 'tracker__get_item' ? { id } : {});
            answered.push(name === 'tracker__get_item' ? value : 'listed');
            break;
          } catch (error) {
            if (attempt >= 2 || !/ECONNREFUSED|ECONNRESET|socket hang up/.test(String(error))) throw error;
            retried += 1;
          }
        }
      }
      expect(answered).toHaveLength(24);
      expect(answered.filter((value) => value !== 'listed').every((value) => value === 'v0')).toBe(true);
      expect(retried).toBeGreaterThan(0);
    });

    it('a claim whose holder died lapses after claim_timeout_s, and B asks the provider itself', async () => {
      const { dir, servers } = await startRig(2, SHARED_REDIS_URL, `${PREFIX}died:`);
      const [a, b] = servers as [HttpServer, HttpServer];
      await call(a, 'tracker__list_items', { prefix: 'slowdead' });
      await untilLogged(dir, ['started slowdead1']);
      a.child.kill('SIGKILL');
      await a.exited;
      const onB = await call(b, 'tracker__get_item', { id: 'slowdead1' });
      expect(onB).toEqual({ value: 'v0', prefetch: undefined });
      const lines = await calls(dir);
      expect(count(lines, 'started slowdead1')).toBe(2);
      expect(count(lines, 'done slowdead1')).toBe(1);
    });
  },
);

describe.skipIf(!redisServerInstalled())('the planner’s cache with Redis stopped and started again', () => {
  it('serves nothing stale while Redis is down, every call succeeding, and shares again once it is back', async () => {
    const server = new PrivateRedis(await freePort());
    await server.start();
    try {
      const { dir, servers } = await startRig(2, server.url, 'foresight-outage:');
      const [a, b] = servers as [HttpServer, HttpServer];
      await call(a, 'tracker__list_items', {});
      await untilLogged(dir, ['done item1', 'done item2']);
      await server.stop();
      await Promise.all(
        servers.map((s) => s.waitForStderr(/"msg":"redis unreachable: serving from local state/)),
      );
      // B cannot tell A of this write: A must not answer from what it ran ahead before.
      await call(b, 'tracker__set_item', { id: 'item2', value: 'v2' });
      expect(await call(a, 'tracker__get_item', { id: 'item2' })).toEqual({
        value: 'v2',
        prefetch: undefined,
      });
      expect(await call(a, 'tracker__get_item', { id: 'item1' })).toEqual({
        value: 'v0',
        prefetch: undefined,
      });
      await server.start();
      await Promise.all(
        servers.map((s) => s.waitForStderr(/"msg":"redis reachable again: sharing resumed"/)),
      );
      await call(a, 'tracker__list_items', { prefix: 'again' });
      await untilLogged(dir, ['done again1', 'done again2']);
      const onB = await call(b, 'tracker__get_item', { id: 'again2' });
      expect(onB).toMatchObject({
        value: 'v0',
        prefetch: { source: expect.stringMatching(/^(cache|in_flight)$/) },
      });
      expect(count(await calls(dir), 'started again2')).toBe(1);
    } finally {
      await server.stop();
    }
  });
});
