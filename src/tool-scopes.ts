// [auth.scopes] resolved for serving: the scopes each published tool needs, from the globs that match it and
// whether the tool may write (its value model, which MCP's readOnlyHint feeds); the scopes a plugin's resources
// and prompts need; and the scopes the rules name.
import picomatch from 'picomatch';
import { type PluginEntry, type ToolScopeRule, EMBEDDED_DEFAULT } from './config/index.js';
import { errors, type Logger, type ToolValueModel } from './contract/index.js';
import { type RuleReport, reportScopeGlobs, unseenPlugins } from './enrich/index.js';
import { type MountedPlugin } from './host/index.js';
import { isReadOnly } from './planner/index.js';
import type { CatalogScopeGuard, ScopeGuard } from './protocol/index.js';

/** What the rules are checked against and resolved with: a started host whose plugins have settled. */
export interface ScopeContext {
  /** The config file (for messages), and its plugin tables (a disabled one may hold what a glob names). */
  file: string | undefined;
  tables: readonly PluginEntry[];
  mounted: readonly MountedPlugin[];
  /** Published names of the tools listed now. */
  listed: ReadonlySet<string>;
  /** The planner's value model of a listed tool. */
  modelOf(tool: string): ToolValueModel | undefined;
  logger: Logger;
}

/**
 * The guard for serving, or E_CONFIG_INVALID naming each glob that matches no listed tool (a typo there would
 * leave the tool it meant open to every token). A glob that may name a plugin not up now is logged, not refused.
 * A tool may write unless its value model says it only reads; one that is not listed counts as writing.
 */
export function resolveToolScopes(rules: readonly ToolScopeRule[], context: ScopeContext): ScopeGuard {
  const file = context.file ?? EMBEDDED_DEFAULT;
  const report: RuleReport = { matched: [], problems: [], unchecked: [] };
  const unseen = unseenPlugins({ tables: context.tables, mounted: context.mounted });
  const problems = reportScopeGlobs({ file, globs: rules, listed: context.listed, unseen }, report);
  const [first] = problems;
  if (first && problems.length === 1) throw errors.configInvalid(first.where, first.what);
  if (first)
    throw errors.configInvalid(
      file,
      `${problems.length} problems:\n  ${problems.map((p) => `${p.where}: ${p.what}`).join('\n  ')}`,
    );
  for (const note of report.unchecked) context.logger.warn({}, `[auth.scopes] ${note}`);
  return createScopeGuard(rules, (tool) => {
    const model = context.modelOf(tool);
    return model === undefined || !isReadOnly(model);
  });
}

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

/** A listed tool and the plugin (instance name) it belongs to. */
export interface ListedTool {
  name: string;
  plugin: string;
}

/** Where a catalog guard learns who owns what, as it is now. */
export interface CatalogOwners {
  /** The listed tools: the same array until the list is rebuilt, so the plugins' scopes are worked out once per list. */
  listed(): readonly { name: string }[];
  /** The plugin a listed tool belongs to. */
  pluginOf(tool: string): string | undefined;
  /** The plugin owning a published URI or URI template; undefined for none. */
  ownerOfUri(uri: string): string | undefined;
  /** The plugin owning a published prompt; undefined for none. */
  ownerOfPrompt(name: string): string | undefined;
  /** Foresight's own resources: any valid token reads them (they show the caller only their own data). */
  isBuiltin(uri: string): boolean;
}

/** What guards each plugin's resources and prompts, for one tool list. */
export interface PluginReadScopes {
  /** By plugin (instance name), for each plugin with a listed tool. */
  byPlugin: ReadonlyMap<string, readonly string[]>;
  /** For a plugin with no listed tool. */
  withoutTools: readonly string[];
}

/**
 * The `read` scopes guarding each plugin's resources, templates and prompts: those of every rule whose glob matches
 * all of the plugin's listed tools (`"gh__*"` guards gh's, `"*"` every plugin's; a glob matching only some of them,
 * such as `"gh__merge_*"`, guards none, since a resource is no one tool). A plugin with no listed tool is guarded by
 * the rules that match every listed tool of every plugin (`"*"`), the only ones that can be said to cover it.
 */
export function pluginReadScopes(
  rules: readonly ToolScopeRule[],
  listed: readonly ListedTool[],
): PluginReadScopes {
  const reading = rules
    .filter((rule) => rule.read !== undefined)
    .map((rule) => ({ read: rule.read!, matches: picomatch(rule.glob) }));
  const scopesOver = (names: readonly string[]): readonly string[] => {
    if (names.length === 0) return [];
    const matching = reading.filter((rule) => names.every((name) => rule.matches(name)));
    return [...new Set(matching.map((rule) => rule.read))];
  };
  const toolsOf = new Map<string, string[]>();
  for (const { name, plugin } of listed) {
    const names = toolsOf.get(plugin);
    if (names) names.push(name);
    else toolsOf.set(plugin, [name]);
  }
  return {
    byPlugin: new Map([...toolsOf].map(([plugin, names]) => [plugin, scopesOver(names)])),
    withoutTools: scopesOver(listed.map((tool) => tool.name)),
  };
}

/**
 * The guard of the plugins' resources and prompts ([auth.scopes]), following the tool list as it changes. A plugin
 * whose tools all go from the list (an upstream reconnecting) keeps the scopes its tools last gave it, on top of
 * those of a plugin without tools: its resources must not open up while its tools are away.
 */
export function createCatalogScopeGuard(
  rules: readonly ToolScopeRule[],
  owners: CatalogOwners,
): CatalogScopeGuard {
  let seen: readonly { name: string }[] | undefined;
  let current: PluginReadScopes = { byPlugin: new Map(), withoutTools: [] };
  const lastKnown = new Map<string, readonly string[]>();
  const ofPlugin = (plugin: string | undefined): readonly string[] => {
    if (plugin === undefined) return [];
    const listed = owners.listed();
    if (listed !== seen) {
      const owned = listed.flatMap(({ name }) => {
        const of = owners.pluginOf(name);
        return of === undefined ? [] : [{ name, plugin: of }];
      });
      [seen, current] = [listed, pluginReadScopes(rules, owned)];
      for (const [name, scopes] of current.byPlugin) lastKnown.set(name, scopes);
    }
    const scopes = current.byPlugin.get(plugin);
    if (scopes !== undefined) return scopes;
    const before = lastKnown.get(plugin);
    return before === undefined ? current.withoutTools : [...new Set([...before, ...current.withoutTools])];
  };
  return {
    resource: (uri) => (owners.isBuiltin(uri) ? [] : ofPlugin(owners.ownerOfUri(uri))),
    prompt: (name) => ofPlugin(owners.ownerOfPrompt(name)),
  };
}
