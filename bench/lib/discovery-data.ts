// The discovery bench's inputs and its "tokens before the first call" measure: the team catalog and in-domain
// queries read from bench/data/discovery/, and what a tools/list result of a catalog costs in o200k tokens.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from '../../src/format/index.js';
import { ROOT } from './root.js';

export const DISCOVERY_DATA_DIR = join(ROOT, 'bench', 'data', 'discovery');
export const TEAM_TOOLS_FILE = join(DISCOVERY_DATA_DIR, 'team-tools.json');
export const IN_DOMAIN_QUERIES_FILE = join(DISCOVERY_DATA_DIR, 'in-domain-queries.json');

/** A tool as tools/list publishes it, the fields the ranking reads. */
export interface CatalogTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** Its hints as published (readOnlyHint tells the search a reading tool from a writing one). */
  annotations?: Record<string, unknown>;
}

/** What the data keeps of a listed tool. */
export function catalogEntry(tool: {
  name: string;
  description?: string;
  inputSchema: object;
  annotations?: object;
}): CatalogTool {
  const entry: CatalogTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Record<string, unknown>,
  };
  if (tool.annotations) entry.annotations = tool.annotations as Record<string, unknown>;
  return entry;
}

/** A request in natural language and every published tool name that answers it. */
export interface InDomainQuery {
  query: string;
  acceptable: string[];
}

export const loadTeamTools = (): CatalogTool[] =>
  JSON.parse(readFileSync(TEAM_TOOLS_FILE, 'utf8')) as CatalogTool[];

export const loadInDomainQueries = (): InDomainQuery[] =>
  JSON.parse(readFileSync(IN_DOMAIN_QUERIES_FILE, 'utf8')) as InDomainQuery[];

/**
 * The o200k tokens (gpt-tokenizer's o200k_base, through src/format's countTokens) of a tools/list result with
 * these tools, as compact JSON: what a client hands its model before the first call.
 */
export function listResultTokens(tools: readonly unknown[]): number {
  return countTokens(JSON.stringify({ tools }));
}
