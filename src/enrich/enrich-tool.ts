// Runs one tool's schema through its enricher chain: the tool as listed, and the two schemas its calls are checked against.
import {
  describeThrown,
  errors,
  type ForesightError,
  type McpTool,
  type ToolCategory,
  type ToolRef,
} from '../contract/index.js';
import { type PublishedToolEntry } from '../host/index.js';
import type { ChainLink, ToolChain } from './chain.js';
import { EditableToolSchema } from './tool-schema.js';

/** A tool after enrichment: what tools/list shows and what its calls need. */
export interface EnrichedTool {
  ref: ToolRef;
  /** As listed: the agent's arguments are checked against its `inputSchema` before the chain maps them. */
  tool: McpTool;
  links: readonly ChainLink[];
  /** Holds the renames, for mapping arguments back, and which enricher edited each parameter. */
  schema: EditableToolSchema;
  /** The plugin's own input schema, which the arguments must fit once the chain has mapped them. */
  declared: Record<string, unknown>;
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
      // The plugin's object itself: its compiled validator stays cached across rebuilds of the list.
      declared: tool.inputSchema,
    },
  };
}
