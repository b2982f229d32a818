// The built CLI with [cluster]: `foresight check` says whether Redis answers (never quoting its URL), and several
// `foresight serve --http` processes sharing one Redis act as one: a tool list change on A reaches a listen stream
// held on B, a multi round-trip request asked on A completes on B, and with Redis unreachable each still serves.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  type HttpServer,
  killAll,
  loggedMessages,
  makeWorkspace,
  removeWorkspaces,
  runCli,
  startHttpServer,
} from './support/cli.js';
import { freePort } from './support/everything-http.js';
import { type JsonRpcMessage, type WireAnswer, modernPost } from './support/modern-wire.js';
import { deleteKeys, sharedRedis, testPrefix } from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const ASKS = fileURLToPath(new URL('./fixtures/plugins/asks.mjs', import.meta.url));
// The machine's Redis has no password: its default user takes any, so a URL with one still connects.
const PASSWORD = `pw-${randomUUID()}`;
const REDIS_URL = `redis://default:${PASSWORD}@127.0.0.1:6379`;
const ENV = { FORESIGHT_REDIS_URL: REDIS_URL, FORESIGHT_RS_KEY: 'k'.repeat(48) };

const CONFIG = [
  '[server]',
  'request_state_key_env = "FORESIGHT_RS_KEY"',
  'metrics = true',
  '',
  '[cluster]',
  'redis_url_env = "FORESIGHT_REDIS_URL"',
  `key_prefix = "${PREFIX}"`,
  '',
  '[plugins.conformance]',
  'prefix = ""',
  '',
  '[plugins.asks]',
  `module = ${JSON.stringify(ASKS)}`,
  '',
].join('\n');

async function workspace(): Promise<{ cwd: string; config: string }> {
  const cwd = await makeWorkspace();
  const config = path.join(cwd, 'foresight.toml');
  await writeFile(config, CONFIG);
  return { cwd, config };
}

async function serve(env: Record<string, string> = ENV): Promise<HttpServer> {
  const { cwd, config } = await workspace();
  return startHttpServer({ cwd, config, env });
}

/** A process that shares its change events: its subscription is confirmed by Redis. */
async function serveShared(): Promise<HttpServer> {
  const server = await serve();
  await server.waitForStderr(/"msg":"cluster: change events shared over redis"/);
  return server;
}

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(REDIS_URL);
  }
}

afterEach(async () => {
  await killAll();
});

afterAll(async () => {
  await removeWorkspaces();
  if (redis.ok) await deleteKeys(PREFIX);
});

describe('foresight check with [cluster]', () => {
  it.skipIf(!redis.ok)(
    `Redis reachable: an ok line with the prefix and the time, the URL and its password never printed${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
    async () => {
      const { cwd, config } = await workspace();
      const result = await runCli(['check', '--config', config], { cwd, env: ENV, timeoutMs: 20_000 });
      expect(result.stdout).toMatch(
        new RegExp(`^ok  cluster: redis reachable \\(prefix "${PREFIX}", \\d+ ms\\)$`, 'm'),
      );
      expect(result.code).toBe(0);
      expectNoSecret(result.stdout, result.stderr);
    },
  );

  it('Redis unreachable: a fail line naming host and port only, and exit 1', async () => {
    const { cwd, config } = await workspace();
    const port = await freePort();
    // Without credentials too: the URL is still a secret, and the line must still say where Redis is.
    for (const url of [`redis://default:${PASSWORD}@127.0.0.1:${port}`, `redis://127.0.0.1:${port}/0`]) {
      const result = await runCli(['check', '--config', config], {
        cwd,
        env: { ...ENV, FORESIGHT_REDIS_URL: url },
        timeoutMs: 20_000,
      });
      expect(result.stdout).toMatch(
        new RegExp(`^fail {2}cluster: redis unreachable at 127\\.0\\.0\\.1:${port} \\(.+\\)`, 'm'),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/redis is unreachable/);
      expectNoSecret(result.stdout, result.stderr);
      expect(result.stdout + result.stderr).not.toContain(url);
    }
  });
});

describe.skipIf(!redis.ok)(
  `foresight serve --http processes on one Redis${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('a tool list change on A reaches the 2026-07-28 listen streams held on B and on C', async () => {
      const [a, b, c] = await Promise.all([serveShared(), serveShared(), serveShared()]);
      let acknowledged = 0;
      let triggered: Promise<WireAnswer> | undefined;
      const listen = (server: HttpServer, id: string) =>
        modernPost(
          server.url.href,
          'subscriptions/listen',
          { notifications: { toolsListChanged: true } },
          {
            id,
            maxMessages: 2,
            readTimeoutMs: 8_000,
            onMessage: (message: JsonRpcMessage) => {
              if (message.method !== 'notifications/subscriptions/acknowledged') return;
              // Once both streams are open; B's and C's own plugins do not change, so only A's call can put the
              // event on their streams.
              if (++acknowledged === 2)
                triggered = modernPost(a.url.href, 'tools/call', {
                  name: 'test_trigger_tool_change',
                  arguments: {},
                });
            },
          },
        );
      const streams = await Promise.all([listen(b, 'listen-b'), listen(c, 'listen-c')]);
      for (const stream of streams)
        expect(stream.messages.map((message) => message.method)).toEqual([
          'notifications/subscriptions/acknowledged',
          'notifications/tools/list_changed',
        ]);
      expect((await triggered)?.response?.error).toBeUndefined();
      expectNoSecret(a.stderr(), b.stderr(), c.stderr());
      // Ready with Redis reachable; A's PUBLISH of the change is counted in its metrics.
      const ready = await fetch(new URL('/readyz', a.url));
      expect(ready.status).toBe(200);
      const metrics = await (await fetch(new URL('/metrics', a.url))).text();
      const published = /^foresight_redis_roundtrips_total (\d+)$/m.exec(metrics);
      expect(Number(published?.[1])).toBeGreaterThanOrEqual(1);
    });

    it('a multi round-trip request asked on A completes when its retry lands on B', async () => {
      const [a, b] = await Promise.all([serve(), serve()]);
      const capabilities = { elicitation: {} };
      const first = await modernPost(
        a.url.href,
        'tools/call',
        { name: 'asks__ask', arguments: {} },
        { capabilities },
      );
      const asked = first.response?.result as
        { resultType: string; inputRequests: Record<string, unknown>; requestState: string } | undefined;
      expect(asked?.resultType).toBe('input_required');
      const [key] = Object.keys(asked?.inputRequests ?? {});
      const retry = await modernPost(
        b.url.href,
        'tools/call',
        {
          name: 'asks__ask',
          arguments: {},
          inputResponses: { [key ?? '']: { action: 'accept', content: { name: 'Ada' } } },
          requestState: asked?.requestState,
        },
        { capabilities },
      );
      expect(retry.response?.error).toBeUndefined();
      expect(retry.response?.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'hello Ada' }],
      });
    });
  },
);

describe('foresight serve --http with Redis unreachable', () => {
  it('still serves calls, from its own state, and logs the outage once', async () => {
    const url = `redis://default:${PASSWORD}@127.0.0.1:${await freePort()}`;
    const server = await serve({ ...ENV, FORESIGHT_REDIS_URL: url });
    for (let i = 0; i < 3; i++) {
      const answer = await modernPost(server.url.href, 'tools/call', {
        name: 'test_simple_text',
        arguments: {},
      });
      expect(answer.response?.result).toMatchObject({
        content: [{ text: 'This is a simple text response for testing.' }],
      });
    }
    // Reconnect attempts go on every 100–2000 ms; none of them adds a line.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const outages = loggedMessages(server.stderr()).filter((message) =>
      message.startsWith('redis unreachable'),
    );
    expect(outages).toHaveLength(1);
    expectNoSecret(server.stderr());
    expect(server.stderr()).not.toContain(url);
    // Not ready while its Redis is gone, saying where (never the URL's credentials); calls still served above.
    const ready = await fetch(new URL('/readyz', server.url));
    const body = await ready.text();
    expect(ready.status).toBe(503);
    expect(body).toMatch(/redis unreachable at 127\.0\.0\.1:\d+/);
    expect(body).not.toContain(PASSWORD);
  });
});
