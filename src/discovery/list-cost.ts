// What the full tools/list costs a model before its first call: the listed tools' JSON, in o200k tokens.
import type { McpTool } from '../contract/index.js';
import { countTokens } from '../format/index.js';

/** Estimated tokens of a tools/list result holding `tools` (the JSON a client hands its model). */
export function fullListTokens(tools: readonly McpTool[]): number {
  return countTokens(JSON.stringify({ tools }));
}
