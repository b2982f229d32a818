// The MCP SDK v2 client's own OAuth support driven against Foresight and the local issuer, as a real interactive
// client would: 401 with resource_metadata, protected resource metadata from Foresight, the issuer's metadata,
// dynamic client registration, authorization code with PKCE S256 and the RFC 8707 resource, then tools listed and
// called with the token, for a 2025 client (a session) and a 2026-07-28 client.
import {
  Client,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { HttpServing } from '../src/protocol/index.js';
import { freePort } from './support/everything-http.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { type LocalIssuer, startLocalIssuer } from './support/local-issuer.js';
import { whoami } from './support/oauth-rig.js';
import { MODERN_VERSION } from './support/modern-wire.js';

const REDIRECT_URL = 'http://127.0.0.1:1/oauth/callback';

let issuer: LocalIssuer;
let host: ForesightHost;
let http: HttpServing;
const logger = createMemoryLogger();
const clients: Client[] = [];

/**
 * An interactive client's provider kept in memory. Its "user agent" follows the authorization URL without
 * following the redirect back, and keeps the callback's query, as a browser handing the callback to the app would.
 */
class InMemoryOAuthProvider implements OAuthClientProvider {
  private client?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';
  private discovery?: OAuthDiscoveryState;
  readonly expectedState = `state-${Math.random().toString(36).slice(2)}`;
  /** The callback's query (code, state, iss) once the user agent came back. */
  callback?: URLSearchParams;
  authorizationUrl?: URL;

  get redirectUrl(): string {
    return REDIRECT_URL;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'foresight-e2e',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state(): string {
    return this.expectedState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrl = url;
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    this.callback = new URL(response.headers.get('location')!).searchParams;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

const options = (era: 'legacy' | 'modern') =>
  era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {};

/** A fetch that notes each request the client makes (`METHOD url → status`), OAuth ones included. */
function recordingFetch(seen: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    seen.push(`${init?.method ?? 'GET'} ${url} → ${response.status}`);
    return response;
  };
}

/** Connects with no token, authorizes as `user` when refused, and connects again: what an MCP host app does. */
async function authorizeAndConnect(era: 'legacy' | 'modern', user: string, seen: string[]) {
  issuer.flows.user = user;
  const provider = new InMemoryOAuthProvider();
  const first = new Client({ name: `sdk-oauth-${era}`, version: '1.0.0' }, options(era));
  const transport = new StreamableHTTPClientTransport(new URL(http.url), {
    authProvider: provider,
    fetch: recordingFetch(seen),
  });
  const refused = await first.connect(transport).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(UnauthorizedError);
  await first.close();
  expect(provider.callback?.get('state')).toBe(provider.expectedState);
  await transport.finishAuth(provider.callback!);

  const client = new Client({ name: `sdk-oauth-${era}`, version: '1.0.0' }, options(era));
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider }));
  return { client, provider };
}

beforeAll(async () => {
  issuer = await startLocalIssuer();
  // The resource identifier is Foresight's own URL, which the client checks the metadata's `resource` against.
  const port = await freePort();
  host = createHost({
    config: parseConfig('[plugins.workspace]\nroot = "."\n', '/test/foresight.toml', process.cwd()),
    logger,
    plugins: [whoami],
  });
  http = await host.serveHttp({
    port,
    oauth: {
      issuer: issuer.issuer,
      audience: `http://127.0.0.1:${port}/mcp`,
      algorithms: ['ES256'],
      clockSkewS: 30,
      scopesSupported: ['mcp:tools'],
    },
  });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await host.close();
  await issuer.close();
});

describe.each(['legacy', 'modern'] as const)('an SDK v2 client of the %s era', (era) => {
  it('discovers Foresight and the issuer, registers, authorizes with PKCE for this resource, then lists and calls tools', async () => {
    const user = `user-${era}`;
    const before = {
      register: issuer.hits.get('/register') ?? 0,
      token: issuer.hits.get('/token') ?? 0,
      tokens: issuer.flows.issued.length,
    };
    const seen: string[] = [];
    const { client, provider } = await authorizeAndConnect(era, user, seen);
    expect(client.getProtocolEra()).toBe(era);

    // The discovery a real client goes through, in order: refused by Foresight, Foresight's protected resource
    // metadata (the address its challenge named), the issuer's metadata, registration, then (after the user
    // agent's round trip to /authorize) the code redeemed at the token endpoint.
    const prm = new URL('/.well-known/oauth-protected-resource/mcp', http.url).toString();
    const steps = [
      `POST ${http.url} → 401`,
      `GET ${prm} → 200`,
      `GET ${issuer.issuer}/.well-known/oauth-authorization-server → 200`,
      `POST ${issuer.issuer}/register → 201`,
      `POST ${issuer.issuer}/token → 200`,
    ];
    expect(seen).toEqual(steps);

    // What the client asked the issuer for: PKCE S256, the scope of the challenge, Foresight as the resource.
    const asked = provider.authorizationUrl!.searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get('scope')).toBe('mcp:tools');
    expect(asked.get('resource')).toBe(http.url);
    expect(issuer.flows.resources.at(-1)).toBe(http.url);
    expect(issuer.hits.get('/register')).toBe(before.register + 1);
    expect(issuer.hits.get('/token')).toBe(before.token + 1);
    expect(issuer.flows.issued.length).toBe(before.tokens + 1);

    // The token the client holds is the one the issuer made for this resource, and Foresight serves it.
    expect(provider.tokens()?.access_token).toBe(issuer.flows.issued.at(-1));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('whoami__principal');
    const principal = textOf(await client.callTool({ name: 'whoami__principal', arguments: {} }));
    expect(principal).toBe(`sub:${new URL(issuer.issuer).host}:${user}`);
  });
});

describe('what the client discovered', () => {
  it('the 401 names the protected resource metadata, which names the issuer and the resource', async () => {
    const refused = await fetch(http.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(new URL('/.well-known/oauth-protected-resource/mcp', http.url).toString());
    expect(await (await fetch(metadataUrl!)).json()).toMatchObject({
      resource: http.url,
      authorization_servers: [issuer.issuer],
    });
  });

  it('no access token the issuer handed out reaches a log record', () => {
    const logged = JSON.stringify(logger.records);
    expect(issuer.flows.issued.length).toBe(2);
    for (const token of issuer.flows.issued) expect(logged).not.toContain(token);
  });
});
