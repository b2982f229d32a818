// What each tool rule matched, and every rule, glob or parameter name that matches nothing (a typo in a safety
// rule must not pass silently). Tools are known only once plugins run, so this runs on a started host.
import picomatch from 'picomatch';
import { type DeclarativeEnrichRule, type PluginEntry, lineOfKeyPath } from '../config/index.js';
import type { MountedPlugin } from '../host/index.js';
import { type DeclarativeEnricher, ruleLabel } from './declarative.js';
import {
  type RuleReport,
  type Unseen,
  at,
  couldReach,
  describeUnseen,
  listOrNone,
  unseenPlugins,
} from './rule-reach.js';
import { type ScopeGlob, reportScopeGlobs } from './scope-report.js';
import type { ToolRules } from './tool-rules.js';

export interface RuleReportInput {
  /** How messages name the config: its path, or "(embedded default)". */
  file: string;
  rules: readonly DeclarativeEnrichRule[];
  /** The config's plugin tables, enabled or not. */
  tables: readonly PluginEntry[];
  mounted: readonly MountedPlugin[];
  toolRules: ToolRules;
  /** The [[enrich]] blocks' enrichers, by block index. */
  enrichers: readonly DeclarativeEnricher[];
  /** Published names of the tools listed now: only their enrichment is current. */
  listed: ReadonlySet<string>;
  /** `[auth.scopes]` globs, over published names. Default none. */
  scopeGlobs?: readonly ScopeGlob[];
}

/** One tool as a block saw it. */
interface Sighting {
  seen: string;
  published: string | undefined;
}

export function reportRules(input: RuleReportInput): RuleReport {
  const report: RuleReport = { matched: [], problems: [], unchecked: [] };
  const unseen = unseenPlugins(input);
  reportFilters(input, unseen, report);
  const sightings = sightBlocks(input);
  input.rules.forEach((rule, index) => reportBlock(input, index, sightings[index] ?? [], unseen, report));
  if (input.scopeGlobs?.length)
    reportScopeGlobs({ file: input.file, globs: input.scopeGlobs, listed: input.listed, unseen }, report);
  return report;
}

/** `tools.allow` and `tools.deny` of each plugin table, glob by glob, over the plugin's own tool names. */
function reportFilters(input: RuleReportInput, unseen: readonly Unseen[], report: RuleReport): void {
  for (const table of input.tables) {
    const lists = [
      ['allow', table.tools.allow ?? []],
      ['deny', table.tools.deny],
    ] as const;
    for (const [key, globs] of lists) {
      if (globs.length === 0) continue;
      const line = lineOfKeyPath(table.keyLines, ['tools', key]) ?? table.line;
      const label = `[plugins.${table.name}] tools.${key}`;
      const down = unseen.find((plugin) => plugin.name === table.name);
      if (down) {
        report.unchecked.push(`${label} (line ${line}): ${describeUnseen([down])}`);
        continue;
      }
      const tools = input.mounted.find((plugin) => plugin.name === table.name)?.toolNames ?? [];
      const hit = new Set<string>();
      for (const glob of globs) {
        const matches = picomatch(glob);
        const matching = tools.filter((name) => matches(name));
        for (const name of matching) hit.add(name);
        if (matching.length === 0)
          report.problems.push(
            `${at(input.file, line)}: ${label}: glob ${JSON.stringify(glob)} matches none of the plugin's tools (${listOrNone(tools)})`,
          );
      }
      // In the plugin's order, as `foresight tools` lists them.
      report.matched.push(
        `${label} (line ${line}): ${key} → ${listOrNone(tools.filter((name) => hit.has(name)))}`,
      );
    }
  }
}

/** For each block, the tools it matched, under the name it saw (earlier blocks may have renamed them). */
function sightBlocks({ mounted, toolRules, rules }: RuleReportInput): Sighting[][] {
  const sightings: Sighting[][] = rules.map(() => []);
  for (const plugin of mounted) {
    for (const local of plugin.toolNames) {
      const fate = toolRules.fate(plugin, local);
      fate.seen.forEach((seen, index) => {
        if (seen !== undefined && toolRules.blockMatches(index, seen))
          sightings[index]?.push({ seen, published: fate.published });
      });
    }
  }
  return sightings;
}

function reportBlock(
  input: RuleReportInput,
  index: number,
  sightings: readonly Sighting[],
  unseen: readonly Unseen[],
  report: RuleReport,
): void {
  const rule = input.rules[index];
  if (!rule) return;
  const label = ruleLabel(index, rule.line);
  const where = `${at(input.file, rule.line)}: ${ruleLabel(index, 0)}`;
  const shown = sightings.map(({ seen, published }) =>
    rule.name !== undefined ? `${seen} as ${published ?? '(dropped by a later block)'}` : seen,
  );
  report.matched.push(`${label}: ${actionsOf(rule).join(', ')} → ${listOrNone(shown)}`);
  let spared = false;
  for (const glob of rule.tools) {
    const matches = picomatch(glob);
    if (sightings.some(({ seen }) => matches(seen))) continue;
    const reaches = unseen.filter((plugin) => couldReach(glob, plugin.prefix));
    if (reaches.length > 0) {
      spared = true;
      report.unchecked.push(`${label}: tools glob ${JSON.stringify(glob)}: ${describeUnseen(reaches)}`);
    } else report.problems.push(`${where}: tools glob ${JSON.stringify(glob)} matches no tool`);
  }
  // A parameter counts as missing only when every tool the block may reach was seen by its enricher.
  const reaches = unseen.filter((plugin) => rule.tools.some((glob) => couldReach(glob, plugin.prefix)));
  if (spared || sightings.length === 0) return;
  const tools = sightings.flatMap(({ published }) => (published === undefined ? [] : [published]));
  const enricher = input.enrichers[index];
  const found = tools.map((tool) => (input.listed.has(tool) ? enricher?.paramsFound(tool) : undefined));
  const complete = reaches.length === 0 && found.every((set) => set !== undefined);
  for (const [kind, name] of paramsOf(rule)) {
    if (found.some((set) => set?.has(name))) continue;
    if (complete)
      report.problems.push(
        `${where}: ${kind} ${JSON.stringify(name)} is a parameter of none of its tools (${tools.join(', ')})`,
      );
    else
      report.unchecked.push(
        `${label}: ${kind} ${JSON.stringify(name)}: ${reaches.length > 0 ? describeUnseen(reaches) : 'some of its tools are not listed'}`,
      );
  }
}

/** What a block does, as `foresight check` names it. */
function actionsOf(rule: DeclarativeEnrichRule): string[] {
  const actions: string[] = [];
  if (rule.drop) actions.push('drop');
  if (rule.name !== undefined) actions.push('name');
  if (rule.hide.length > 0) actions.push('hide');
  if (Object.keys(rule.pin).length > 0) actions.push('pin');
  if (Object.keys(rule.defaults).length > 0) actions.push('defaults');
  if (Object.keys(rule.rename).length > 0) actions.push('rename');
  if (rule.description !== undefined) actions.push('description');
  if (rule.annotations !== undefined) actions.push('annotations');
  return actions.length > 0 ? actions : ['nothing'];
}

/** Every parameter name a block gives, with the key that gives it. */
function paramsOf(rule: DeclarativeEnrichRule): [string, string][] {
  return [
    ...rule.hide.map((name): [string, string] => ['hide', name]),
    ...Object.keys(rule.pin).map((name): [string, string] => ['pin', name]),
    ...Object.keys(rule.defaults).map((name): [string, string] => ['defaults', name]),
    ...Object.keys(rule.rename).map((name): [string, string] => ['rename', name]),
  ];
}
