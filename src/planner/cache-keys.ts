// How the result cache names its entries and which of them an invalidation reaches.
import type { CacheKeyParts } from './cache-types.js';
import { canonicalJson } from './plan.js';

/** Principal, session, tool and canonical args as one string: a JSON array, so no separator can collide. */
export function cacheKey(parts: CacheKeyParts): string {
  return `[${JSON.stringify(parts.principal)},${JSON.stringify(parts.session ?? null)},${JSON.stringify(parts.tool)},${parts.argsKey ?? canonicalJson(parts.args)}]`;
}

/** The keys that may answer these parts, in order of preference: own session, then session-independent. */
export function cacheKeysFor(parts: CacheKeyParts): string[] {
  const shared = cacheKey({ ...parts, session: undefined });
  return parts.session === undefined ? [shared] : [cacheKey(parts), shared];
}

/**
 * The parts with a private copy of the args as JSON would carry them: `invalidate` reads them later,
 * and the caller may go on to change its own object.
 */
export function ownCopy(parts: CacheKeyParts): CacheKeyParts {
  const argsKey = parts.argsKey ?? canonicalJson(parts.args);
  return {
    principal: parts.principal,
    session: parts.session,
    tool: parts.tool,
    args: JSON.parse(argsKey) as Record<string, unknown>,
    argsKey,
  };
}

/** False only when the args give some parameter of `match` a different value (compared as canonical JSON). */
export function matches(args: Record<string, unknown>, match: Record<string, unknown> | undefined): boolean {
  if (match === undefined) return true;
  return Object.entries(match).every(
    ([name, value]) => !Object.hasOwn(args, name) || canonicalJson(args[name]) === canonicalJson(value),
  );
}
