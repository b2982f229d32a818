// How deeply a parsed JSON value nests. The walk stops one level past the limit, so its own recursion is bounded by
// the limit however deep the value goes: a value nested deeper than the stack cannot overflow the check meant to
// refuse it.

/**
 * True when `value` holds objects or arrays nested more than `maxDepth` levels (a bare scalar is depth 0). Given the
 * length of the JSON text it was parsed from, a short text passes without a walk: each level costs the text its two
 * brackets, so one shorter than 2 × (maxDepth + 1) cannot nest deeper. Most requests are that short.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number, textLength = Infinity): boolean {
  if (textLength < 2 * (maxDepth + 1)) return false;
  return depthExceeds(value, maxDepth);
}

/** `budget`: the levels still allowed below this point. */
function depthExceeds(value: unknown, budget: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (budget === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (depthExceeds(item, budget - 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (depthExceeds(record[key], budget - 1)) return true;
  return false;
}
