// A small OAuth authorization server on loopback for tests: discovery metadata, a JWKS that can rotate, signing, and
// token introspection (RFC 7662) of the opaque tokens it hands out, and the authorization code flow a real MCP
// client drives (local-issuer-flows.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { type AuthorizationFlows, createAuthorizationFlows, readBody } from './local-issuer-flows.js';

export interface IssuerKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface LocalIssuer {
  /** The issuer identifier (its base URL). */
  readonly issuer: string;
  readonly jwksUri: string;
  /** Requests each path received, e.g. how often the key set was fetched. */
  readonly hits: Map<string, number>;
  /** The key new tokens are signed with by default. */
  current: IssuerKey;
  /** Signs `claims`, filling iss, iat and exp (an hour ahead) unless given; `kid` / `alg` pick another key. */
  sign(claims: JWTPayload, options?: { key?: IssuerKey }): Promise<string>;
  /** A new key made current and published; the old one is dropped from the JWKS unless `keepOld`. */
  rotate(options?: { alg?: string; keepOld?: boolean }): Promise<IssuerKey>;
  /** A key the JWKS does not publish, for forged tokens. */
  stranger(alg?: string): Promise<IssuerKey>;
  readonly introspectionEndpoint: string;
  /** The client credentials /introspect demands (HTTP Basic); anything else gets 401 invalid_client. */
  readonly introspectionClient: { id: string; secret: string };
  /** An opaque token /introspect answers `active: true` for, with `claims` (iss and an exp an hour ahead filled in unless given). */
  opaque(claims: Record<string, unknown>): string;
  /** Makes an opaque token inactive. */
  revoke(token: string): void;
  /** When set, /introspect answers with this HTTP status and no body (an issuer in trouble). */
  introspectionStatus: number | undefined;
  /** Registration, authorization (consent at once) and token endpoints, and what they handed out. */
  readonly flows: AuthorizationFlows;
  close(): Promise<void>;
}

async function makeKey(alg: string): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/**
 * Starts an issuer on 127.0.0.1. `metadata` picks which discovery document it serves: RFC 8414's, OpenID's, or
 * none (then the verifier needs jwks_uri).
 */
export async function startLocalIssuer(
  options: { alg?: string; metadata?: 'oauth' | 'openid' | 'none' } = {},
): Promise<LocalIssuer> {
  const metadata = options.metadata ?? 'oauth';
  let published: IssuerKey[] = [await makeKey(options.alg ?? 'ES256')];
  const hits = new Map<string, number>();
  const opaqueTokens = new Map<string, Record<string, unknown>>();
  const introspectionClient = {
    id: 'foresight-rs',
    secret: `s3cret-${randomBytes(12).toString('base64url')}`,
  };
  let base = '';
  const flows = createAuthorizationFlows(
    () => base,
    (claims) => issuer.sign(claims),
  );
  const introspect = async (req: IncomingMessage, res: ServerResponse) => {
    if (issuer.introspectionStatus !== undefined) return res.writeHead(issuer.introspectionStatus).end();
    const expected = `Basic ${Buffer.from(`${introspectionClient.id}:${introspectionClient.secret}`).toString('base64')}`;
    if (req.method !== 'POST' || req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic' });
      return res.end(JSON.stringify({ error: 'invalid_client' }));
    }
    const token = new URLSearchParams(await readBody(req)).get('token') ?? '';
    const claims = opaqueTokens.get(token);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(claims === undefined ? { active: false } : { active: true, ...claims }));
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const document = {
      issuer: base,
      jwks_uri: `${base}/jwks`,
      introspection_endpoint: `${base}/introspect`,
      ...flows.metadata(base),
    };
    if (flows.handle(path, req, res)) return;
    if (path === '/introspect') return void introspect(req, res);
    if (path === '/jwks') return json({ keys: published.map((key) => key.publicJwk) });
    if (path === '/.well-known/oauth-authorization-server' && metadata === 'oauth') return json(document);
    if (path === '/.well-known/openid-configuration' && metadata === 'openid') return json(document);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const issuer: LocalIssuer = {
    issuer: base,
    jwksUri: `${base}/jwks`,
    hits,
    current: published[0]!,
    async sign(claims, { key = issuer.current } = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: base, iat: now, exp: now + 3600, ...claims })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
        .sign(key.privateKey);
    },
    async rotate({ alg, keepOld = false } = {}) {
      const key = await makeKey(alg ?? issuer.current.alg);
      published = keepOld ? [...published, key] : [key];
      issuer.current = key;
      return key;
    },
    stranger: (alg) => makeKey(alg ?? issuer.current.alg),
    introspectionEndpoint: `${base}/introspect`,
    introspectionClient,
    opaque(claims) {
      const token = randomBytes(24).toString('base64url');
      opaqueTokens.set(token, { iss: base, exp: Math.floor(Date.now() / 1000) + 3600, ...claims });
      return token;
    },
    revoke: (token) => void opaqueTokens.delete(token),
    introspectionStatus: undefined,
    flows,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return issuer;
}

/** An unsigned token (`alg: none`), crafted by hand: jose will not make one. */
export function unsignedToken(claims: JWTPayload): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}
