// The caching hints (ttlMs, cacheScope) 2026-07-28 clients get: per plugin for reads, the strictest of all for lists.
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
 * A list gathers every plugin's entries, so it is fresh only as long as the shortest TTL, and public only when
 * every plugin says so.
 */
export function combinedHints(plugins: readonly string[], hintsOf: CacheHintsOf): CacheHints {
  if (plugins.length === 0) return PRIVATE_UNCACHED;
  let ttlMs = Number.POSITIVE_INFINITY;
  let scope: CacheHints['scope'] = 'public';
  for (const plugin of plugins) {
    const hints = hintsOf(plugin) ?? PRIVATE_UNCACHED;
    ttlMs = Math.min(ttlMs, hints.ttlMs);
    if (hints.scope === 'private') scope = 'private';
  }
  return { ttlMs, scope };
}

/** As the SDK's per-operation option takes them. */
export function toCacheHint(hints: CacheHints): CacheHint {
  return { ttlMs: hints.ttlMs, cacheScope: hints.scope };
}
