// Enrichers written in foresight.toml: each [[enrich]] block hides, pins, defaults, renames and re-describes the
// parameters of matching tools (dropping and renaming whole tools is tool-rules.ts's, before any enricher runs).
import picomatch from 'picomatch';
import type { DeclarativeEnrichRule } from '../config/index.js';
import { errors, type ToolEnricher, type ToolRef, type ToolSchema } from '../contract/index.js';

/** What one block did to one tool, in the tool's own parameter names. */
interface Applied {
  pinned: Map<string, unknown>;
  hidden: Set<string>;
  defaults: Map<string, unknown>;
  /** The parameters this block names (hide, pin, defaults, rename) that the tool has, for `foresight check`. */
  found: Set<string>;
}

/** A block's enricher, which also tells which of its parameter names it found on which tool. */
export interface DeclarativeEnricher extends ToolEnricher {
  /**
   * By published tool name: the parameters this block names that the tool had when the block saw it. Holds the
   * tools of the latest enrichment among others: read it for the names currently listed.
   */
  paramsFound(published: string): ReadonlySet<string> | undefined;
}

/** How messages name a block: `[[enrich]] #2 (line 14)`. */
export function ruleLabel(index: number, line: number): string {
  return line > 0 ? `[[enrich]] #${index + 1} (line ${line})` : `[[enrich]] #${index + 1}`;
}

export interface DeclarativeOptions {
  onWarning?: (message: string) => void;
  /** Checks a pinned or default value against the parameter (see ArgumentValidator.checkParam). */
  checkParam?: (toolSchema: Record<string, unknown>, name: string, value: unknown) => string | undefined;
  /**
   * The name block `index` sees for a tool published as `published` (see ToolRules.nameAt); default the
   * published name.
   */
  nameAt?: (index: number, published: string) => string;
}

/** One enricher per block, in file order, so later blocks act on what earlier ones produced. */
export function createDeclarativeEnrichers(
  rules: readonly DeclarativeEnrichRule[],
  options: DeclarativeOptions = {},
): DeclarativeEnricher[] {
  return rules.map((rule, index) => new BlockEnricher(rule, index, options));
}

class BlockEnricher implements DeclarativeEnricher {
  readonly name: string;
  private readonly matches: (published: string) => boolean;
  /** By published name; rebuilt for each tool on every enrichment. */
  private readonly applied = new Map<string, Applied>();

  constructor(
    private readonly rule: DeclarativeEnrichRule,
    private readonly index: number,
    private readonly options: DeclarativeOptions,
  ) {
    this.name = ruleLabel(index, rule.line);
    this.matches = picomatch(rule.tools);
  }

  paramsFound(published: string): ReadonlySet<string> | undefined {
    return this.applied.get(published)?.found;
  }

  /** Cross-cutting: it serves no category, so it sees every tool and unhides none. */
  supportedCategories(): readonly [] {
    return [];
  }

  enrichSchema(tool: ToolRef, schema: ToolSchema): void {
    this.applied.delete(tool.published);
    const seen = this.options.nameAt?.(this.index, tool.published) ?? tool.published;
    if (!this.matches(seen)) return;
    const { rule } = this;
    const applied: Applied = { pinned: new Map(), hidden: new Set(), defaults: new Map(), found: new Set() };
    const has = (name: string) => schema.param(name) !== undefined;
    const named = [
      ...rule.hide,
      ...Object.keys(rule.pin),
      ...Object.keys(rule.defaults),
      ...Object.keys(rule.rename),
    ];
    for (const name of named.filter(has)) applied.found.add(name);
    for (const name of rule.hide.filter(has)) {
      if (!Object.hasOwn(rule.defaults, name) && requiredIn(schema, name))
        this.options.onWarning?.(
          `${this.name} hides required parameter "${name}" of tool "${tool.published}" without a default: its calls will lack it and be refused`,
        );
      applied.hidden.add(name);
    }
    for (const [name, value] of Object.entries(rule.pin)) if (has(name)) applied.pinned.set(name, value);
    this.checkValues(schema, 'pin', applied.pinned);
    const defaults = new Map(Object.entries(rule.defaults).filter(([name]) => has(name)));
    this.checkValues(schema, 'default', defaults);
    for (const [name, value] of defaults) {
      applied.defaults.set(name, value);
      if (applied.hidden.has(name)) continue;
      schema.setDefault(name, value);
      // The host fills the default in, so the agent may leave the parameter out.
      schema.setRequired(name, false);
    }
    schema.removeParams([...applied.hidden, ...applied.pinned.keys()]);
    if (rule.description !== undefined) schema.setDescription(rule.description);
    if (rule.annotations !== undefined) schema.setAnnotations(rule.annotations);
    for (const [from, to] of Object.entries(rule.rename)) {
      if (!has(from)) continue;
      if (has(to))
        throw new Error(
          `cannot show parameter "${from}" as "${to}": the tool already has a parameter "${to}"`,
        );
      schema.renameParam(from, to);
    }
    this.applied.set(tool.published, applied);
  }

  /** A value the config fixes that the tool would refuse is the config's mistake: this tool's listing fails, naming it. */
  private checkValues(schema: ToolSchema, what: string, values: ReadonlyMap<string, unknown>): void {
    const check = this.options.checkParam;
    if (!check || values.size === 0) return;
    const json = schema.toJSON();
    for (const [name, value] of values) {
      const problem = check(json, name, value);
      if (problem)
        throw new Error(`${what} ${name} = ${JSON.stringify(value)} does not fit the tool: ${problem}`);
    }
  }

  /** Receives the tool's own names: the pipeline has already mapped this block's renames back. */
  transformArgs(tool: ToolRef, args: Record<string, unknown>): void {
    const applied = this.applied.get(tool.published);
    if (!applied) return;
    for (const [name, value] of applied.pinned) {
      if (Object.hasOwn(args, name))
        throw errors.parameterPinned(tool.published, name, JSON.stringify(value), this.name);
      args[name] = structuredClone(value);
    }
    for (const name of applied.hidden) {
      if (Object.hasOwn(args, name)) throw errors.parameterHidden(tool.published, name, this.name);
    }
    for (const [name, value] of applied.defaults) {
      if (!Object.hasOwn(args, name)) args[name] = structuredClone(value);
    }
  }
}

function requiredIn(schema: ToolSchema, name: string): boolean {
  const required = schema.toJSON().required;
  return Array.isArray(required) && required.includes(name);
}
