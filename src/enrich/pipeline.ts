// The enrichment pipeline in front of the plugin host: the cached enriched tool list, and every tool call's way through the chain.
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  describeThrown,
  errors,
  type Logger,
  type McpTool,
  type ToolCategory,
  type ToolEnricher,
} from '../contract/index.js';
import {
  type CallEnvironment,
  type PluginHost,
  type PublishedToolEntry,
  enricherName,
} from '../host/index.js';
import { type PreparedCall, finishCall, prepareCall } from './call-stages.js';
import { type ChainLink, type GlobalEnricher, chainFor } from './chain.js';
import { type EnrichedTool, type ToolOutcome, enrichTool } from './enrich-tool.js';
import type { ArgumentValidator } from './validate.js';

export interface ToolPipelineOptions {
  host: PluginHost;
  /** Enrichers for every plugin's tools, run after each plugin's own, in this order. Default none. */
  enrichers?: readonly ToolEnricher[];
  validator: ArgumentValidator;
  logger: Logger;
}

/** What the pipeline built for one rebuild of the catalog. */
interface Built {
  outcomes: Map<string, ToolOutcome>;
  listed: McpTool[];
  /** The listed tools as JSON, to tell whether a rebuild changed what clients see; made when first needed. */
  fingerprint?: string;
}

export class ToolPipeline {
  private readonly globals: GlobalEnricher[];
  private built: Built | undefined;
  /** Set by refresh(): the next use rebuilds, and listeners hear if the list differs from `fingerprintBefore`. */
  private stale = false;
  private fingerprintBefore: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: ToolPipelineOptions) {
    this.globals = (options.enrichers ?? []).map((enricher, index) => ({
      enricher,
      label: `"${enricherName(enricher, index)}" (global)`,
    }));
    options.host.on('listChanged', (kind) => {
      if (kind === 'tools') this.refresh();
    });
    for (const global of this.globals) this.watch(global.enricher, global.label);
  }

  /** The enriched list, built on first use and after each change. */
  listTools(): McpTool[] {
    return this.current().listed;
  }

  /**
   * Rebuilds the enriched list soon (after the current task, so a burst of changes costs one rebuild)
   * and tells listeners when what clients see has changed. Call it when an enricher has new metadata.
   */
  refresh(): void {
    if (this.stale) return;
    this.stale = true;
    this.fingerprintBefore = this.built && fingerprintOf(this.built);
    queueMicrotask(() => {
      if (fingerprintOf(this.current()) !== this.fingerprintBefore) this.emitChanged();
    });
  }

  /** Tools left out of the list, and why: a failed enricher, or a category no enricher serves. */
  unlisted(): { tool: string; reason: 'failed' | 'hidden'; message: string }[] {
    const found: { tool: string; reason: 'failed' | 'hidden'; message: string }[] = [];
    for (const [tool, outcome] of this.current().outcomes) {
      if (outcome.state === 'failed') found.push({ tool, reason: 'failed', message: outcome.error.message });
      else if (outcome.state === 'hidden')
        found.push({ tool, reason: 'hidden', message: errors.toolHidden(tool, outcome.category).message });
    }
    return found;
  }

  /** Called when the enriched list changes; returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The listed tool behind a published name, with its enricher chain; undefined when it is not listed
   * (unknown, hidden or failed). Each rebuild makes new objects, so they can key per-build memos.
   */
  listed(name: string): EnrichedTool | undefined {
    const outcome = this.current().outcomes.get(name);
    return outcome?.state === 'listed' ? outcome.enriched : undefined;
  }

  /** Published names of the listed tools of one plugin. */
  listedOf(plugin: string): string[] {
    const names: string[] = [];
    for (const [name, outcome] of this.current().outcomes) {
      if (outcome.state === 'listed' && outcome.enriched.ref.plugin === plugin) names.push(name);
    }
    return names;
  }

  /** Maps and validates a call's arguments; throws the error the agent gets when the call cannot go on. */
  prepare(name: string, args: Record<string, unknown>): PreparedCall {
    const outcome = this.current().outcomes.get(name);
    if (!outcome) throw errors.toolNotFound(name);
    if (outcome.state === 'hidden') throw errors.toolHidden(name, outcome.category);
    if (outcome.state === 'failed') throw outcome.error;
    return prepareCall(outcome.enriched, args, this.options.validator);
  }

  /** Passes a plugin's result out through the chain's result hooks. */
  finish(prepared: PreparedCall, result: CallToolResult): CallToolResult {
    return finishCall(prepared, result);
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    env?: CallEnvironment,
  ): Promise<CallToolResult> {
    const prepared = this.prepare(name, args);
    const result = await this.options.host.callTool(name, prepared.args, env);
    return this.finish(prepared, result);
  }

  private current(): Built {
    if (!this.built || this.stale) {
      this.stale = false;
      this.built = this.build();
    }
    return this.built;
  }

  private build(): Built {
    const categories = new Map<ToolEnricher, readonly ToolCategory[] | undefined>();
    const categoriesOf = (enricher: ToolEnricher): readonly ToolCategory[] | undefined => {
      if (!categories.has(enricher)) categories.set(enricher, this.readCategories(enricher));
      return categories.get(enricher);
    };
    const scopedLinks = new Map<readonly ToolEnricher[], ChainLink[]>();
    const outcomes = new Map<string, ToolOutcome>();
    const listed: McpTool[] = [];
    for (const entry of this.options.host.publishedTools()) {
      let scoped = scopedLinks.get(entry.enrichers);
      if (!scoped) {
        scoped = scopedChain(entry);
        scopedLinks.set(entry.enrichers, scoped);
        for (const link of scoped) this.watch(link.enricher, link.label);
      }
      const outcome = enrichTool(entry, chainFor(entry.ref, scoped, this.globals, categoriesOf));
      outcomes.set(entry.ref.published, outcome);
      if (outcome.state === 'listed') listed.push(outcome.enriched.tool);
      else if (outcome.state === 'failed')
        this.options.logger.error(
          { tool: entry.ref.published, err: outcome.error.message },
          'tool left out of the list',
        );
    }
    return { outcomes, listed };
  }

  /** Undefined when the enricher cannot say: it then sits this build out rather than see every tool. */
  private readonly watched = new WeakSet<ToolEnricher>();

  /** Lets an enricher ask for a rebuild itself; each enricher is asked once. */
  private watch(enricher: ToolEnricher, label: string): void {
    if (!enricher.watch || this.watched.has(enricher)) return;
    this.watched.add(enricher);
    try {
      enricher.watch(() => this.refresh());
    } catch (error) {
      this.options.logger.error({ enricher: label, err: describeThrown(error) }, 'watch() threw');
    }
  }

  private readCategories(enricher: ToolEnricher): readonly ToolCategory[] | undefined {
    let list: unknown;
    try {
      list = enricher.supportedCategories();
    } catch (error) {
      list = describeThrown(error);
    }
    if (Array.isArray(list)) return list as ToolCategory[];
    this.options.logger.error(
      { enricher: enricher.name, got: typeof list === 'string' ? list : typeof list },
      'supportedCategories() did not return an array; the enricher sits out until the next rebuild',
    );
    return undefined;
  }

  private emitChanged(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.options.logger.error({ err: describeThrown(error) }, 'tools-changed listener failed');
      }
    }
  }
}

function fingerprintOf(built: Built): string {
  built.fingerprint ??= JSON.stringify(built.listed);
  return built.fingerprint;
}

function scopedChain(entry: PublishedToolEntry): ChainLink[] {
  return entry.enrichers.map((enricher, index) => ({
    enricher,
    label: `"${enricherName(enricher, index)}" of plugin ${entry.owner}`,
  }));
}
