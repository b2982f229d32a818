// How deeply a parsed JSON value nests, measured without recursion: a value nested deeper than the stack would be
// measured by the walk that is meant to refuse it.

/** True when `value` holds objects or arrays nested more than `maxDepth` levels (a bare scalar is depth 0). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null)
        stack.push({ node: child as object, depth: depth + 1 });
    }
  }
  return false;
}
