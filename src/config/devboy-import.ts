// Maps a devboy-tools pipeline_config.toml onto foresight.toml's [planner] and [tools."…"] tables, and
// says which of its keys have no counterpart here (they are listed, never dropped in silence).
import { lineOfKeyPath, type KeyPath, formatKeyPath } from './key-path.js';
import { locateKeys } from './locate.js';
import { parseTomlText } from './parse.js';
import { describeValue } from './problems.js';
import { SIDE_EFFECTS, VALUE_CLASSES } from './schema-tools.js';
import { mapToolName } from './devboy-names.js';

type Table = Record<string, unknown>;

export interface ImportNote {
  /** The key in the devboy file: `tools.Read.cost_model.max_kb`. */
  key: string;
  /** Its line in the file, when found. */
  line?: number;
  detail: string;
}

export interface DevboyImport {
  /** The mapped tables in foresight.toml's own spelling (`[planner]` keys, `[tools."<name>"]` blocks). */
  table: { planner: Table; tools: Record<string, Table> };
  /** Keys that could not be mapped, and why. */
  warnings: ImportNote[];
  /** What was mapped under another name or meaning, worth a look. */
  notes: ImportNote[];
}

export interface DevboyImportOptions {
  /** The prefix the workspace plugin publishes under, for Claude Code's Read, Glob, Grep, LS; default "workspace". */
  workspacePrefix?: string;
}

/** The schema versions of devboy-tools' pipeline config this import knows (1: formats only … 4: [enrichment]). */
const KNOWN_SCHEMA_VERSIONS = [1, 2, 3, 4];

/** devboy-tools' output-shaping sections: Foresight's [format] shapes results its own way. */
const OUTPUT_SECTIONS: Readonly<Record<string, string>> = {
  dedup: 'repeated-response deduplication',
  templates: 'response templates',
  mckp: 'the format router',
  telemetry: 'the telemetry sink',
  endpoint_overrides: 'per-endpoint dedup and template settings',
  profiles: 'tokenizer, model, agent and data profiles',
  hints: 'hint policy',
};

/** Keys of a devboy tool model with nothing to map to, and why. */
const TOOL_KEYS_WITHOUT_COUNTERPART: Readonly<Record<string, string>> = {
  field_groups: "Foresight sends a tool's whole result; it does not trim fields by group",
  fail_fast_after_n: "Foresight's learning switches off a follow-up whose results go unused instead",
  parquet_eligible: 'Foresight has no Parquet output',
  parquet_schema_hint: 'Foresight has no Parquet output',
  rate_limit_class: 'Foresight caps calls run ahead per API host (rate_limit_host), not per class',
};

const COST_KEYS: Readonly<Record<string, string>> = {
  typical_kb: 'typical_kb',
  latency_ms_p50: 'latency_ms_p50',
  freshness_ttl_s: 'freshness_ttl_s',
};
const COST_KEYS_WITHOUT_COUNTERPART: Readonly<Record<string, string>> = {
  max_kb: "the planner budgets by a tool's typical size only",
  dollars: 'the planner has no money cost',
};

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Reads `text` (a devboy-tools pipeline_config.toml named `fileName`) and maps it. Throws E_CONFIG_SYNTAX on bad TOML. */
export function importDevboyConfig(
  text: string,
  fileName: string,
  options: DevboyImportOptions = {},
): DevboyImport {
  const root = parseTomlText(text, fileName);
  const keyLines = locateKeys(text);
  const result: DevboyImport = { table: { planner: {}, tools: {} }, warnings: [], notes: [] };
  const say = (list: ImportNote[], path: KeyPath, detail: string) => {
    const line = lineOfKeyPath(keyLines, path);
    list.push({ key: formatKeyPath(path), ...(line === undefined ? {} : { line }), detail });
  };
  const context: Context = {
    workspacePrefix: options.workspacePrefix ?? 'workspace',
    warn: (path, detail) => say(result.warnings, path, detail),
    note: (path, detail) => say(result.notes, path, detail),
  };
  for (const [key, value] of Object.entries(root)) {
    if (key === 'schema_version') checkSchemaVersion(value, context);
    else if (key === 'enrichment') mapEnrichment(value, result.table.planner, context);
    else if (key === 'tools') mapTools(value, result.table.tools, context);
    else if (Object.hasOwn(OUTPUT_SECTIONS, key))
      context.warn(
        [key],
        `${OUTPUT_SECTIONS[key]}: Foresight's [format] shapes results its own way; not mapped`,
      );
    else context.warn([key], 'not a key of devboy-tools pipeline config this import knows; not mapped');
  }
  if (!isTable(root.enrichment) || root.enrichment.enabled === undefined)
    context.note(
      ['enrichment', 'enabled'],
      "not set: devboy-tools then runs nothing ahead, while Foresight's planner is on by default; add [planner] enabled = false to keep it off",
    );
  return result;
}

interface Context {
  workspacePrefix: string;
  warn(path: KeyPath, detail: string): void;
  note(path: KeyPath, detail: string): void;
}

function checkSchemaVersion(value: unknown, context: Context): void {
  if (typeof value === 'number' && KNOWN_SCHEMA_VERSIONS.includes(value)) return;
  context.warn(
    ['schema_version'],
    `${describeValue(value)}: this import knows versions ${KNOWN_SCHEMA_VERSIONS[0]} to ${KNOWN_SCHEMA_VERSIONS.at(-1)}; read as the last`,
  );
}

function mapEnrichment(value: unknown, planner: Table, context: Context): void {
  const at = (key: string): KeyPath => ['enrichment', key];
  if (!isTable(value)) {
    context.warn(['enrichment'], `expected a table, got ${describeValue(value)}; not mapped`);
    return;
  }
  for (const [key, setting] of Object.entries(value)) {
    switch (key) {
      case 'enabled':
        if (typeof setting === 'boolean') planner.enabled = setting;
        else context.warn(at(key), `expected true or false, got ${describeValue(setting)}; not mapped`);
        break;
      case 'max_parallel_prefetches':
        copyPositiveInt(setting, planner, 'max_parallel_prefetches', at(key), context);
        break;
      case 'prefetch_budget_tokens':
        copyPositiveInt(setting, planner, 'token_budget', at(key), context);
        break;
      case 'prefetch_timeout_ms':
        context.warn(
          at(key),
          "Foresight never holds the agent's answer back for a call run ahead: the agent's call is answered at once and the rest runs behind it; not mapped",
        );
        break;
      case 'respect_rate_limits':
        if (setting !== true)
          context.warn(
            at(key),
            `${describeValue(setting)}: Foresight always caps calls run ahead per API host (per_host_in_flight); not mapped`,
          );
        break;
      default:
        context.warn(at(key), 'not a key of devboy-tools [enrichment] this import knows; not mapped');
    }
  }
}

function copyPositiveInt(value: unknown, into: Table, key: string, path: KeyPath, context: Context): void {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) into[key] = value;
  else context.warn(path, `expected a positive integer, got ${describeValue(value)}; not mapped`);
}

function mapTools(value: unknown, tools: Record<string, Table>, context: Context): void {
  if (!isTable(value)) {
    context.warn(['tools'], `expected a table of tool models, got ${describeValue(value)}; not mapped`);
    return;
  }
  for (const [name, model] of Object.entries(value)) {
    const path = ['tools', name];
    const mapped = mapToolName(name, context.workspacePrefix);
    if ('unmapped' in mapped) {
      context.warn(path, `${mapped.unmapped}; the block is left out`);
      continue;
    }
    if (mapped.renamed) context.note(path, `mapped onto ${mapped.published}`);
    if (!isTable(model)) {
      context.warn(path, `expected a table, got ${describeValue(model)}; not mapped`);
      continue;
    }
    const block = mapToolModel(model, path, context);
    if (Object.keys(block).length > 0) tools[mapped.published] = { ...tools[mapped.published], ...block };
  }
}

function mapToolModel(model: Table, path: KeyPath, context: Context): Table {
  const block: Table = {};
  const at = (key: string): KeyPath => [...path, key];
  for (const [key, value] of Object.entries(model)) {
    switch (key) {
      case 'value_class':
        copyOneOf(value, VALUE_CLASSES, block, 'value_class', at(key), context);
        break;
      case 'side_effect_class':
        copyOneOf(value, SIDE_EFFECTS, block, 'side_effect', at(key), context);
        break;
      case 'cost_model':
        mapCost(value, block, at(key), context);
        break;
      case 'follow_up':
        mapLinks(value, block, at(key), context);
        break;
      case 'invalidates':
        mapInvalidates(value, block, at(key), context);
        break;
      case 'rate_limit_host':
        if (typeof value === 'string' && value !== '') block.rate_limit_host = value;
        else context.warn(at(key), `expected a host name, got ${describeValue(value)}; not mapped`);
        break;
      case 'speculate':
        if (typeof value === 'boolean') block.speculate = value;
        else context.warn(at(key), `expected true or false, got ${describeValue(value)}; not mapped`);
        break;
      default:
        context.warn(
          at(key),
          Object.hasOwn(TOOL_KEYS_WITHOUT_COUNTERPART, key)
            ? `${TOOL_KEYS_WITHOUT_COUNTERPART[key]}; not mapped`
            : 'not a key of a devboy-tools tool model this import knows; not mapped',
        );
    }
  }
  return block;
}

function copyOneOf(
  value: unknown,
  allowed: readonly string[],
  into: Table,
  key: string,
  path: KeyPath,
  context: Context,
): void {
  if (typeof value === 'string' && allowed.includes(value)) into[key] = value;
  else context.warn(path, `expected one of ${allowed.join(', ')}, got ${describeValue(value)}; not mapped`);
}

function mapCost(value: unknown, block: Table, path: KeyPath, context: Context): void {
  if (!isTable(value)) {
    context.warn(path, `expected a table, got ${describeValue(value)}; not mapped`);
    return;
  }
  for (const [key, setting] of Object.entries(value)) {
    const ours = Object.hasOwn(COST_KEYS, key) ? COST_KEYS[key] : undefined;
    if (ours !== undefined && typeof setting === 'number' && Number.isFinite(setting) && setting >= 0)
      block[ours] = setting;
    else if (ours !== undefined)
      context.warn([...path, key], `expected a number >= 0, got ${describeValue(setting)}; not mapped`);
    else
      context.warn(
        [...path, key],
        Object.hasOwn(COST_KEYS_WITHOUT_COUNTERPART, key)
          ? `${COST_KEYS_WITHOUT_COUNTERPART[key]}; not mapped`
          : 'not a key of a devboy-tools cost model this import knows; not mapped',
      );
  }
}

const LINK_KEYS = new Set(['tool', 'probability', 'projection', 'projection_arg']);

function mapLinks(value: unknown, block: Table, path: KeyPath, context: Context): void {
  if (!Array.isArray(value)) {
    context.warn(path, `expected an array of links, got ${describeValue(value)}; not mapped`);
    return;
  }
  const links: Table[] = [];
  value.forEach((raw: unknown, index) => {
    const at = [...path, index];
    if (!isTable(raw) || typeof raw.tool !== 'string') {
      context.warn(at, 'expected a table with a tool name; the link is left out');
      return;
    }
    const target = mapToolName(raw.tool, context.workspacePrefix);
    if ('unmapped' in target) {
      context.warn([...at, 'tool'], `${raw.tool}: ${target.unmapped}; the link is left out`);
      return;
    }
    const link: Table = { tool: target.published };
    if (raw.probability !== undefined) {
      if (typeof raw.probability === 'number' && raw.probability >= 0 && raw.probability <= 1)
        link.probability = raw.probability;
      else
        context.warn(
          [...at, 'probability'],
          `expected a number from 0 to 1, got ${describeValue(raw.probability)}; [planner] default_followup_probability applies`,
        );
    }
    if (typeof raw.projection === 'string') link.projection = raw.projection;
    if (typeof raw.projection_arg === 'string') {
      const arg = Object.hasOwn(target.args, raw.projection_arg)
        ? (target.args[raw.projection_arg] ?? raw.projection_arg)
        : raw.projection_arg;
      if (arg !== raw.projection_arg)
        context.note(
          [...at, 'projection_arg'],
          `${raw.projection_arg} is called ${arg} on ${target.published}`,
        );
      link.projection_arg = arg;
    }
    for (const key of Object.keys(raw))
      if (!LINK_KEYS.has(key))
        context.warn(
          [...at, key],
          'not a key of a devboy-tools follow-up link this import knows; not mapped',
        );
    links.push(link);
  });
  // A list whose links all failed to map would replace the tool's built-in links with none.
  if (links.length > 0 || value.length === 0) block.follow_up = links;
}

function mapInvalidates(value: unknown, block: Table, path: KeyPath, context: Context): void {
  if (!Array.isArray(value)) {
    context.warn(path, `expected an array of tool names, got ${describeValue(value)}; not mapped`);
    return;
  }
  const names: string[] = [];
  value.forEach((name: unknown, index) => {
    const mapped = typeof name === 'string' ? mapToolName(name, context.workspacePrefix) : undefined;
    if (mapped === undefined || 'unmapped' in mapped || mapped.published === '*')
      context.warn(
        [...path, index],
        `${describeValue(name)}: ${mapped && 'unmapped' in mapped ? mapped.unmapped : 'not a tool name'}; left out`,
      );
    else names.push(mapped.published);
  });
  // An empty list would say the tool writes nothing, which the names left out do not say.
  if (names.length > 0 || value.length === 0) block.invalidates = names;
}
