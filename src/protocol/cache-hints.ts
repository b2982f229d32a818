// The caching hints (ttlMs, cacheScope) 2026-07-28 clients get: per plugin for reads, the strictest of all for lists,
// and never fresher nor more public than what a plugin's own source (a 2026-07-28 upstream) said.
import type { CacheHint } from '@modelcontextprotocol/server';

export interface CacheHints {
  ttlMs: number;
  scope: 'public' | 'private';
}

/** What a plugin, or a result that depends on who asks, gets without configuration: stale at once, private. */
export const PRIVATE_UNCACHED: CacheHints = { ttlMs: 0, scope: 'private' };

/** Each mounted plugin's hints, by instance name. */
export type CacheHintsOf = (plugin: string) => CacheHints | undefined;

/**
 * The strictest of ours and those a source gave (the shortest TTL; private when any says so): a cache may keep
 * our answer no longer, and share it no wider, than any part of it allows. A source's field left out constrains
 * nothing (a 2025 source has none); a TTL that is not a non-negative number counts as 0, and a scope other than
 * `public` as private, so a server's mistake can only make our answer stricter.
 */
export function stricterHints(ours: CacheHints, theirs: readonly (CacheHint | undefined)[]): CacheHints {
  let { ttlMs, scope } = ours;
  for (const hint of theirs) {
    if (hint?.ttlMs !== undefined) {
      const said: unknown = hint.ttlMs;
      ttlMs = Math.min(ttlMs, typeof said === 'number' && said >= 0 ? Math.floor(said) : 0);
    }
    if (hint?.cacheScope !== undefined && hint.cacheScope !== 'public') scope = 'private';
  }
  return { ttlMs, scope };
}

/**
 * A list gathers every plugin's entries, so it is fresh only as long as the shortest TTL, and public only when
 * every plugin says so.
 */
export function combinedHints(plugins: readonly string[], hintsOf: CacheHintsOf): CacheHints {
  if (plugins.length === 0) return PRIVATE_UNCACHED;
  const all = plugins.map((plugin) => toCacheHint(hintsOf(plugin) ?? PRIVATE_UNCACHED));
  return stricterHints({ ttlMs: Number.POSITIVE_INFINITY, scope: 'public' }, all);
}

/** As MCP results, and the SDK's per-operation option, carry them. */
export function toCacheHint(hints: CacheHints): Required<CacheHint> {
  return { ttlMs: hints.ttlMs, cacheScope: hints.scope };
}
