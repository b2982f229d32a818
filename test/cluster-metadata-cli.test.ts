// The built CLI with [cluster] and a Jira plugin: three `foresight serve --http` processes on one Redis load the
// tracker's metadata once between them (the loopback Jira counts the requests), each lists the enums it gives, and
// a reload on one reaches the tool lists of all; with Redis unreachable each process loads it by itself.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type HttpServer, killAll, makeWorkspace, removeWorkspaces, startHttpServer } from './support/cli.js';
import { freePort } from './support/everything-http.js';
import { type FakeJira, apiOf, jira, startFakeJira } from './support/fake-jira.js';
import { PROJ, routeMetadata } from './support/fake-jira-metadata.js';
import { authHeader, EMAIL, EMAIL_ENV, TOKEN, TOKEN_ENV } from './support/fake-jira-harness.js';
import { modernPost } from './support/modern-wire.js';
import { PATIENCE_MS } from './support/patience.js';
import { deleteKeys, sharedRedis, testPrefix } from './support/redis.js';

const redis = await sharedRedis();
const PREFIX = testPrefix();
const API = apiOf('cloud');

let fake: FakeJira;

beforeEach(async () => {
  fake = await startFakeJira();
  fake.expectAuth('authorization', authHeader('cloud'));
  fake.route('GET', `${API}/myself`, {
    status: 200,
    body: jira.user('cloud', '5b10a2844c20165700ede21g', 'Mia Krystof'),
  });
  routeMetadata(fake, 'cloud', [PROJ]);
});

afterEach(async () => {
  await killAll();
  await fake.close();
});

afterAll(async () => {
  await removeWorkspaces();
  if (redis.ok) await deleteKeys(PREFIX);
});

function config(extra: string[] = []): string {
  return [
    '[server]',
    'request_state_key_env = "FORESIGHT_RS_KEY"',
    'log_level = "debug"', // the claims' outcomes, for the message of a count that is off
    '',
    '[cluster]',
    'redis_url_env = "FORESIGHT_REDIS_URL"',
    `key_prefix = "${PREFIX}"`,
    '',
    '[plugins.jira]',
    `base_url = "${fake.url}"`,
    'flavor = "cloud"',
    `email_env = "${EMAIL_ENV}"`,
    `token_env = "${TOKEN_ENV}"`,
    'projects = ["PROJ"]',
    'retries = 0',
    ...extra,
    '',
  ].join('\n');
}

async function serve(redisUrl: string, extra: string[] = []): Promise<HttpServer> {
  const cwd = await makeWorkspace();
  const file = path.join(cwd, 'foresight.toml');
  await writeFile(file, config(extra));
  return startHttpServer({
    cwd,
    config: file,
    env: {
      FORESIGHT_REDIS_URL: redisUrl,
      FORESIGHT_RS_KEY: 'k'.repeat(48),
      [TOKEN_ENV]: TOKEN,
      [EMAIL_ENV]: EMAIL,
    },
  });
}

/** The requests of the metadata loads: every one but the health probe's. */
function metadataRequests(): string[] {
  return fake.requests
    .filter((request) => request.path !== `${API}/myself`)
    .map((request) => `${request.method} ${request.path}?${new URLSearchParams(request.query).toString()}`);
}

/** How many times each metadata request was sent. */
function sendCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of metadataRequests()) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

/** What each process's claims on the shared copy answered (the debug log), to say why a count is off. */
function claims(servers: HttpServer[]): string {
  const said = servers.map((server) =>
    [...server.stderr().matchAll(/"shared":"([a-z]+)"/g)].map((match) => match[1]).join(' '),
  );
  return `claims per process: ${said.join(' | ')}`;
}

/** The `status` enum of update_issue as the server lists it (undefined while the metadata is not in). */
async function statusEnum(server: HttpServer): Promise<string[] | undefined> {
  const answer = await modernPost(server.url.href, 'tools/list', {});
  const tools = (answer.response?.result as { tools?: { name: string; inputSchema: unknown }[] } | undefined)
    ?.tools;
  const update = tools?.find((tool) => tool.name === 'jira__update_issue');
  const schema = update?.inputSchema as { properties?: { status?: { enum?: string[] } } } | undefined;
  return schema?.properties?.status?.enum;
}

const STATUSES = PROJ.statuses.map((status) => status.name);

/** The site's workflow gains "In Review". */
function addStatus(): void {
  fake.route('GET', `${API}/project/PROJ/statuses`, {
    status: 200,
    body: PROJ.types.map((type) => ({
      id: type.id,
      name: type.name,
      subtask: type.subtask,
      statuses: [...PROJ.statuses, jira.status('In Review', 'indeterminate', 10002)],
    })),
  });
}

async function expectStatuses(servers: HttpServer[], expected: string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      for (const server of servers) expect(await statusEnum(server)).toEqual(expected);
    },
    { timeout: PATIENCE_MS, interval: 100 },
  );
}

describe.skipIf(!redis.ok)(
  `three foresight serve --http processes with Jira on one Redis${redis.ok ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    it('load the metadata once between them, list its enums, and all take a reload made on one', async () => {
      const servers = await Promise.all([0, 1, 2].map(() => serve('redis://127.0.0.1:6379')));
      await expectStatuses(servers, STATUSES);
      // One load's requests, each sent once: what a single process sends, not three times that.
      const once = sendCounts();
      expect(once.size).toBeGreaterThan(3);
      expect(
        [...once.values()].every((count) => count === 1),
        claims(servers),
      ).toBe(true);
      expect(once.has(`GET ${API}/project/PROJ/statuses?`)).toBe(true);

      // The site gains a status; a reload on A (the agent asks for fresh statuses) reaches B's and C's lists.
      addStatus();
      const [a] = servers as [HttpServer, HttpServer, HttpServer];
      const refreshed = await modernPost(a.url.href, 'tools/call', {
        name: 'jira__get_available_statuses',
        arguments: { refresh: true },
      });
      expect(refreshed.response?.error).toBeUndefined();
      expect(JSON.stringify(refreshed.response?.result)).toContain('In Review');
      await expectStatuses(servers, [...STATUSES, 'In Review']);
      // A's reload alone: every request twice now (the first load and A's), none a third time.
      const twice = sendCounts();
      expect([...twice.keys()].sort()).toEqual([...once.keys()].sort());
      expect(
        [...twice.values()].every((count) => count === 2),
        claims(servers),
      ).toBe(true);
    });

    it('reload it once per TTL between them: a change at the site reaches the three tool lists', async () => {
      // The shortest TTL the config takes: the next load is 10 s after the first.
      const servers = await Promise.all(
        [0, 1, 2].map(() => serve('redis://127.0.0.1:6379', ['metadata_ttl_s = 10'])),
      );
      await expectStatuses(servers, STATUSES);
      expect(
        [...sendCounts().values()].every((count) => count === 1),
        claims(servers),
      ).toBe(true);
      addStatus();
      await expectStatuses(servers, [...STATUSES, 'In Review']);
      // The TTL's one reload, by whichever process claimed it; the next is 10 s away.
      expect(
        [...sendCounts().values()].every((count) => count === 2),
        claims(servers),
      ).toBe(true);
    });
  },
);

describe('three foresight serve --http processes with Jira and Redis unreachable', () => {
  it('each loads the metadata by itself and lists its enums', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const servers = await Promise.all([0, 1, 2].map(() => serve(url)));
    await expectStatuses(servers, STATUSES);
    const counts = sendCounts();
    expect(counts.size).toBeGreaterThan(3);
    expect([...counts.values()].every((count) => count === 3)).toBe(true);
  });
});
