// [auth.scopes] resolved for serving: the scopes each published tool needs, from the globs that match it and
// whether the tool may write (its value model, which MCP's readOnlyHint feeds), and the scopes the rules name.
import picomatch from 'picomatch';
import type { ToolScopeRule } from './config/index.js';
import type { ScopeGuard } from './protocol/index.js';

/**
 * What each call needs: every rule whose glob matches the tool adds its `read` scope, and, for a tool that may
 * write, its `write` scope too. Rules add up (a tool matched by `"*"` and `"gh__*"` needs both), so a rule never
 * loosens another. `mayWrite` is asked only when a matching rule has a `write` scope.
 */
export function createScopeGuard(
  rules: readonly ToolScopeRule[],
  mayWrite: (tool: string) => boolean,
): ScopeGuard {
  const compiled = rules.map((rule) => ({ ...rule, matches: picomatch(rule.glob) }));
  return (tool) => {
    const needed: string[] = [];
    let writes: boolean | undefined;
    for (const rule of compiled) {
      if (!rule.matches(tool)) continue;
      if (rule.read !== undefined) needed.push(rule.read);
      if (rule.write !== undefined && (writes ??= mayWrite(tool))) needed.push(rule.write);
    }
    return needed.length < 2 ? needed : [...new Set(needed)];
  };
}

/** Every scope the rules name, in file order: what the protected resource metadata lists when not told otherwise. */
export function scopesNamed(rules: readonly ToolScopeRule[]): string[] {
  const named = new Set<string>();
  for (const rule of rules) {
    if (rule.read !== undefined) named.add(rule.read);
    if (rule.write !== undefined) named.add(rule.write);
  }
  return [...named];
}
