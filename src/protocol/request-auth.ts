// What HTTP serving learned of a request's caller, as the SDK hands it to handlers (`authInfo`): the principal, and
// under OAuth the token's scopes with the listener's scope guard ([auth.scopes]). Never the token itself.
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';

/**
 * The scopes a call of a tool (by published name) needs; empty when any valid token may call it. Built from
 * `[auth.scopes]` by the composition layer, which knows the globs and which tools may write.
 */
export type ScopeGuard = (tool: string) => readonly string[];

/** A tool's needs against a request's token: all it needs (what a 403 asks for), and which of them are missing. */
export interface ScopeCheck {
  needed: readonly string[];
  missing: readonly string[];
}

const ALLOWED: ScopeCheck = Object.freeze({ needed: [], missing: [] });

/**
 * Carries the principal (and under OAuth, the token's scopes and the listener's scope guard) to the server the SDK
 * builds, whose factory and handlers see it as `authInfo`; never a token.
 */
export function authInfoOf(principal: string, scopes?: readonly string[], guard?: ScopeGuard): AuthInfo {
  return {
    token: '',
    clientId: principal,
    scopes: scopes ? [...scopes] : [],
    extra: guard === undefined ? { principal } : { principal, scopeGuard: guard },
  };
}

/** The principal a modern request's factory was handed. */
export function principalFromAuthInfo(authInfo: AuthInfo | undefined): string {
  const principal = authInfo?.extra?.principal;
  return typeof principal === 'string' ? principal : 'address:unknown';
}

/**
 * Checks tools against the request's access token: undefined when no guard applies (stdio, in memory, HTTP without
 * `[auth.scopes]`), so that such requests pay for nothing.
 */
export function scopeCheckOf(authInfo: AuthInfo | undefined): ((tool: string) => ScopeCheck) | undefined {
  const guard = authInfo?.extra?.scopeGuard;
  if (typeof guard !== 'function') return undefined;
  const granted = new Set(authInfo!.scopes);
  return (tool) => {
    const needed = (guard as ScopeGuard)(tool);
    if (needed.length === 0) return ALLOWED;
    return { needed, missing: needed.filter((scope) => !granted.has(scope)) };
  };
}

/** `scopeCheckOf` for the request a handler serves. */
export function requestScopeCheck(ctx: ServerContext): ((tool: string) => ScopeCheck) | undefined {
  return scopeCheckOf(ctx.http?.authInfo);
}
