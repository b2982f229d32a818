// Runs one tool's schema through its enricher chain: the tool as listed, and what its calls are checked against.
import {
  type ForesightError,
  type McpTool,
  type PublishedToolEntry,
  describeThrown,
  errors,
} from '../host/index.js';
import type { ChainLink, ToolChain } from './chain.js';
import type { ToolCategory, ToolRef } from './contract.js';
import { EditableToolSchema } from './tool-schema.js';

/** A tool after enrichment: what tools/list shows and what its calls need. */
export interface EnrichedTool {
  ref: ToolRef;
  /** As listed. */
  tool: McpTool;
  links: readonly ChainLink[];
  /** Holds the renames, for mapping arguments back and naming parameters in errors. */
  schema: EditableToolSchema;
  /** What the arguments are validated against once the chain has mapped them back; built on first call. */
  readonly callSchema: Record<string, unknown>;
  /** The parameters the agent sees, listed when it sends an unknown one. */
  agentParams: string[];
}

export type ToolOutcome =
  | { state: 'listed'; enriched: EnrichedTool }
  | { state: 'hidden'; category: ToolCategory }
  | { state: 'failed'; error: ForesightError };

export function enrichTool(entry: PublishedToolEntry, chain: ToolChain): ToolOutcome {
  const { ref, tool } = entry;
  if (!chain.visible && ref.category !== undefined) return { state: 'hidden', category: ref.category };
  const schema = new EditableToolSchema(tool);
  for (const [layer, link] of chain.links.entries()) {
    schema.layer = layer;
    try {
      link.enricher.enrichSchema(ref, schema);
    } catch (error) {
      return {
        state: 'failed',
        error: errors.enricherFailed(link.label, ref.published, 'listing it', describeThrown(error)),
      };
    }
  }
  const inputSchema = schema.view();
  if (inputSchema.type !== 'object') {
    const last = chain.links.at(-1)?.label ?? 'chain';
    return {
      state: 'failed',
      error: errors.enricherFailed(
        last,
        ref.published,
        'listing it',
        'the input schema is no longer of type "object"',
      ),
    };
  }
  const description = schema.description();
  const annotations = schema.annotations();
  const { description: _d, annotations: _a, inputSchema: _i, ...rest } = tool;
  let callSchema: Record<string, unknown> | undefined;
  return {
    state: 'listed',
    enriched: {
      ref,
      tool: {
        ...rest,
        ...(description === undefined ? {} : { description }),
        inputSchema: inputSchema as McpTool['inputSchema'],
        ...(annotations === undefined ? {} : { annotations }),
      },
      links: chain.links,
      schema,
      // Most listed tools are never called between two rebuilds: their call schemas are not worth building.
      get callSchema() {
        callSchema ??= schema.callSchema();
        return callSchema;
      },
      agentParams: schema.paramNames(),
    },
  };
}
