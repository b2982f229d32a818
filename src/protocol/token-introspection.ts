// Checks opaque (non-JWT) access tokens at the issuer's introspection endpoint (RFC 7662), with the same rules and
// the same principal as a JWT; positive answers are remembered briefly by the token's hash.
import { createHash } from 'node:crypto';
import { OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { decodeProtectedHeader } from 'jose';
import { LRUCache } from 'lru-cache';
import { discoverIssuerEndpoint } from './issuer-discovery.js';
import { type VerifiedToken, principalOfSubject } from './jwt-verifier.js';

export interface IntrospectionOptions {
  /** Default: `introspection_endpoint` of the issuer's metadata, found on the first opaque token. */
  endpoint?: string;
  /** Foresight's client credentials at the authorization server, sent as HTTP Basic (RFC 6749 §2.3.1). */
  clientId: string;
  clientSecret: string;
  /** How long one introspection request may take; default 5000 ms. */
  timeoutMs?: number;
  /**
   * How long an active answer is trusted, at most (less when the token expires sooner); default 60 s. A token the
   * issuer revokes keeps working here for up to that long: the price of not asking on every request.
   */
  maxCacheS?: number;
  /** Active answers remembered (by the token's SHA-256 hash, never the token); default 10000. */
  maxCachedTokens?: number;
}

export interface IntrospectionPolicy {
  issuer: string;
  audience: string;
  clockSkewS: number;
  introspection: IntrospectionOptions;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_CACHE_S = 60;
const DEFAULT_MAX_CACHED_TOKENS = 10_000;

/** `application/x-www-form-urlencoded`, which RFC 6749 §2.3.1 applies to both halves of the Basic credential. */
const formEncode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');

/** The user and password halves of the Basic credential as sent, so that they can be registered for redaction. */
export function basicCredentialParts(
  clientId: string,
  clientSecret: string,
): { user: string; secret: string } {
  return { user: formEncode(clientId), secret: formEncode(clientSecret) };
}

/** A compact JWS (three parts, a JSON header naming `alg`) is verified locally; anything else is opaque. */
export function looksLikeJwt(token: string): boolean {
  if (token.split('.').length !== 3) return false;
  try {
    return typeof decodeProtectedHeader(token).alg === 'string';
  } catch {
    return false;
  }
}

const invalid = (description: string) => new OAuthError(OAuthErrorCode.InvalidToken, description);
const unavailable = (description: string) =>
  new OAuthError(OAuthErrorCode.TemporarilyUnavailable, description);

interface IntrospectionAnswer {
  active?: unknown;
  iss?: unknown;
  aud?: unknown;
  exp?: unknown;
  nbf?: unknown;
  sub?: unknown;
  scope?: unknown;
  client_id?: unknown;
}

/** The endpoint's answer to `token`; only transport and client-authentication failures throw (503, never 401). */
async function ask(
  endpoint: string,
  token: string,
  options: IntrospectionOptions,
): Promise<IntrospectionAnswer> {
  const { user, secret } = basicCredentialParts(options.clientId, options.clientSecret);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch {
    throw unavailable('the token introspection endpoint could not be reached');
  }
  // A refused client is this server's misconfiguration, not the caller's token: answering 401 would send the
  // client to fetch a new token in a loop, so it is a 503 and a warning in the log.
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw unavailable(
      `the token introspection endpoint refused this server's client credentials (HTTP ${response.status}; check auth.introspection_client_id and auth.introspection_client_secret_env)`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw unavailable(`the token introspection endpoint answered HTTP ${response.status}`);
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw unavailable('the token introspection endpoint did not answer JSON');
  }
  if (
    typeof answer !== 'object' ||
    answer === null ||
    typeof (answer as IntrospectionAnswer).active !== 'boolean'
  )
    throw unavailable('the token introspection endpoint answered without a boolean "active"');
  return answer as IntrospectionAnswer;
}

function scopesOf(scope: unknown): string[] {
  return typeof scope === 'string' ? scope.split(' ').filter((s) => s !== '') : [];
}

/** What an active answer grants, after the same checks a JWT gets; `cacheUntilS` bounds how long it is trusted. */
function judge(
  answer: IntrospectionAnswer,
  policy: IntrospectionPolicy,
  nowS: number,
  untilS: number,
): VerifiedToken {
  if (answer.active !== true) throw invalid('the token is not active');
  if (answer.iss !== undefined && answer.iss !== policy.issuer)
    throw invalid('the token was issued by another issuer (iss)');
  if (answer.aud !== undefined) {
    const audiences = Array.isArray(answer.aud) ? answer.aud : [answer.aud];
    if (!audiences.includes(policy.audience))
      throw invalid('the token was issued for another resource (aud)');
  }
  const exp = typeof answer.exp === 'number' ? answer.exp : undefined;
  if (exp !== undefined && exp + policy.clockSkewS <= nowS) throw invalid('the token has expired');
  if (typeof answer.nbf === 'number' && answer.nbf - policy.clockSkewS > nowS)
    throw invalid('the token is not valid yet');
  if (typeof answer.sub !== 'string' || answer.sub === '') throw invalid('the token names no subject (sub)');
  const principal = principalOfSubject(policy.issuer, answer.sub);
  return {
    token: '',
    clientId: typeof answer.client_id === 'string' ? answer.client_id : principal,
    scopes: scopesOf(answer.scope),
    // Without exp the issuer vouches for now only: it is trusted for the cache bound, then asked again.
    // With exp, accepted until the skew has passed too (as a JWT is).
    expiresAt: Math.min(exp === undefined ? untilS : exp + policy.clockSkewS, untilS),
    extra: { principal, subject: answer.sub },
  };
}

/** An OAuthTokenVerifier for opaque tokens: one request to the introspection endpoint per token per cache bound. */
export function createIntrospectionVerifier(policy: IntrospectionPolicy): OAuthTokenVerifier {
  const options = policy.introspection;
  const maxCacheS = options.maxCacheS ?? DEFAULT_MAX_CACHE_S;
  const cache = new LRUCache<string, VerifiedToken>({
    max: options.maxCachedTokens ?? DEFAULT_MAX_CACHED_TOKENS,
  });
  // Concurrent requests with one token share one introspection request.
  const pending = new Map<string, Promise<VerifiedToken>>();
  let endpoint: Promise<string> | undefined;
  const endpointOf = () =>
    (endpoint ??= (
      options.endpoint === undefined
        ? discoverIssuerEndpoint(policy.issuer, 'introspection_endpoint')
        : Promise.resolve(options.endpoint)
    ).catch((error: unknown) => {
      // A failed discovery is tried again by the next token, not remembered.
      endpoint = undefined;
      throw error;
    }));

  const introspect = async (key: string, token: string): Promise<VerifiedToken> => {
    const answer = await ask(await endpointOf(), token, options);
    const nowS = Math.floor(Date.now() / 1000);
    // Inactive and refused answers are not remembered: a token only ever becomes inactive, and a flood of
    // made-up tokens would fill the cache with entries no one asks for again.
    const verified = judge(answer, policy, nowS, nowS + maxCacheS);
    cache.set(key, verified, { ttl: Math.max(1, verified.expiresAt! * 1000 - Date.now()) });
    return verified;
  };

  return {
    verifyAccessToken(token) {
      const key = createHash('sha256').update(token).digest('base64url');
      const known = cache.get(key);
      if (known && known.expiresAt! * 1000 > Date.now()) return Promise.resolve(known);
      let asked = pending.get(key);
      if (asked === undefined) {
        asked = introspect(key, token).finally(() => pending.delete(key));
        pending.set(key, asked);
      }
      return asked;
    },
  };
}

/** JWTs to `jwt`, every other token to `opaque` (introspection). */
export function byTokenForm(jwt: OAuthTokenVerifier, opaque: OAuthTokenVerifier): OAuthTokenVerifier {
  return {
    verifyAccessToken: (token) =>
      looksLikeJwt(token) ? jwt.verifyAccessToken(token) : opaque.verifyAccessToken(token),
  };
}
