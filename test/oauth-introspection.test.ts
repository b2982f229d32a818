// Opaque access tokens checked by token introspection (RFC 7662) at a real local issuer: served for SDK v2 clients
// of both eras, refused when inactive or issued for another resource, remembered by hash for a bounded time, 503
// while the endpoint cannot be asked; neither the token nor the introspection client secret reaches a log or answer.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig, redactSecrets } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { HttpServing } from '../src/protocol/index.js';
import { type OAuthResourceOptions, createResourceServer } from '../src/protocol/resource-server.js';
import { createIntrospectionVerifier, looksLikeJwt } from '../src/protocol/token-introspection.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { type LocalIssuer, startLocalIssuer } from './support/local-issuer.js';
import { connectWithToken, whoami } from './support/oauth-rig.js';

const AUDIENCE = 'https://foresight.test/mcp';
const LISTENER = 'http://127.0.0.1:3000/mcp';

let issuer: LocalIssuer;
let host: ForesightHost;
let http: HttpServing;
const logger = createMemoryLogger();
const clients: Client[] = [];
const now = () => Math.floor(Date.now() / 1000);

function oauthOptions(more: Partial<OAuthResourceOptions['introspection']> = {}): OAuthResourceOptions {
  return {
    issuer: issuer.issuer,
    audience: AUDIENCE,
    algorithms: ['ES256'],
    clockSkewS: 30,
    introspection: {
      clientId: issuer.introspectionClient.id,
      clientSecret: issuer.introspectionClient.secret,
      ...more,
    },
  };
}

/** An opaque token for this audience, `claims` on top. */
const opaque = (claims: Record<string, unknown> = {}) =>
  issuer.opaque({ sub: 'alice', aud: AUDIENCE, scope: 'mcp:tools', client_id: 'cli', ...claims });

const connect = (bearer: string, era: 'legacy' | 'modern') =>
  connectWithToken(http.url, bearer, era, clients);

function post(bearer: string): Promise<Response> {
  return fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${bearer}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
}

const introspections = () => issuer.hits.get('/introspect') ?? 0;

beforeAll(async () => {
  issuer = await startLocalIssuer();
  host = createHost({
    config: parseConfig('[plugins.workspace]\nroot = "."\n', '/test/foresight.toml', process.cwd()),
    logger,
    plugins: [whoami],
  });
  // No endpoint given: it is found as introspection_endpoint in the issuer's metadata.
  http = await host.serveHttp({ port: 0, oauth: oauthOptions() });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await host.close();
  await issuer.close();
});

afterEach(() => {
  issuer.introspectionStatus = undefined;
  vi.useRealTimers();
});

describe('an opaque token over HTTP', () => {
  it('serves a 2025 client and a 2026-07-28 client, its subject the principal, asked once per token', async () => {
    const [alice, bob] = [opaque(), opaque({ sub: 'bob' })];
    const legacy = await connect(alice, 'legacy');
    const modern = await connect(bob, 'modern');
    expect(legacy.getProtocolEra()).toBe('legacy');
    expect(modern.getProtocolEra()).toBe('modern');
    const issuerHost = new URL(issuer.issuer).host;
    expect(textOf(await legacy.callTool({ name: 'whoami__principal', arguments: {} }))).toBe(
      `sub:${issuerHost}:alice`,
    );
    expect(textOf(await modern.callTool({ name: 'whoami__principal', arguments: {} }))).toBe(
      `sub:${issuerHost}:bob`,
    );
    // Every modern request carries the token again; the answers come from the cache.
    const asked = introspections();
    expect(asked).toBe(2);
    for (let i = 0; i < 3; i++) await modern.listTools();
    expect(introspections()).toBe(asked);
    expect(issuer.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
  });

  it('a JWT is still verified locally, never introspected', async () => {
    const asked = introspections();
    const jwt = await issuer.sign({ sub: 'carol', aud: AUDIENCE });
    const client = await connect(jwt, 'modern');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(introspections()).toBe(asked);
  });

  it.each([
    ['an unknown token', () => 'never-issued-opaque-token', /the token is not active/],
    [
      'a revoked token',
      () => {
        const token = opaque();
        issuer.revoke(token);
        return token;
      },
      /the token is not active/,
    ],
    ['another audience', () => opaque({ aud: ['https://other.test/mcp'] }), /another resource \(aud\)/],
    ['another issuer', () => opaque({ iss: 'https://evil.test' }), /another issuer \(iss\)/],
    ['expired beyond the skew', () => opaque({ exp: now() - 3600 }), /expired/],
    ['not valid yet', () => opaque({ nbf: now() + 3600 }), /not valid yet/],
    ['no subject', () => opaque({ sub: undefined }), /no subject/],
  ])('%s: 401 invalid_token with the reason, and no trace of the token', async (_what, make, why) => {
    const token = make();
    const response = await post(token);
    const text = await response.text();
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"/);
    expect(challenge).toMatch(why);
    expect(text).toMatch(why);
    expect(text + challenge).not.toContain(token);
  });

  it('a refused token is asked again next time (inactive answers are not remembered)', async () => {
    const token = opaque();
    issuer.revoke(token);
    const asked = introspections();
    for (let i = 0; i < 2; i++) {
      const response = await post(token);
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
    expect(introspections()).toBe(asked + 2);
  });

  it('503 while the issuer answers 5xx, served again once it recovers', async () => {
    const token = opaque({ sub: 'dave' });
    issuer.introspectionStatus = 502;
    const down = await post(token);
    expect(down.status).toBe(503);
    expect(await down.text()).toMatch(/introspection endpoint answered HTTP 502/);
    issuer.introspectionStatus = undefined;
    const up = await post(token);
    expect(up.status).toBe(200);
    await up.body?.cancel();
  });
});

describe('the introspection client secret', () => {
  it('a wrong secret: 503 for the caller (its token is not at fault), naming the keys to check, never the secret', async () => {
    const wrong = `wrong-${issuer.introspectionClient.secret}`;
    const other = createHost({
      config: parseConfig('[plugins.workspace]\nroot = "."\n', '/test/foresight.toml', process.cwd()),
      logger,
      plugins: [whoami],
    });
    const serving = await other.serveHttp({ port: 0, oauth: oauthOptions({ clientSecret: wrong }) });
    try {
      const response = await fetch(serving.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${opaque()}`,
        },
        body: '{}',
      });
      const text = await response.text();
      expect(response.status).toBe(503);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(text).toMatch(/refused this server's client credentials .*introspection_client_secret_env/);
      expect(text).not.toContain(wrong);
      const warned = logger.records.filter((r) => JSON.stringify(r).includes('client credentials'));
      expect(warned.length).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
    // Registered for redaction when served: the secret, and the Basic credential it travels in.
    expect(redactSecrets(`x ${wrong} y`)).toBe('x [redacted] y');
    const basic = Buffer.from(`${issuer.introspectionClient.id}:${wrong}`).toString('base64');
    expect(redactSecrets(`Authorization: Basic ${basic}`)).not.toContain(basic);
  });

  it('never appears in a log record, and no token handed out does either', () => {
    const logged = JSON.stringify(logger.records);
    expect(logged).not.toContain(issuer.introspectionClient.secret);
    expect(logged).not.toMatch(/Basic [A-Za-z0-9+/=]{12,}/);
  });
});

describe('createIntrospectionVerifier', () => {
  const verifier = (more: Partial<OAuthResourceOptions['introspection']> = {}) => {
    const options = oauthOptions({ endpoint: issuer.introspectionEndpoint, ...more });
    return createIntrospectionVerifier({ ...options, introspection: options.introspection! });
  };

  it('gives the principal, scopes and client of an active answer', async () => {
    const answer = await verifier().verifyAccessToken(opaque({ scope: 'mcp:tools repo:read' }));
    expect(answer).toMatchObject({
      token: '',
      clientId: 'cli',
      scopes: ['mcp:tools', 'repo:read'],
      extra: { principal: `sub:${new URL(issuer.issuer).host}:alice`, subject: 'alice' },
    });
  });

  it('trusts an active answer for at most maxCacheS, then asks again (a revocation is seen by then)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const check = verifier({ maxCacheS: 60 });
    const token = opaque();
    const first = await check.verifyAccessToken(token);
    expect(first.expiresAt).toBe(now() + 60);
    const asked = introspections();
    vi.setSystemTime(Date.now() + 59_000);
    expect(await check.verifyAccessToken(token)).toBe(first);
    expect(introspections()).toBe(asked);
    issuer.revoke(token);
    vi.setSystemTime(Date.now() + 2_000);
    await expect(check.verifyAccessToken(token)).rejects.toThrow(/not active/);
    expect(introspections()).toBe(asked + 1);
  });

  it('remembers a token only until it expires (and the clock skew has passed) when that is sooner than the bound', async () => {
    const exp = now() + 5;
    const answer = await verifier({ maxCacheS: 600 }).verifyAccessToken(opaque({ exp }));
    expect(answer.expiresAt).toBe(exp + 30);
  });

  it('asks once for concurrent requests with one token', async () => {
    const check = verifier();
    const token = opaque();
    const asked = introspections();
    const answers = await Promise.all([1, 2, 3, 4].map(() => check.verifyAccessToken(token)));
    expect(new Set(answers).size).toBe(1);
    expect(introspections()).toBe(asked + 1);
  });

  it('an unreachable endpoint is unavailable (503), not a refused token', async () => {
    const rs = createResourceServer(
      oauthOptions({ endpoint: 'http://127.0.0.1:1/introspect', timeoutMs: 2_000 }),
      LISTENER,
    );
    const token = opaque();
    const verdict = await rs.authenticate(`Bearer ${token}`);
    expect(verdict).toEqual({
      ok: false,
      status: 503,
      message: 'unavailable: the token introspection endpoint could not be reached; retry later',
    });
  });

  it('an issuer whose metadata names no introspection endpoint is unavailable, and says so', async () => {
    const bare = await startLocalIssuer({ metadata: 'none' });
    try {
      const rs = createResourceServer({ ...oauthOptions(), issuer: bare.issuer }, LISTENER);
      expect(await rs.authenticate(`Bearer ${opaque()}`)).toMatchObject({
        ok: false,
        status: 503,
        message: expect.stringMatching(/names its introspection_endpoint/),
      });
    } finally {
      await bare.close();
    }
  });
});

describe('looksLikeJwt', () => {
  it('tells a compact JWS from an opaque token', async () => {
    expect(looksLikeJwt(await issuer.sign({ sub: 'x' }))).toBe(true);
    expect(looksLikeJwt(opaque())).toBe(false);
    expect(looksLikeJwt('a.b.c')).toBe(false);
    expect(looksLikeJwt('one.two')).toBe(false);
  });
});
