// The [auth] table: Foresight as an OAuth 2.1 resource server (issuer, audience, keys, algorithms, clock skew), and
// [auth.scopes]: the scopes a token needs to see and call the tools each glob matches.
import * as z from 'zod';
import { closedTable, intBetween, listOf, matching, nonEmptyString, oneOf } from './leaf-schemas.js';

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

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` or `\\`, so it fits a challenge's `scope="…"`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const scopeToken = () => matching(SCOPE_TOKEN, 'one scope such as "repo:read" (no spaces or quotes)');

/** `"gh__*" = "repo:read"`, or `"gh__*" = { read = "repo:read", write = "repo:write" }`. */
const ScopeRequirementSchema = z.union(
  [
    scopeToken(),
    closedTable(
      { read: scopeToken().optional(), write: scopeToken().optional() },
      'a table such as { read = "repo:read", write = "repo:write" }',
    ).refine((table) => table.read !== undefined || table.write !== undefined, {
      error: 'expected read, write or both',
    }),
  ],
  {
    error:
      'expected one scope such as "repo:read", or a table such as { read = "repo:read", write = "repo:write" }',
  },
);

/** Keys are globs over published tool names; `!` negation is refused, since it would guard every other tool. */
const ToolGlobSchema = matching(/^[^!\s]\S*$/, 'a glob over published tool names such as "gh__*"');

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
  scopes: z
    .record(ToolGlobSchema, ScopeRequirementSchema, {
      error: 'expected a table of tool globs, such as [auth.scopes] "gh__*" = "repo:read"',
    })
    .optional(),
}).transform((raw): AuthConfig => ({
  issuer: raw.issuer,
  audience: raw.audience,
  ...(raw.jwks_uri === undefined ? {} : { jwksUri: raw.jwks_uri }),
  algorithms: raw.algorithms ?? [...DEFAULT_JWT_ALGORITHMS],
  clockSkewS: raw.clock_skew_s,
  ...(raw.scopes_supported === undefined ? {} : { scopesSupported: raw.scopes_supported }),
  ...(raw.scopes === undefined || Object.keys(raw.scopes).length === 0
    ? {}
    : {
        toolScopes: Object.entries(raw.scopes).map(([glob, needs]) =>
          typeof needs === 'string'
            ? { glob, read: needs, write: undefined, line: 0 }
            : { glob, read: needs.read, write: needs.write, line: 0 },
        ),
      }),
}));

/**
 * One `[auth.scopes]` entry. Every tool the glob matches needs `read` (when set); a tool that may write needs
 * `write` too (when set). A one-string entry is `read` alone: every call of a matching tool needs it.
 */
export interface ToolScopeRule {
  /** A glob over published tool names (picomatch), as written. */
  glob: string;
  read: string | undefined;
  write: string | undefined;
  /** Line of the key in the config file; 0 when not from a file. */
  line: number;
}

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
  /** Scopes advertised in the protected resource metadata; default those `[auth.scopes]` names, else none. */
  scopesSupported?: string[];
  /** `[auth.scopes]`, in file order; absent when no tool is guarded by scope. */
  toolScopes?: ToolScopeRule[];
}
