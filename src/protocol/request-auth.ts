// What HTTP serving learned of a request's caller, as the SDK hands it to handlers (`authInfo`): the principal, and
// under OAuth the token's scopes with the listener's scope guard ([auth.scopes]). Never the token itself.
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';

/**
 * The scopes a call of a tool (by published name) needs; empty when any valid token may call it. Built from
 * `[auth.scopes]` by the composition layer, which knows the globs and which tools may write.
 */
export type ScopeGuard = (tool: string) => readonly string[];

/**
 * The scopes reading a published resource URI (or a template's), subscribing to it, or getting a prompt needs:
 * those of the plugin that owns it ([auth.scopes]); empty for Foresight's own resources and for names no plugin owns.
 */
export interface CatalogScopeGuard {
  resource(uri: string): readonly string[];
  prompt(name: string): readonly string[];
}

/** A tool's needs against a request's token: all it needs (what a 403 asks for), and which of them are missing. */
export interface ScopeCheck {
  needed: readonly string[];
  missing: readonly string[];
}

const ALLOWED: ScopeCheck = Object.freeze({ needed: [], missing: [] });

/**
 * Carries the principal (and under OAuth, the token's scopes and the listener's scope guards) to the server the SDK
 * builds, whose factory and handlers see it as `authInfo`; never a token.
 */
export function authInfoOf(
  principal: string,
  scopes?: readonly string[],
  guard?: ScopeGuard,
  catalogGuard?: CatalogScopeGuard,
): AuthInfo {
  return {
    token: '',
    clientId: principal,
    scopes: scopes ? [...scopes] : [],
    extra: {
      principal,
      ...(guard === undefined ? {} : { scopeGuard: guard }),
      ...(catalogGuard === undefined ? {} : { catalogGuard }),
    },
  };
}

/** The principal a modern request's factory was handed. */
export function principalFromAuthInfo(authInfo: AuthInfo | undefined): string {
  const principal = authInfo?.extra?.principal;
  return typeof principal === 'string' ? principal : 'address:unknown';
}

/** Checks what a guard asks for against the scopes a token grants. */
function checker(
  guard: (name: string) => readonly string[],
  granted: ReadonlySet<string>,
): (name: string) => ScopeCheck {
  return (name) => {
    const needed = guard(name);
    if (needed.length === 0) return ALLOWED;
    return { needed, missing: needed.filter((scope) => !granted.has(scope)) };
  };
}

/**
 * Checks tools against the request's access token: undefined when no guard applies (stdio, in memory, HTTP without
 * `[auth.scopes]`), so that such requests pay for nothing.
 */
export function scopeCheckOf(authInfo: AuthInfo | undefined): ((tool: string) => ScopeCheck) | undefined {
  const guard = authInfo?.extra?.scopeGuard;
  if (typeof guard !== 'function') return undefined;
  return checker(guard as ScopeGuard, new Set(authInfo!.scopes));
}

/** A plugin's resources and prompts against the request's access token. */
export interface CatalogCheck {
  resource(uri: string): ScopeCheck;
  prompt(name: string): ScopeCheck;
}

/** Checks resources and prompts against the request's access token: undefined when no guard applies. */
export function catalogCheckOf(authInfo: AuthInfo | undefined): CatalogCheck | undefined {
  const guard = authInfo?.extra?.catalogGuard as CatalogScopeGuard | undefined;
  if (typeof guard?.resource !== 'function' || typeof guard.prompt !== 'function') return undefined;
  const granted = new Set(authInfo!.scopes);
  return {
    resource: checker((uri) => guard.resource(uri), granted),
    prompt: checker((name) => guard.prompt(name), granted),
  };
}

/** `scopeCheckOf` for the request a handler serves. */
export function requestScopeCheck(ctx: ServerContext): ((tool: string) => ScopeCheck) | undefined {
  return scopeCheckOf(ctx.http?.authInfo);
}

/** `catalogCheckOf` for the request a handler serves. */
export function requestCatalogCheck(ctx: ServerContext): CatalogCheck | undefined {
  return catalogCheckOf(ctx.http?.authInfo);
}
