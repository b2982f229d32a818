// The JWT verifier on its own against a local issuer: verified tokens remembered by hash until they expire,
// OpenID discovery, an explicit jwks_uri, algorithms outside the accepted list; the resource server's answers.
import { afterEach, describe, expect, it } from 'vitest';
import { createJwtVerifier, principalOfSubject } from '../src/protocol/jwt-verifier.js';
import { bearerChallenge, createResourceServer } from '../src/protocol/resource-server.js';
import { type LocalIssuer, startLocalIssuer } from './support/local-issuer.js';

const AUDIENCE = 'https://foresight.test/mcp';
const issuers: LocalIssuer[] = [];

async function issuerWith(options: Parameters<typeof startLocalIssuer>[0]) {
  const issuer = await startLocalIssuer(options);
  issuers.push(issuer);
  return issuer;
}

const verifierFor = (issuer: LocalIssuer, more: { jwksUri?: string; algorithms?: string[] } = {}) =>
  createJwtVerifier({
    issuer: issuer.issuer,
    audience: AUDIENCE,
    algorithms: more.algorithms ?? ['ES256', 'RS256'],
    clockSkewS: 30,
    jwksCooldownMs: 0,
    ...(more.jwksUri === undefined ? {} : { jwksUri: more.jwksUri }),
  });

afterEach(async () => {
  await Promise.all(issuers.splice(0).map((issuer) => issuer.close()));
});

describe('createJwtVerifier', () => {
  it('remembers a verified token: asked again after its key left the key set, it answers without the keys', async () => {
    const issuer = await issuerWith({});
    const verifier = verifierFor(issuer);
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE, scope: 'mcp:tools repo:read' });
    const first = await verifier.verifyAccessToken(token);
    expect(first).toMatchObject({
      token: '',
      scopes: ['mcp:tools', 'repo:read'],
      extra: { principal: principalOfSubject(issuer.issuer, 'alice'), subject: 'alice' },
    });
    expect(first.extra?.['principal']).toBe(`sub:${new URL(issuer.issuer).host}:alice`);
    const fetched = issuer.hits.get('/jwks');
    await issuer.rotate();
    expect(await verifier.verifyAccessToken(token)).toBe(first);
    expect(issuer.hits.get('/jwks')).toBe(fetched);
    // A new verifier has no memory of it, and the key is gone.
    await expect(verifierFor(issuer).verifyAccessToken(token)).rejects.toThrow(/no key/);
  });

  it('finds the key set through OpenID discovery when there is no RFC 8414 metadata', async () => {
    const issuer = await issuerWith({ metadata: 'openid' });
    const token = await issuer.sign({ sub: 'bob', aud: AUDIENCE });
    await expect(verifierFor(issuer).verifyAccessToken(token)).resolves.toMatchObject({
      extra: { subject: 'bob' },
    });
    expect(issuer.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
    expect(issuer.hits.get('/.well-known/openid-configuration')).toBe(1);
  });

  it('uses jwks_uri as given, and says so when there is no metadata and none is given', async () => {
    const issuer = await issuerWith({ metadata: 'none' });
    const token = await issuer.sign({ sub: 'carol', aud: AUDIENCE });
    await expect(verifierFor(issuer).verifyAccessToken(token)).rejects.toThrow(/names its jwks_uri/);
    await expect(
      verifierFor(issuer, { jwksUri: issuer.jwksUri }).verifyAccessToken(token),
    ).resolves.toMatchObject({
      extra: { subject: 'carol' },
    });
  });

  it('refuses an algorithm it was not told to accept, and a token without sub', async () => {
    const issuer = await issuerWith({ alg: 'RS256' });
    const verifier = verifierFor(issuer, { jwksUri: issuer.jwksUri, algorithms: ['ES256'] });
    await expect(
      verifier.verifyAccessToken(await issuer.sign({ sub: 'dan', aud: AUDIENCE })),
    ).rejects.toThrow(/algorithm/);
    const rs = verifierFor(issuer, { jwksUri: issuer.jwksUri });
    await expect(rs.verifyAccessToken(await issuer.sign({ aud: AUDIENCE }))).rejects.toThrow(/sub/);
  });
});

describe('createResourceServer', () => {
  it('answers 503, not 401, while the issuer cannot be reached, and 401 with the challenge once the token is judged', async () => {
    const issuer = await issuerWith({});
    const token = await issuer.sign({ sub: 'erin', aud: 'https://other.test/mcp' });
    const options = { issuer: issuer.issuer, audience: AUDIENCE, algorithms: ['ES256'], clockSkewS: 30 };
    const down = createResourceServer(
      { ...options, jwksUri: 'http://127.0.0.1:1/jwks' },
      'http://127.0.0.1:3000/mcp',
    );
    const unreachable = await down.authenticate(`Bearer ${token}`);
    expect(unreachable).toMatchObject({ ok: false, status: 503 });
    expect(JSON.stringify(unreachable)).not.toContain(token);

    const up = createResourceServer(options, 'http://127.0.0.1:3000/mcp');
    expect(await up.authenticate(`Bearer ${token}`)).toEqual({
      ok: false,
      status: 401,
      challenge: `Bearer error="invalid_token", error_description="the token was issued for another resource (aud)", resource_metadata="https://foresight.test/.well-known/oauth-protected-resource/mcp"`,
      message: 'unauthorized: the token was issued for another resource (aud)',
    });
  });

  it('accepts a token that expired within the clock skew, and refuses one beyond it', async () => {
    const issuer = await issuerWith({});
    const server = createResourceServer(
      { issuer: issuer.issuer, audience: AUDIENCE, algorithms: ['ES256'], clockSkewS: 30 },
      'http://127.0.0.1:3000/mcp',
    );
    const nowS = Math.floor(Date.now() / 1000);
    const late = await issuer.sign({ sub: 'frank', aud: AUDIENCE, exp: nowS - 10 });
    expect(await server.authenticate(`Bearer ${late}`)).toMatchObject({ ok: true });
    // Asked again, it is answered from the verified-token cache: still within the skew.
    expect(await server.authenticate(`Bearer ${late}`)).toMatchObject({ ok: true });
    const gone = await issuer.sign({ sub: 'frank', aud: AUDIENCE, exp: nowS - 40 });
    expect(await server.authenticate(`Bearer ${gone}`)).toMatchObject({ ok: false, status: 401 });
  });

  it('builds the 403 insufficient_scope challenge that names the scope a step-up needs', () => {
    expect(
      bearerChallenge('https://mcp.example/.well-known/oauth-protected-resource/mcp', {
        error: 'insufficient_scope',
        description: 'gh__merge needs repo:write',
        scopes: ['repo:write'],
      }),
    ).toBe(
      'Bearer error="insufficient_scope", error_description="gh__merge needs repo:write", scope="repo:write", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"',
    );
  });
});
