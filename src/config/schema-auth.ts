// The [auth] table: Foresight as an OAuth 2.1 resource server (issuer, audience, keys, algorithms, clock skew).
import { closedTable, intBetween, listOf, nonEmptyString, oneOf } from './leaf-schemas.js';

/** The signature algorithms a token may use; `none` is not one of them, whatever the file says. */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/** Asymmetric algorithms only: a shared-secret (HS*) key would let anyone who can verify also sign. */
export const DEFAULT_JWT_ALGORITHMS: readonly JwtAlgorithm[] = ['RS256', 'ES256', 'PS256', 'EdDSA'];
export const DEFAULT_CLOCK_SKEW_S = 30;

const HTTP_URL = 'an http(s) URL such as "https://auth.example.com"';

const httpUrl = (what = HTTP_URL) =>
  nonEmptyString(what).refine(
    (text) => {
      try {
        const url = new URL(text);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    },
    { error: `expected ${what}` },
  );

export const AuthConfigSchema = closedTable({
  issuer: httpUrl(),
  audience: nonEmptyString(
    'the resource identifier tokens are issued for, such as "https://mcp.example.com/mcp"',
  ),
  jwks_uri: httpUrl().optional(),
  algorithms: listOf(oneOf(JWT_ALGORITHMS), 'an array of signature algorithms such as ["RS256", "ES256"]')
    .min(1, { error: 'expected at least one signature algorithm' })
    .optional(),
  clock_skew_s: intBetween(0, 600).default(DEFAULT_CLOCK_SKEW_S),
  scopes_supported: listOf(nonEmptyString('a scope'), 'an array of scopes').optional(),
}).transform((raw): AuthConfig => ({
  issuer: raw.issuer,
  audience: raw.audience,
  ...(raw.jwks_uri === undefined ? {} : { jwksUri: raw.jwks_uri }),
  algorithms: raw.algorithms ?? [...DEFAULT_JWT_ALGORITHMS],
  clockSkewS: raw.clock_skew_s,
  ...(raw.scopes_supported === undefined ? {} : { scopesSupported: raw.scopes_supported }),
}));

export interface AuthConfig {
  /** The authorization server's issuer identifier; tokens must carry it as `iss`. */
  issuer: string;
  /** This server's resource identifier (RFC 8707); tokens must name it in `aud`. */
  audience: string;
  /** Where the signing keys are; default: `jwks_uri` of the issuer's metadata (RFC 8414, then OpenID discovery). */
  jwksUri?: string;
  /** Accepted signature algorithms; default RS256, ES256, PS256, EdDSA. Never `none`, never HS*. */
  algorithms: JwtAlgorithm[];
  /** Tolerance for `exp` and `nbf`; default 30 s. */
  clockSkewS: number;
  /** Scopes advertised in the protected resource metadata; default none listed. */
  scopesSupported?: string[];
}
