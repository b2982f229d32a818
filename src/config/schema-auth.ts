// The [auth] table: Foresight as an OAuth 2.1 resource server (issuer, audience, keys, algorithms, clock skew,
// introspection), and [auth.scopes]: the scopes a token needs to see and call the tools each glob matches.
import * as z from 'zod';
import { closedTable, intBetween, listOf, matching, nonEmptyString, oneOf } from './leaf-schemas.js';
import { ENV_NAME_PATTERN } from './schema-server.js';

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

interface IntrospectionKeys {
  introspection_endpoint?: string | undefined;
  introspection_client_id?: string | undefined;
  introspection_client_secret_env?: string | undefined;
}

/**
 * The introspection settings, on when a client id is given (the endpoint alone could not authenticate, RFC 7662
 * §2.1); a key missing its partner is an issue on `context`.
 */
function introspectionOf(
  raw: IntrospectionKeys,
  context: z.RefinementCtx,
): Pick<AuthConfig, 'introspection'> {
  const missing = (key: keyof IntrospectionKeys, why: string) =>
    context.addIssue({ code: 'custom', path: [key], message: `missing: ${why}`, input: undefined });
  const id = raw.introspection_client_id !== undefined;
  const secret = raw.introspection_client_secret_env !== undefined;
  if (id && !secret)
    missing(
      'introspection_client_secret_env',
      'introspection_client_id needs the variable that holds its secret',
    );
  if (secret && !id)
    missing(
      'introspection_client_id',
      'introspection_client_secret_env needs the client id the secret belongs to',
    );
  if (raw.introspection_endpoint !== undefined && !id && !secret)
    missing(
      'introspection_client_id',
      'introspection_endpoint needs introspection_client_id and introspection_client_secret_env to authenticate to it',
    );
  if (raw.introspection_client_id === undefined || raw.introspection_client_secret_env === undefined)
    return {};
  return {
    introspection: {
      ...(raw.introspection_endpoint === undefined ? {} : { endpoint: raw.introspection_endpoint }),
      clientId: raw.introspection_client_id,
      clientSecretEnv: raw.introspection_client_secret_env,
    },
  };
}

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
  introspection_endpoint: httpUrl('an http(s) URL such as "https://auth.example.com/introspect"').optional(),
  introspection_client_id: nonEmptyString(
    'the client id Foresight authenticates to the introspection endpoint with',
  ).optional(),
  introspection_client_secret_env: matching(
    ENV_NAME_PATTERN,
    'an environment variable name such as "FORESIGHT_INTROSPECTION_SECRET"',
  ).optional(),
  scopes: z
    .record(ToolGlobSchema, ScopeRequirementSchema, {
      error: 'expected a table of tool globs, such as [auth.scopes] "gh__*" = "repo:read"',
    })
    .optional(),
}).transform((raw, context): AuthConfig => ({
  issuer: raw.issuer,
  audience: raw.audience,
  ...(raw.jwks_uri === undefined ? {} : { jwksUri: raw.jwks_uri }),
  algorithms: raw.algorithms ?? [...DEFAULT_JWT_ALGORITHMS],
  clockSkewS: raw.clock_skew_s,
  ...(raw.scopes_supported === undefined ? {} : { scopesSupported: raw.scopes_supported }),
  ...introspectionOf(raw, context),
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
  /** Opaque (non-JWT) tokens checked at the issuer's introspection endpoint (RFC 7662); default none: only JWTs. */
  introspection?: AuthIntrospection;
  /** `[auth.scopes]`, in file order; absent when no tool is guarded by scope. */
  toolScopes?: ToolScopeRule[];
}

export interface AuthIntrospection {
  /** Default: `introspection_endpoint` of the issuer's metadata (RFC 8414, then OpenID discovery). */
  endpoint?: string;
  /** Foresight's client id at the authorization server, sent with HTTP Basic. */
  clientId: string;
  /** The environment variable holding the client secret; the secret itself is never in the file. */
  clientSecretEnv: string;
}
