// Foresight served over HTTP with [auth] against a real local issuer, and the ways tests reach it: tokens from the
// issuer, SDK v2 clients of both eras (whose token can change mid-session, for a step-up), raw POSTs.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  type CreateHostOptions,
  type ForesightHost,
  type OAuthOptions,
  createHost,
} from '../../src/create-host.js';
import { definePlugin } from '../../src/contract/index.js';
import type { HttpServing } from '../../src/protocol/index.js';
import { type IssuerKey, type LocalIssuer, startLocalIssuer } from './local-issuer.js';
import { MODERN_VERSION } from './modern-wire.js';

export const AUDIENCE = 'https://foresight.test/mcp';
export const METADATA_URL = 'https://foresight.test/.well-known/oauth-protected-resource/mcp';
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'oauth-e2e', version: '1' },
  },
});

/** A plugin that answers with the principal its RequestContext names. */
export const whoami = definePlugin({
  id: 'whoami',
  version: '1.0.0',
  build: () => ({
    tools: () => [{ name: 'principal', inputSchema: { type: 'object' } }],
    callTool: async (_name, _args, ctx) => ({ content: [{ type: 'text', text: String(ctx.principal) }] }),
  }),
});

/** A client whose bearer token the test can swap: each request sends the current one. */
export interface TokenClient {
  client: Client;
  use(bearer: string): void;
}

export interface OAuthRig {
  issuer: LocalIssuer;
  host: ForesightHost;
  http: HttpServing;
  /** Every token handed out (and any a test adds), to look for in logs and answers. */
  tokens: string[];
  /** A token for `alice` and the audience, `claims` over those; kept in `tokens`. */
  token(claims?: Record<string, unknown>, key?: IssuerKey): Promise<string>;
  connect(bearer: string, era?: 'legacy' | 'modern'): Promise<Client>;
  /** A client that asks for its token before each request, so a test can step it up on the same session. */
  connectSwappable(bearer: string, era?: 'legacy' | 'modern'): Promise<TokenClient>;
  /** A raw POST (default: a 2025 initialize) with JSON and both answer types accepted. */
  post(headers?: Record<string, string>, body?: string): Promise<Response>;
  close(): Promise<void>;
}

export interface OAuthRigOptions {
  /** `createHost` options (config, plugins, logger, …). */
  host: CreateHostOptions;
  /** Over the defaults: the local issuer, AUDIENCE, ES256/RS256, 30 s skew, no JWKS cooldown. */
  oauth?: Partial<OAuthOptions>;
}

function clientFor(era: 'legacy' | 'modern'): Client {
  return new Client(
    { name: `oauth-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {},
  );
}

/**
 * An SDK v2 client of `era` connected to `url` with `bearer` on every request; pushed onto `opened` before it
 * connects, so a test's cleanup closes it even when connecting fails.
 */
export async function connectWithToken(
  url: string | URL,
  bearer: string,
  era: 'legacy' | 'modern' = 'legacy',
  opened: Client[] = [],
): Promise<Client> {
  const client = clientFor(era);
  opened.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

export async function startOAuthRig(options: OAuthRigOptions): Promise<OAuthRig> {
  const issuer = await startLocalIssuer();
  const host = createHost(options.host);
  const tokens: string[] = [];
  const clients: Client[] = [];
  let http: HttpServing;
  try {
    http = await host.serveHttp({
      port: 0,
      oauth: {
        issuer: issuer.issuer,
        audience: AUDIENCE,
        algorithms: ['ES256', 'RS256'],
        clockSkewS: 30,
        // The key set is fetched again as soon as a token names a key it lacks: the rotation test needs no wait.
        jwksCooldownMs: 0,
        ...options.oauth,
      },
    });
  } catch (error) {
    await host.close();
    await issuer.close();
    throw error;
  }
  const url = new URL(http.url);
  const rig: OAuthRig = {
    issuer,
    host,
    http,
    tokens,
    async token(claims = {}, key = issuer.current) {
      const signed = await issuer.sign({ sub: 'alice', aud: AUDIENCE, ...claims }, { key });
      tokens.push(signed);
      return signed;
    },
    connect: (bearer, era = 'legacy') => connectWithToken(url, bearer, era, clients),
    async connectSwappable(bearer, era = 'legacy') {
      let current = bearer;
      const client = clientFor(era);
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(url, { authProvider: { token: async () => current } }),
      );
      return { client, use: (next) => (current = next) };
    },
    post(headers = {}, body = INITIALIZE) {
      return fetch(http.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
    },
    async close() {
      await Promise.allSettled(clients.map((client) => client.close()));
      await host.close();
      await issuer.close();
    },
  };
  return rig;
}
