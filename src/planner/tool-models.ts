// Each listed tool's value model as the planner uses it (defaults, enrichers and [tools] merged), worked out once per catalog build.
import type { ToolOverride } from '../config/index.js';
import type { Logger, McpTool, ToolValueModel } from '../contract/index.js';
import type { EnrichedTool, ToolPipeline } from '../enrich/index.js';
import type { ToolCallOptions } from '../host/index.js';
import { enricherModel } from './enricher-hooks.js';
import { isReadOnly, mayRunAhead, replacedLinksNote, resolveValueModel } from './value-models.js';

/** What one listed tool's planning needs, worked out once per catalog build. */
interface ToolMemo {
  model: ToolValueModel;
  /** For a tool that may write: the tools whose results it makes stale (its plugin's, when it names none). */
  invalidates: readonly string[];
}

/** The options of a call of a tool with no side effects; one object for them all. */
const READ_ONLY: ToolCallOptions = Object.freeze({ readOnly: true });

/** What the plugin is told of a call of a tool with this model. */
export function callOptions(model: ToolValueModel): ToolCallOptions | undefined {
  return isReadOnly(model) ? READ_ONLY : undefined;
}

/** True for a call that may change what other calls read: it invalidates, and is never served from the cache. */
export function writes(model: ToolValueModel): boolean {
  return !mayRunAhead(model) && !isReadOnly(model);
}

/** The mutation's values of its identifying parameters, or undefined (= every entry of the tools goes). */
export function matchOf(
  names: readonly string[] | undefined,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (names === undefined || names.length === 0) return undefined;
  const match: Record<string, unknown> = {};
  for (const name of names) {
    // A parameter the call leaves out says nothing about what it changes: drop every entry.
    if (!Object.hasOwn(args, name)) return undefined;
    match[name] = args[name];
  }
  return match;
}

/** The listed tools' value models, with what each write invalidates and which tools follow-ups lead to. */
export class ToolModels {
  private readonly memos = new WeakMap<EnrichedTool, ToolMemo>();
  /** The tools follow-up links lead to, for the catalog build `listed` came from. */
  private targets: { listed: readonly McpTool[]; names: ReadonlySet<string> } | undefined;

  constructor(
    private readonly pipeline: ToolPipeline,
    /** `[tools."<name>"]` and `[tools."*"]`. */
    private readonly overrides: Readonly<Record<string, ToolOverride>>,
    private readonly logger: Logger,
  ) {}

  /** The value model of a listed tool, or undefined for a tool that is not listed. */
  modelOf(name: string): ToolValueModel | undefined {
    const enriched = this.pipeline.listed(name);
    return enriched && this.modelFor(enriched);
  }

  modelFor(enriched: EnrichedTool): ToolValueModel {
    return this.memoFor(enriched).model;
  }

  /** For a tool that may write: the tools whose results it makes stale; none for one that does not. */
  invalidatesOf(enriched: EnrichedTool): readonly string[] {
    return this.memoFor(enriched).invalidates;
  }

  /** Published names some listed tool's follow-up links lead to; worked out once per catalog build. */
  linkTargets(): ReadonlySet<string> {
    const listed = this.pipeline.listTools();
    if (this.targets?.listed !== listed) {
      const names = new Set<string>();
      for (const tool of listed)
        for (const link of this.modelOf(tool.name)?.followUp ?? []) names.add(link.tool);
      this.targets = { listed, names };
    }
    return this.targets.names;
  }

  /**
   * Mistakes in the value models that only show once tools are listed: a `[tools."…"]` block naming no
   * listed tool, and follow-up links or invalidations naming one. Each is one sentence.
   */
  problems(): string[] {
    const listed = new Set(this.pipeline.listTools().map((tool) => tool.name));
    const problems: string[] = [];
    for (const name of Object.keys(this.overrides)) {
      if (name !== '*' && !listed.has(name))
        problems.push(`[tools."${name}"] names no listed tool, so it applies to nothing`);
    }
    for (const name of listed) {
      const model = this.modelOf(name);
      if (!model) continue;
      for (const link of model.followUp) {
        if (!listed.has(link.tool))
          problems.push(
            `a follow-up of ${name} names ${link.tool}, which is not listed; it never runs ahead`,
          );
      }
      for (const tool of model.invalidates) {
        if (!listed.has(tool)) problems.push(`${name} invalidates ${tool}, which is not listed`);
      }
    }
    return problems;
  }

  /**
   * Config that does what it says but maybe not what was meant: a `[tools."…"]` `follow_up` that replaces
   * links the tool's plugin gives it. Each is one sentence.
   */
  notes(): string[] {
    const { overrides } = this;
    const notes: string[] = [];
    for (const tool of this.pipeline.listTools()) {
      const enriched = this.pipeline.listed(tool.name);
      if (!enriched) continue;
      const note = replacedLinksNote(tool.name, {
        annotations: enriched.tool.annotations,
        fromEnricher: enricherModel(enriched, this.logger),
        wildcard: overrides['*'],
        named: overrides[tool.name],
      });
      if (note !== undefined) notes.push(note);
    }
    return notes;
  }

  private memoFor(enriched: EnrichedTool): ToolMemo {
    let memo = this.memos.get(enriched);
    if (!memo) {
      const { overrides } = this;
      const model = resolveValueModel({
        annotations: enriched.tool.annotations,
        fromEnricher: enricherModel(enriched, this.logger),
        wildcard: overrides['*'],
        named: overrides[enriched.ref.published],
      });
      // A write that does not say what it touches may touch anything of its plugin.
      const invalidates = !writes(model)
        ? []
        : model.invalidates.length > 0
          ? model.invalidates
          : this.pipeline.listedOf(enriched.ref.plugin);
      memo = { model, invalidates };
      this.memos.set(enriched, memo);
    }
    return memo;
  }
}
