// Verifies OAuth access tokens (JWT) for the [auth] resource server: signature, issuer, audience, lifetime, cached.
import { createHash } from 'node:crypto';
import {
  OAuthError,
  OAuthErrorCode,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors as jose, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { discoverJwksUri } from './issuer-discovery.js';

export interface JwtVerifierOptions {
  issuer: string;
  /** The resource identifier tokens must name in `aud`. */
  audience: string;
  /** Default: discovered from the issuer's metadata on the first token. */
  jwksUri?: string;
  /** Accepted `alg` values; `none` and HS* are never accepted even when listed. */
  algorithms: readonly string[];
  clockSkewS: number;
  /** How long after fetching the key set an unknown `kid` waits before the set is fetched again; default 30000 ms. */
  jwksCooldownMs?: number;
  /** Verified tokens remembered until they expire (by their SHA-256 hash, never the token); default 10000. */
  maxCachedTokens?: number;
}

/** What a verified token grants: its principal and scopes. The token itself is never kept. */
export interface VerifiedToken extends AuthInfo {
  extra: { principal: string; subject: string };
}

const DEFAULT_MAX_CACHED_TOKENS = 10_000;

/** `sub:<issuer host>:<sub>`: the issuer's host keeps two issuers' subjects apart, and tells a reader whose they are. */
export function principalOfSubject(issuer: string, subject: string): string {
  return `sub:${new URL(issuer).host}:${subject}`;
}

function scopesOf(payload: JWTPayload): string[] {
  const { scope, scp } = payload as { scope?: unknown; scp?: unknown };
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  return [];
}

const invalid = (description: string) => new OAuthError(OAuthErrorCode.InvalidToken, description);

/** A refusal a client may read: what was wrong, never the token nor the claims it carried. */
function refusal(error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  if (error instanceof jose.JWTExpired) return invalid('the token has expired');
  if (error instanceof jose.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return invalid('the token was issued for another resource (aud)');
    if (error.claim === 'iss') return invalid('the token was issued by another issuer (iss)');
    if (error.claim === 'nbf' || error.claim === 'iat') return invalid('the token is not valid yet');
    return invalid(`the token's ${error.claim} claim is not acceptable`);
  }
  if (error instanceof jose.JOSEAlgNotAllowed)
    return invalid('the token is signed with an algorithm not accepted here');
  if (error instanceof jose.JWSSignatureVerificationFailed) return invalid('the token signature is invalid');
  if (error instanceof jose.JWKSNoMatchingKey || error instanceof jose.JWKSMultipleMatchingKeys)
    return invalid("no key of the issuer's key set matches the token");
  if (error instanceof jose.JWKSTimeout || error instanceof jose.JWKSInvalid)
    return new OAuthError(OAuthErrorCode.TemporarilyUnavailable, "the issuer's key set could not be read");
  if (error instanceof jose.JOSEError) return invalid('the token is not a valid signed JWT');
  return new OAuthError(OAuthErrorCode.TemporarilyUnavailable, "the issuer's key set could not be read");
}

/** An OAuthTokenVerifier for JWT access tokens, for the SDK's `verifyBearerToken`. */
export function createJwtVerifier(options: JwtVerifierOptions): OAuthTokenVerifier {
  const algorithms = options.algorithms.filter((alg) => alg !== 'none' && !alg.startsWith('HS'));
  const cache = new LRUCache<string, VerifiedToken>({
    max: options.maxCachedTokens ?? DEFAULT_MAX_CACHED_TOKENS,
  });
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () =>
    (keys ??= (
      options.jwksUri === undefined ? discoverJwksUri(options.issuer) : Promise.resolve(options.jwksUri)
    )
      .then((uri) => createRemoteJWKSet(new URL(uri), { cooldownDuration: options.jwksCooldownMs ?? 30_000 }))
      .catch((error: unknown) => {
        // A failed discovery is tried again by the next token, not remembered.
        keys = undefined;
        throw error;
      }));

  const verify = async (token: string): Promise<VerifiedToken> => {
    const { payload } = await jwtVerify(token, await keySet(), {
      issuer: options.issuer,
      audience: options.audience,
      algorithms,
      clockTolerance: options.clockSkewS,
      requiredClaims: ['exp', 'sub'],
    });
    const subject = payload.sub!;
    const principal = principalOfSubject(options.issuer, subject);
    const clientId = (payload as { client_id?: unknown }).client_id ?? payload['azp'];
    return {
      // The token stays out of everything that outlives this check.
      token: '',
      clientId: typeof clientId === 'string' ? clientId : principal,
      scopes: scopesOf(payload),
      // Accepted until the skew has passed too: the SDK's bearer check compares this with its own clock, unskewed.
      expiresAt: payload.exp! + options.clockSkewS,
      extra: { principal, subject },
    };
  };

  return {
    async verifyAccessToken(token) {
      const key = createHash('sha256').update(token).digest('base64url');
      const known = cache.get(key);
      if (known && known.expiresAt! * 1000 > Date.now()) return known;
      let verified: VerifiedToken;
      try {
        verified = await verify(token);
      } catch (error) {
        throw refusal(error);
      }
      cache.set(key, verified, { ttl: Math.max(1, verified.expiresAt! * 1000 - Date.now()) });
      return verified;
    },
  };
}
