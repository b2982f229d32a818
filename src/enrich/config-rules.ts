// The config's tool rules as one set: the host's publishing hook (allow, deny, drop, name), the [[enrich]] blocks'
// enrichers, and the report of what each rule matched.
import type { DeclarativeEnrichRule, PluginEntry, ToolFilter } from '../config/index.js';
import type { MountedPlugin, ToolPublisher } from '../host/index.js';
import {
  type DeclarativeEnricher,
  type DeclarativeOptions,
  createDeclarativeEnrichers,
} from './declarative.js';
import type { RuleReport } from './rule-reach.js';
import { reportRules } from './rule-report.js';
import type { ScopeGlob } from './scope-report.js';
import { ToolRules } from './tool-rules.js';

export interface ConfigRulesOptions extends Omit<DeclarativeOptions, 'nameAt'> {
  /** [[enrich]] blocks, in file order. */
  rules: readonly DeclarativeEnrichRule[];
  /** The config's plugin tables: their `tools.allow` / `tools.deny`. */
  tables: readonly PluginEntry[];
  /** How messages name the config file: its path, or "(embedded default)". */
  file: string;
  /** `[auth.scopes]` globs, reported with the rules. Default none. */
  scopeGlobs?: readonly ScopeGlob[];
}

export interface ConfigRules {
  /** For the plugin host: which tools are published, under what name. */
  publish: ToolPublisher;
  /** One per [[enrich]] block, in file order. */
  enrichers: readonly DeclarativeEnricher[];
  /** What each rule matched and what matches nothing; reads a started host's catalogs and current enrichment. */
  report(mounted: readonly MountedPlugin[], listed: ReadonlySet<string>): RuleReport;
}

export function createConfigRules(options: ConfigRulesOptions): ConfigRules {
  const { rules, tables, file, scopeGlobs, ...declarative } = options;
  const filters = new Map<string, ToolFilter>(
    tables
      .filter((table) => table.tools.allow !== undefined || table.tools.deny.length > 0)
      .map((table) => [table.name, table.tools]),
  );
  const toolRules = new ToolRules(rules, filters);
  const enrichers = createDeclarativeEnrichers(rules, {
    ...declarative,
    nameAt: (index, published) => toolRules.nameAt(index, published),
  });
  return {
    publish: toolRules.publish,
    enrichers,
    report: (mounted, listed) =>
      reportRules({ file, rules, tables, mounted, toolRules, enrichers, listed, scopeGlobs }),
  };
}
