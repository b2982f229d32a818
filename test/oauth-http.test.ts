// Foresight as an OAuth 2.1 resource server over Streamable HTTP, against a real local issuer: JWT access tokens
// verified (issuer, audience, lifetime, signature, algorithm), keys rotated, the 401 challenge and the protected
// resource metadata (RFC 9728), for SDK v2 clients of both eras; the token never reaches a log or an answer.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { type IssuerKey, type LocalIssuer, unsignedToken } from './support/local-issuer.js';
import { AUDIENCE, METADATA_URL, type OAuthRig, startOAuthRig, whoami } from './support/oauth-rig.js';

let rig: OAuthRig;
let issuer: LocalIssuer;
let auditDir: string;
let auditFile: string;
let http: HttpServing;
const logger = createMemoryLogger();
/** Every token handed out, to look for in the logs at the end. */
let tokens: string[];

const now = () => Math.floor(Date.now() / 1000);

const principalOf = async (client: Client) =>
  textOf(await client.callTool({ name: 'whoami__principal', arguments: {} }));

const token = (claims?: Record<string, unknown>, key?: IssuerKey) => rig.token(claims, key);
const connect = (bearer: string, era?: 'legacy' | 'modern'): Promise<Client> => rig.connect(bearer, era);
const post = (headers?: Record<string, string>, body?: string) => rig.post(headers, body);

/** A refused request: 401, the challenge naming the metadata, the reason, and no trace of the token. */
async function expectRefused(bearer: string, why: RegExp): Promise<void> {
  const response = await post({ authorization: `Bearer ${bearer}` });
  const text = await response.text();
  expect(response.status).toBe(401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", scope="mcp:tools", /);
  expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
  expect(challenge).toMatch(why);
  expect(JSON.parse(text)).toMatchObject({
    jsonrpc: '2.0',
    error: { code: -32600, message: expect.stringMatching(why) },
  });
  expect(text).not.toContain(bearer);
  expect(challenge).not.toContain(bearer);
}

beforeAll(async () => {
  auditDir = await mkdtemp(path.join(tmpdir(), 'foresight-oauth-audit-'));
  auditFile = path.join(auditDir, 'audit.jsonl');
  rig = await startOAuthRig({
    host: {
      config: parseConfig('[plugins.workspace]\nroot = "."\n', '/test/foresight.toml', process.cwd()),
      logger,
      plugins: [whoami],
      audit: { enabled: true, file: auditFile },
    },
    oauth: { scopesSupported: ['mcp:tools'] },
  });
  ({ issuer, http, tokens } = rig);
});

afterAll(async () => {
  await rig.close();
  await rm(auditDir, { recursive: true, force: true });
});

describe('a valid access token', () => {
  it('serves a 2025 client (a session) and a 2026-07-28 client, the key set found through the issuer metadata', async () => {
    const legacy = await connect(await token());
    const modern = await connect(await token({ sub: 'bob' }), 'modern');
    expect(legacy.getProtocolEra()).toBe('legacy');
    expect(modern.getProtocolEra()).toBe('modern');
    const [a, b] = await Promise.all([legacy.listTools(), modern.listTools()]);
    expect(a.tools.length).toBeGreaterThan(0);
    expect(b.tools.map((tool) => tool.name)).toEqual(a.tools.map((tool) => tool.name));
    expect(issuer.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
    expect(issuer.hits.get('/jwks')).toBeGreaterThanOrEqual(1);
    // The token's subject is the principal plugins see, in both eras.
    const issuerHost = new URL(issuer.issuer).host;
    expect(await principalOf(legacy)).toBe(`sub:${issuerHost}:alice`);
    expect(await principalOf(modern)).toBe(`sub:${issuerHost}:bob`);
    // The audit log names each call by the same principal, and holds no token.
    const audited = (await readFile(auditFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { principal?: string; tool?: string });
    const principals = audited.filter((r) => r.tool === 'whoami__principal').map((r) => r.principal);
    expect(principals).toEqual(expect.arrayContaining([`sub:${issuerHost}:alice`, `sub:${issuerHost}:bob`]));
    const text = await readFile(auditFile, 'utf8');
    for (const given of tokens) expect(text).not.toContain(given);
  });

  it("a 2025 session is its principal's: another subject's valid token with its id finds no session", async () => {
    const alice = await token({ sub: 'alice-2' });
    const opened = await post({ authorization: `Bearer ${alice}` });
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const mallory = await post(
      { ...headers, authorization: `Bearer ${await token({ sub: 'mallory' })}` },
      list,
    );
    expect(mallory.status).toBe(404);
    await mallory.body?.cancel();
    const own = await post({ ...headers, authorization: `Bearer ${alice}` }, list);
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it('a token signed by a rotated key (new kid) is accepted once the key set names it', async () => {
    const fetched = issuer.hits.get('/jwks') ?? 0;
    await issuer.rotate();
    const client = await connect(await token({ sub: 'carol' }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(issuer.hits.get('/jwks')).toBe(fetched + 1);
  });
});

describe('refused tokens: 401 with the challenge, the reason, never the token', () => {
  it('no token: the challenge names the metadata and the scopes to ask for, and no error (RFC 6750 §3.1)', async () => {
    const response = await post();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="${METADATA_URL}"`,
    );
    await response.body?.cancel();
  });

  it('another audience', async () =>
    expectRefused(await token({ aud: 'https://other.test/mcp' }), /another resource/));

  it('another issuer', async () =>
    expectRefused(await token({ iss: 'http://issuer.evil.test' }), /another issuer/));

  it('expired (beyond the clock skew)', async () =>
    expectRefused(await token({ iat: now() - 7200, exp: now() - 3600 }), /expired/));

  it('not valid yet (beyond the clock skew)', async () =>
    expectRefused(await token({ nbf: now() + 3600 }), /not valid yet/));

  it('alg "none", crafted by hand', async () => {
    const unsigned = unsignedToken({ iss: issuer.issuer, aud: AUDIENCE, sub: 'alice', exp: now() + 3600 });
    tokens.push(unsigned);
    await expectRefused(unsigned, /algorithm/);
  });

  it('a bad signature: a key the issuer never published, under the kid of its current key', async () => {
    const forger = { ...(await issuer.stranger()), kid: issuer.current.kid };
    await expectRefused(await token({}, forger), /signature/);
  });

  it('a kid the key set does not have', async () => {
    await expectRefused(await token({}, await issuer.stranger()), /no key/);
  });

  it('not a JWT at all', async () => {
    tokens.push('opaque-token-value-1234567890');
    await expectRefused('opaque-token-value-1234567890', /not a valid signed JWT/);
  });

  it('an SDK client with a refused token fails to connect, and its error holds no token', async () => {
    const expired = await token({ iat: now() - 7200, exp: now() - 3600 });
    const failure = await connect(expired).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(String(failure?.message)).not.toContain(expired);
  });
});

describe('protected resource metadata (RFC 9728)', () => {
  it('is served at the well-known path and its /mcp-suffixed form', async () => {
    const base = new URL(http.url);
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const response = await fetch(new URL(path, base));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({
        resource: AUDIENCE,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['mcp:tools'],
        bearer_methods_supported: ['header'],
      });
    }
  });
});

describe('the token stays out of the logs', () => {
  it('no log record holds any token handed out', () => {
    const logged = JSON.stringify(logger.records);
    expect(tokens.length).toBeGreaterThan(10);
    for (const handed of tokens) expect(logged).not.toContain(handed);
  });
});
