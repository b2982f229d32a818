// Foresight as an OAuth 2.1 resource server: who a request's access token names, the 401/403 challenges, and the
// protected resource metadata (RFC 9728) that tells a client which authorization server to ask.
import {
  OAuthError,
  OAuthErrorCode,
  type AuthInfo,
  getOAuthProtectedResourceMetadataUrl,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { type JwtVerifierOptions, type VerifiedToken, createJwtVerifier } from './jwt-verifier.js';
import {
  type IntrospectionOptions,
  byTokenForm,
  createIntrospectionVerifier,
} from './token-introspection.js';

export interface OAuthResourceOptions extends JwtVerifierOptions {
  /** Scopes advertised in the metadata; default none listed. */
  scopesSupported?: readonly string[];
  /** Opaque (non-JWT) tokens checked at the issuer's introspection endpoint (RFC 7662); default none: JWTs only. */
  introspection?: IntrospectionOptions;
}

export type Authentication =
  | { ok: true; principal: string; scopes: string[] }
  | { ok: false; status: 401 | 403 | 503; challenge?: string; message: string };

export interface ResourceServer {
  /** The paths the metadata document is served at (the bare well-known path and its path-suffixed forms). */
  readonly metadataPaths: ReadonlySet<string>;
  readonly metadataUrl: string;
  metadata(): Record<string, unknown>;
  authenticate(authorization: string | undefined): Promise<Authentication>;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

const quoted = (value: string) => value.replace(/[\\"]/g, (c) => `\\${c}`);

export interface ChallengeDetails {
  /** Absent when no token came (RFC 6750 §3.1). */
  error?: 'invalid_token' | 'insufficient_scope';
  description?: string;
  /** The scopes the request needs: those a step-up (403) asks for, or the ones a first token should carry. */
  scopes?: readonly string[];
}

/**
 * The `WWW-Authenticate` value of a refusal: no `error` when no token came, `invalid_token` with why when one was
 * refused, `insufficient_scope` with the scopes needed for a step-up (403).
 */
export function bearerChallenge(resourceMetadataUrl: string, details: ChallengeDetails = {}): string {
  const parts: string[] = [];
  if (details.error) parts.push(`error="${details.error}"`);
  if (details.description) parts.push(`error_description="${quoted(details.description)}"`);
  if (details.scopes?.length) parts.push(`scope="${quoted(details.scopes.join(' '))}"`);
  parts.push(`resource_metadata="${quoted(resourceMetadataUrl)}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** The metadata URL for the resource identifier when it is an http(s) URL, else for the listener's own URL. */
function metadataUrlFor(audience: string, listenerUrl: string): string {
  let resource: URL;
  try {
    resource = new URL(audience);
    if (resource.protocol !== 'https:' && resource.protocol !== 'http:') resource = new URL(listenerUrl);
  } catch {
    resource = new URL(listenerUrl);
  }
  return getOAuthProtectedResourceMetadataUrl(resource);
}

/** `listenerUrl` is the MCP endpoint as served here (e.g. http://127.0.0.1:3000/mcp). */
export function createResourceServer(options: OAuthResourceOptions, listenerUrl: string): ResourceServer {
  const jwt = createJwtVerifier(options);
  const { introspection } = options;
  const verifier = introspection
    ? byTokenForm(jwt, createIntrospectionVerifier({ ...options, introspection }))
    : jwt;
  const metadataUrl = metadataUrlFor(options.audience, listenerUrl);
  const metadataPaths = new Set([
    WELL_KNOWN,
    new URL(metadataUrl).pathname,
    new URL(getOAuthProtectedResourceMetadataUrl(new URL(listenerUrl))).pathname,
  ]);
  const document = {
    resource: options.audience,
    authorization_servers: [options.issuer],
    ...(options.scopesSupported === undefined ? {} : { scopes_supported: [...options.scopesSupported] }),
    bearer_methods_supported: ['header'],
  };

  // A client asks its first token for these (the spec's scope selection); absent, it falls back on the metadata.
  const scopes = options.scopesSupported?.length ? { scopes: options.scopesSupported } : {};

  return {
    metadataPaths,
    metadataUrl,
    metadata: () => document,
    async authenticate(authorization) {
      if (authorization === undefined || authorization === '')
        return {
          ok: false,
          status: 401,
          challenge: bearerChallenge(metadataUrl, { ...scopes }),
          message: 'unauthorized: this server needs an OAuth access token (Authorization: Bearer <token>)',
        };
      let info: AuthInfo;
      try {
        info = await verifyBearerToken(authorization, { verifier });
      } catch (error) {
        const refused =
          error instanceof OAuthError ? error : new OAuthError(OAuthErrorCode.ServerError, 'internal error');
        if (refused.code !== OAuthErrorCode.InvalidToken)
          return { ok: false, status: 503, message: `unavailable: ${refused.message}; retry later` };
        return {
          ok: false,
          status: 401,
          challenge: bearerChallenge(metadataUrl, {
            error: 'invalid_token',
            description: refused.message,
            ...scopes,
          }),
          message: `unauthorized: ${refused.message}`,
        };
      }
      const { principal } = (info as VerifiedToken).extra;
      return { ok: true, principal, scopes: info.scopes };
    },
  };
}
