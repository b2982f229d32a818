// What the replay compares of a tool result: its data (structured content, else text, and the error flag)
// in canonical JSON, and the planner's `_meta` note saying a result was served from a prefetch.

/** JSON with object keys sorted at every depth, so equal data always gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : inner,
  );
}

interface ResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  _meta?: unknown;
}

/** The answer's data, without `_meta`: structuredContent when there is one, else the content blocks. */
export function resultData(result: object): string {
  const r = result as ResultLike;
  return canonicalJson({
    isError: r.isError === true,
    data: r.structuredContent ?? r.content ?? null,
  });
}

export type PrefetchSource = 'cache' | 'in_flight';

export const PREFETCH_META_KEY = 'foresight/prefetch';

/** How the planner served the result, from `_meta["foresight/prefetch"]`; undefined when it went upstream. */
export function prefetchOf(
  result: object,
): { source: PrefetchSource; ageMs: number | undefined } | undefined {
  const meta = (result as ResultLike)._meta as Record<string, unknown> | undefined;
  const note = meta?.[PREFETCH_META_KEY] as { source?: unknown; age_ms?: unknown } | undefined;
  if (note?.source !== 'cache' && note?.source !== 'in_flight') return undefined;
  return { source: note.source, ageMs: typeof note.age_ms === 'number' ? note.age_ms : undefined };
}
