// The built CLI with [cluster]: what one `foresight serve --http` process learns reaches another through Redis. An
// agent (2026-07-28 requests) teaches process A that it reads the first file a glob finds, a follow-up whose prior
// (0.1) is under the planner's floor (0.3); process B, which never saw that habit, reads A's counts back and runs the
// read ahead for the same principal, and the agent's read on B is answered from what B ran ahead. And one stream's
// calls spread over both processes (round-robin) are still matched: each call is relayed to the other's windows.
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  type HttpServer,
  WORKSPACE_FILES,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  startHttpServer,
} from './support/cli.js';
import { type WireAnswer, modernPost, readPlannerStats } from './support/modern-wire.js';
import { deleteKeys, sharedRedis, testPrefix } from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const ENV = { FORESIGHT_REDIS_URL: 'redis://127.0.0.1:6379', FORESIGHT_RS_KEY: 'k'.repeat(48) };
const PREFETCH = 'foresight/prefetch';
const GLOB = 'workspace__glob';
const READ = 'workspace__read_file';

const config = (prefix: string) =>
  [
    '[server]',
    'request_state_key_env = "FORESIGHT_RS_KEY"',
    '',
    '[cluster]',
    'redis_url_env = "FORESIGHT_REDIS_URL"',
    `key_prefix = "${prefix}"`,
    'learning_sync_ms = 200',
    '',
    '[planner]',
    // Each process its own file: the counts reach B through Redis alone.
    'state_file = "planner-state.json"',
    'max_waste_per_hit = inf',
    '',
    '[plugins.workspace]',
    'root = "."',
    '',
    // Alone, this prior never clears the 0.3 floor: only what the agent is seen doing can lift it.
    `[tools."${GLOB}"]`,
    `follow_up = [{ tool = "${READ}", probability = 0.1, projection = "paths[*]", projection_arg = "path" }]`,
    '',
  ].join('\n');

async function serve(prefix = PREFIX): Promise<HttpServer> {
  const cwd = await makeWorkspace({ ...WORKSPACE_FILES, 'foresight.toml': config(prefix) });
  // A file changed just before a read counts as changed (coarse kernel timestamps): make them plainly older.
  const past = new Date(Date.now() - 60_000);
  for (const file of Object.keys(WORKSPACE_FILES)) await utimes(path.join(cwd, file), past, past);
  const server = await startHttpServer({ cwd, config: path.join(cwd, 'foresight.toml'), env: ENV });
  await server.waitForStderr(/"msg":"cluster: change events shared over redis"/);
  await server.waitForStderr(/"msg":"cluster: agent calls relayed to the learning windows of every process"/);
  return server;
}

async function call(server: HttpServer, name: string, args: Record<string, unknown>): Promise<WireAnswer> {
  const answer = await modernPost(server.url.href, 'tools/call', { name, arguments: args });
  expect(answer.response?.error).toBeUndefined();
  return answer;
}

const prefetchOf = (answer: WireAnswer) =>
  (answer.response?.result?._meta as Record<string, unknown> | undefined)?.[PREFETCH];

interface Stats {
  counters: { dispatched: number; hits: number };
  inFlight: number;
  queued: number;
  edges: { from: string; to: string; offered: number[]; matched: number[] }[];
}

const stats = (server: HttpServer) => readPlannerStats<Stats>(server.url.href);

const globEdge = (now: Stats) => now.edges.find((edge) => edge.from === GLOB && edge.to === READ);

afterEach(async () => {
  await killAll();
});

const PREFIX_RR = testPrefix();

afterAll(async () => {
  await removeWorkspaces();
  if (redis.ok) await Promise.all([deleteKeys(PREFIX), deleteKeys(PREFIX_RR)]);
});

describe.skipIf(!redis.ok)(
  `learning shared by foresight serve --http processes${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('a follow-up taught on A is run ahead on B once B has read the counts back', async () => {
      const [a, b] = await Promise.all([serve(), serve()]);

      // On B, before anything is learned: the prior alone runs nothing ahead, so the read goes to the plugin.
      const firstGlob = await call(b, GLOB, { pattern: 'src/*.ts' });
      expect(firstGlob.response?.result?.structuredContent).toMatchObject({
        paths: ['src/index.ts', 'src/util.ts'],
      });
      expect(prefetchOf(await call(b, READ, { path: 'src/index.ts' }))).toBeUndefined();
      expect((await stats(b)).counters.dispatched).toBe(0);

      // On A, the agent reads the first file each glob finds: each glob's window closes 3 calls later.
      for (let i = 0; i < 6; i += 1) {
        await call(a, GLOB, { pattern: 'src/*.ts' });
        await call(a, READ, { path: 'src/index.ts' });
      }
      // B shows A's counts for the principal once it has read them back (A's 5 closed windows at least).
      await vi.waitFor(
        async () => {
          const edge = globEdge(await stats(b));
          expect(edge?.offered[0]).toBeGreaterThanOrEqual(5);
          expect(edge?.matched[0]).toBeGreaterThanOrEqual(5);
        },
        { timeout: 10_000, interval: 100 },
      );

      // Now B runs the read ahead after a glob, and answers the agent's read from it. A file A never read: A's
      // results run ahead are shared (a read of src/index.ts would be A's, claimed and stored in Redis already).
      await call(b, GLOB, { pattern: 'src/u*.ts' });
      await vi.waitFor(
        async () => {
          const now = await stats(b);
          expect(now.counters.dispatched).toBe(1);
          expect(now.inFlight + now.queued).toBe(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      const read = await call(b, READ, { path: 'src/util.ts' });
      expect(prefetchOf(read)).toMatchObject({ source: 'cache' });
      expect(JSON.stringify(read.response?.result?.content)).toContain('twice');
      expect((await stats(b)).counters.hits).toBe(1);
    });

    it('one stream’s calls alternating between A and B (round-robin): A’s glob windows see the reads made on B', async () => {
      const [a, b] = await Promise.all([serve(PREFIX_RR), serve(PREFIX_RR)]);
      // Each glob on A, each read on B, as a round-robin balancer would send them: one stream (same principal and
      // client) whose follow-ups A never sees itself.
      for (let i = 0; i < 6; i += 1) {
        await call(a, GLOB, { pattern: 'src/*.ts' });
        await call(b, READ, { path: 'src/index.ts' });
      }
      // A's windows closed as matched: B relayed each read to them.
      await vi.waitFor(
        async () => {
          const edge = globEdge(await stats(a));
          expect(edge?.offered[0]).toBeGreaterThanOrEqual(5);
          expect(edge?.matched[0]).toBe(edge?.offered[0]);
        },
        { timeout: 10_000, interval: 100 },
      );
      // And B, which never ran a glob's window, learns them through the shared counts: it runs the read ahead.
      await vi.waitFor(async () => expect(globEdge(await stats(b))?.matched[0]).toBeGreaterThanOrEqual(5), {
        timeout: 10_000,
        interval: 100,
      });
      // A file A never read, so B runs it ahead itself (A's reads run ahead are in Redis for B to use).
      await call(b, GLOB, { pattern: 'src/u*.ts' });
      await vi.waitFor(
        async () => {
          const now = await stats(b);
          expect(now.counters.dispatched).toBe(1);
          expect(now.inFlight + now.queued).toBe(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(prefetchOf(await call(b, READ, { path: 'src/util.ts' }))).toMatchObject({ source: 'cache' });
    });
  },
);
