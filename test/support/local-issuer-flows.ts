// What a real MCP client needs of the local issuer: dynamic client registration (RFC 7591), an authorization
// endpoint that consents at once and redirects back with a code (PKCE S256 required), and a token endpoint that
// redeems it for a JWT whose `aud` is the requested resource (RFC 8707).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface AuthorizationFlows {
  /** The person who consents at /authorize: the `sub` of the tokens issued; default "alice". */
  user: string;
  /** Every access token /token handed out, to look for in logs. */
  readonly issued: string[];
  /** The `resource` each token request named, in order. */
  readonly resources: (string | null)[];
  /** The RFC 8414 fields these endpoints add to the issuer's metadata. */
  metadata(base: string): Record<string, unknown>;
  /** Answers `path` when it is one of these endpoints; false otherwise. */
  handle(path: string, req: IncomingMessage, res: ServerResponse): boolean;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string | null;
  scope: string | null;
  user: string;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
  json(res, status, { error, error_description: description });

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `sign` signs an access token's claims with the issuer's current key; `base` is the issuer's URL. */
export function createAuthorizationFlows(
  base: () => string,
  sign: (claims: Record<string, unknown>) => Promise<string>,
): AuthorizationFlows {
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, Grant>();

  const register = async (req: IncomingMessage, res: ServerResponse) => {
    const metadata = JSON.parse(await readBody(req)) as { redirect_uris?: unknown } & Record<string, unknown>;
    const redirectUris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.map(String) : [];
    if (redirectUris.length === 0)
      return oauthError(res, 400, 'invalid_redirect_uri', 'redirect_uris is required');
    const clientId = `client-${randomBytes(8).toString('hex')}`;
    clients.set(clientId, { redirectUris });
    json(res, 201, {
      ...metadata,
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      token_endpoint_auth_method: 'none',
    });
  };

  const authorize = (req: IncomingMessage, res: ServerResponse) => {
    const query = new URL(req.url ?? '/', base()).searchParams;
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client = clients.get(clientId);
    if (!client || !client.redirectUris.includes(redirectUri))
      return oauthError(res, 400, 'invalid_request', 'unknown client or redirect_uri');
    if (query.get('response_type') !== 'code' || query.get('code_challenge_method') !== 'S256')
      return oauthError(res, 400, 'invalid_request', 'response_type code with PKCE S256 is required');
    const code = randomBytes(16).toString('base64url');
    codes.set(code, {
      clientId,
      redirectUri,
      challenge: query.get('code_challenge') ?? '',
      resource: query.get('resource'),
      scope: query.get('scope'),
      user: flows.user,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    back.searchParams.set('iss', base());
    res.writeHead(302, { location: back.toString() }).end();
  };

  const token = async (req: IncomingMessage, res: ServerResponse) => {
    const form = new URLSearchParams(await readBody(req));
    if (form.get('grant_type') !== 'authorization_code')
      return oauthError(res, 400, 'unsupported_grant_type', 'only authorization_code');
    const code = form.get('code') ?? '';
    const grant = codes.get(code);
    // A code is redeemed once (RFC 6749 §4.1.2).
    codes.delete(code);
    if (!grant || grant.clientId !== form.get('client_id') || grant.redirectUri !== form.get('redirect_uri'))
      return oauthError(res, 400, 'invalid_grant', 'unknown code, or another client or redirect_uri');
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
      return oauthError(res, 400, 'invalid_grant', 'the PKCE code_verifier does not match');
    const resource = form.get('resource') ?? grant.resource;
    flows.resources.push(form.get('resource'));
    if (grant.resource !== null && resource !== grant.resource)
      return oauthError(res, 400, 'invalid_target', 'resource differs from the authorization request');
    const claims = {
      sub: grant.user,
      client_id: grant.clientId,
      ...(resource === null ? {} : { aud: resource }),
      ...(grant.scope === null ? {} : { scope: grant.scope }),
    };
    const accessToken = await sign(claims);
    flows.issued.push(accessToken);
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      ...(grant.scope === null ? {} : { scope: grant.scope }),
    });
  };

  const flows: AuthorizationFlows = {
    user: 'alice',
    issued: [],
    resources: [],
    metadata: (url) => ({
      authorization_endpoint: `${url}/authorize`,
      token_endpoint: `${url}/token`,
      registration_endpoint: `${url}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
    }),
    handle(path, req, res) {
      const fail = (error: unknown) => oauthError(res, 500, 'server_error', String(error));
      if (path === '/register' && req.method === 'POST') register(req, res).catch(fail);
      else if (path === '/authorize' && req.method === 'GET') authorize(req, res);
      else if (path === '/token' && req.method === 'POST') token(req, res).catch(fail);
      else return false;
      return true;
    },
  };
  return flows;
}
