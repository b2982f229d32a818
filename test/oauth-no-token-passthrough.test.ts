// No token pass-through (MCP authorization): the access token a client presents to Foresight authenticates that
// client here and goes no further. An upstream MCP server and a provider's API, reached on the client's behalf,
// see only their own credentials (none for the upstream, the provider's own token for GitHub), for both eras.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { HttpServing } from '../src/protocol/index.js';
import { type FakeGitHub, gh, startFakeGitHub } from './support/fake-github.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { type LegacyHttpUpstream, serveLegacyHttp } from './support/legacy-http-upstream.js';
import { type LocalIssuer, startLocalIssuer } from './support/local-issuer.js';
import { connectWithToken } from './support/oauth-rig.js';

const AUDIENCE = 'https://foresight.test/mcp';
const REPO = 'octo-org/octo-repo';
const GH_TOKEN_ENV = 'FORESIGHT_PASSTHROUGH_GH_TOKEN';
const GH_TOKEN = 'ghp_PASSTHROUGHtest0123456789abcdefABCD';

let issuer: LocalIssuer;
let upstream: LegacyHttpUpstream;
let github: FakeGitHub;
let host: ForesightHost;
let http: HttpServing;
const clients: Client[] = [];
const tokens: string[] = [];

async function connect(era: 'legacy' | 'modern'): Promise<Client> {
  const bearer = await issuer.sign({ sub: `passthrough-${era}`, aud: AUDIENCE });
  tokens.push(bearer);
  return connectWithToken(http.url, bearer, era, clients);
}

beforeAll(async () => {
  issuer = await startLocalIssuer();
  upstream = await serveLegacyHttp();
  github = await startFakeGitHub();
  github.expectToken(`token ${GH_TOKEN}`);
  github.route('GET', '/repos/:owner/:repo', (_r, params) => ({
    status: 200,
    body: gh.repository(`${params.owner}/${params.repo}`),
  }));
  github.route('GET', '/repos/:owner/:repo/labels', { status: 200, body: [] });
  github.route('GET', '/repos/:owner/:repo/milestones', { status: 200, body: [] });
  github.route('GET', '/repos/:owner/:repo/issues', { status: 200, body: [] });
  process.env[GH_TOKEN_ENV] = GH_TOKEN;
  const toml = [
    '[plugins.web]',
    'use = "upstream"',
    `url = ${JSON.stringify(upstream.url)}`,
    '[plugins.gh]',
    'use = "github"',
    `repo = "${REPO}"`,
    `base_url = ${JSON.stringify(github.url)}`,
    `token_env = "${GH_TOKEN_ENV}"`,
    'retries = 0',
    'throttle = false',
  ].join('\n');
  host = createHost({
    config: parseConfig(toml, '/test/foresight.toml', process.cwd()),
    logger: createMemoryLogger(),
  });
  http = await host.serveHttp({
    port: 0,
    oauth: { issuer: issuer.issuer, audience: AUDIENCE, algorithms: ['ES256'], clockSkewS: 30 },
  });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await host?.close();
  await Promise.allSettled([upstream?.close(), github?.close(), issuer?.close()]);
  delete process.env[GH_TOKEN_ENV];
});

describe("the client's access token stops at Foresight", () => {
  it.each(['legacy', 'modern'] as const)(
    '%s client: the upstream and GitHub are called, and neither sees the token',
    async (era) => {
      const client = await connect(era);
      const echoed = await client.callTool({ name: 'web__echo', arguments: { text: 'hi' } });
      expect(textOf(echoed)).toBe('echo: hi');
      const issues = await client.callTool({ name: 'gh__get_issues', arguments: {} });
      expect(issues.isError).toBeFalsy();

      const issueCalls = github.requests.filter((r) => r.path === `/repos/${REPO}/issues`);
      expect(issueCalls.length).toBeGreaterThan(0);
      // GitHub gets the provider's own credential on every request, and nothing else that could be ours.
      for (const request of github.requests) expect(request.headers.authorization).toBe(`token ${GH_TOKEN}`);
      expect(upstream.headersSeen.length).toBeGreaterThan(0);
      // The upstream is configured with no credential: it gets no authorization header at all.
      for (const headers of upstream.headersSeen) expect(headers.authorization).toBeUndefined();
      const seen = JSON.stringify([upstream.headersSeen, github.requests]);
      for (const bearer of tokens) expect(seen).not.toContain(bearer);
    },
  );
});
