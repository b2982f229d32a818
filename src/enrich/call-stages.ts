// The two halves of a call around the plugin: arguments back through the chain and validated; the result out through it.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describeThrown, errors, isForesightError } from '../host/index.js';
import type { EnrichedTool } from './enrich-tool.js';
import type { ArgumentValidator } from './validate.js';

/** A call ready for the plugin; the planner may cache by `published` and `args`. */
export interface PreparedCall {
  enriched: EnrichedTool;
  /** What the plugin receives: the agent's arguments mapped back through the chain and validated. */
  args: Record<string, unknown>;
  /** For each link with a result hook, the arguments as that link received them. */
  seen: ReadonlyMap<number, Readonly<Record<string, unknown>>>;
}

/** Undoes the renames a link made, so the link sees the names it knows. */
function mapRenamesBack(enriched: EnrichedTool, layer: number, args: Record<string, unknown>): void {
  const renames = enriched.schema.renames.filter((rename) => rename.layer === layer).reverse();
  for (const { from, to } of renames) {
    if (Object.hasOwn(args, from)) {
      throw errors.invalidArguments(
        `tool "${enriched.ref.published}"`,
        `unknown parameter "${from}"; it is called "${enriched.schema.agentName(from)}" here`,
      );
    }
    if (!Object.hasOwn(args, to)) continue;
    args[from] = args[to];
    delete args[to];
  }
}

/**
 * Runs the chain in reverse (the enricher nearest the agent first), then validates the result against
 * the enriched call schema. Nothing reaches the plugin unless it passes.
 */
export function prepareCall(
  enriched: EnrichedTool,
  agentArgs: Record<string, unknown>,
  validator: ArgumentValidator,
): PreparedCall {
  const { ref, links } = enriched;
  // A shallow copy: the chain renames, adds and deletes top-level parameters. The request object is this
  // call's own, so an enricher that edits a nested value in place touches nothing shared.
  const args = { ...agentArgs };
  const seen = new Map<number, Readonly<Record<string, unknown>>>();
  for (let layer = links.length - 1; layer >= 0; layer--) {
    const link = links[layer];
    if (!link) continue;
    mapRenamesBack(enriched, layer, args);
    if (link.enricher.transformResult) seen.set(layer, { ...args });
    try {
      link.enricher.transformArgs(ref, args);
    } catch (error) {
      // An enricher that refuses arguments says why in its own words; anything else is its failure.
      if (isForesightError(error)) throw error;
      throw errors.enricherFailed(link.label, ref.published, 'mapping its arguments', describeThrown(error));
    }
  }
  validator.check(ref.published, enriched.callSchema, args, {
    agentName: (param) => enriched.schema.agentName(param),
    agentParams: enriched.agentParams,
  });
  return { enriched, args, seen };
}

/** Runs each link's result hook in registration order (the plugin's side first). */
export function finishCall(prepared: PreparedCall, result: CallToolResult): CallToolResult {
  const { ref, links } = prepared.enriched;
  let current = result;
  for (const [layer, link] of links.entries()) {
    const transform = link.enricher.transformResult?.bind(link.enricher);
    if (!transform) continue;
    let next: unknown;
    try {
      next = transform(ref, current, prepared.seen.get(layer) ?? {});
    } catch (error) {
      throw errors.enricherFailed(link.label, ref.published, 'shaping its result', describeThrown(error));
    }
    if (!Array.isArray((next as CallToolResult | undefined)?.content)) {
      throw errors.enricherFailed(
        link.label,
        ref.published,
        'shaping its result',
        'expected { content: [...] }',
      );
    }
    current = next as CallToolResult;
  }
  return current;
}
