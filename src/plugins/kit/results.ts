// The one way a provider tool answers with data: a shaped result for the format layer, its JSON as text for the rest.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ShapedResult } from '../../enrich/index.js';

/** `summary` replaces the JSON text, for writes whose answer a person reads ("Created #12: …"). */
export function shapedResult(data: ShapedResult, summary?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: summary ?? JSON.stringify(data) }],
    structuredContent: data as unknown as Record<string, unknown>,
  };
}
