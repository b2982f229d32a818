// Which tools are published and under what name: a plugin table's tools.allow / tools.deny, then the drop and
// name of the [[enrich]] blocks in file order.
import picomatch from 'picomatch';
import type { DeclarativeEnrichRule, ToolFilter } from '../config/index.js';
import { type ToolPublisher, publishName } from '../host/index.js';

/** The plugin a tool belongs to, as the host mounted it. */
export interface PluginNaming {
  name: string;
  prefix: string;
}

/** One tool's way through the rules. */
export interface ToolFate {
  /** The published name; undefined when a rule keeps the tool from being published. */
  published: string | undefined;
  /** The name each [[enrich]] block sees, by block index; undefined once the tool is dropped. */
  seen: readonly (string | undefined)[];
}

type Matcher = (name: string) => boolean;

interface CompiledFilter {
  allow: Matcher | undefined;
  deny: Matcher;
}

export class ToolRules {
  private readonly blocks: readonly { rule: DeclarativeEnrichRule; matches: Matcher }[];
  private readonly filters = new Map<string, CompiledFilter>();
  /** What each block saw of the tools last published, by published name: filled as the host publishes them. */
  private readonly seenBy = new Map<string, readonly (string | undefined)[]>();

  constructor(rules: readonly DeclarativeEnrichRule[], filters: ReadonlyMap<string, ToolFilter> = new Map()) {
    this.blocks = rules.map((rule) => ({ rule, matches: picomatch(rule.tools) }));
    for (const [plugin, filter] of filters) {
      this.filters.set(plugin, {
        allow: filter.allow && picomatch(filter.allow),
        deny: filter.deny.length > 0 ? picomatch(filter.deny) : () => false,
      });
    }
  }

  /** The host's hook: the published name of a plugin's tool, or undefined when it is not published. */
  readonly publish: ToolPublisher = (plugin, local) => {
    const fate = this.fate(plugin, local);
    if (fate.published !== undefined) this.seenBy.set(fate.published, fate.seen);
    return fate.published;
  };

  /** Where the rules take a tool; reads no state, so `foresight check` can replay it over every catalog. */
  fate(plugin: PluginNaming, local: string): ToolFate {
    const filter = this.filters.get(plugin.name);
    // Deny wins: a tool both lists name is not published.
    if (filter && (filter.deny(local) || (filter.allow !== undefined && !filter.allow(local))))
      return { published: undefined, seen: this.blocks.map(() => undefined) };
    const seen: (string | undefined)[] = [];
    let current: string | undefined = publishName(plugin.prefix, local);
    for (const { rule, matches } of this.blocks) {
      seen.push(current);
      if (current === undefined || !matches(current)) continue;
      if (rule.drop) current = undefined;
      else if (rule.name !== undefined) current = publishName(plugin.prefix, rule.name);
    }
    return { published: current, seen };
  }

  /** Whether the globs of block `index` match `name`. */
  blockMatches(index: number, name: string): boolean {
    return this.blocks[index]?.matches(name) ?? false;
  }

  /**
   * The name block `index` sees for the tool published as `published`: a block matches the name the blocks
   * before it left, so a block after a rename names the tool by its new name.
   */
  nameAt(index: number, published: string): string {
    return this.seenBy.get(published)?.[index] ?? published;
  }
}
