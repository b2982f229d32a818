// Which discovery mode is in force ("all" or "search") and why, from [discovery] and what the full list costs.
import type { DiscoveryConfig } from '../config/index.js';
import type { McpTool } from '../contract/index.js';
import { fullListTokens } from './list-cost.js';

export { fullListTokens } from './list-cost.js';

/** The mode served: every tool in tools/list, or the search meta-tools. */
export type DiscoveryMode = 'all' | 'search';

export interface ResolvedDiscovery {
  mode: DiscoveryMode;
  /** Why, with the full list's cost: "auto → search (full tools/list 14,810 tokens > auto_tokens 8,000)". */
  why: string;
}

const thousands = (count: number) => count.toLocaleString('en-US');

/** `mode = "auto"` is search when the full list costs more than `auto_tokens`; the other modes are as set. */
export function resolveDiscoveryMode(
  settings: Pick<DiscoveryConfig, 'mode' | 'autoTokens'>,
  listTokens: number,
): ResolvedDiscovery {
  const list = `full tools/list ${thousands(listTokens)} tokens`;
  if (settings.mode !== 'auto') return { mode: settings.mode, why: `${settings.mode} (set; ${list})` };
  const mode = listTokens > settings.autoTokens ? 'search' : 'all';
  const compared = mode === 'search' ? '>' : '<=';
  return { mode, why: `auto → ${mode} (${list} ${compared} auto_tokens ${thousands(settings.autoTokens)})` };
}

/** The line `check` prints and the ready log carries: "discovery: auto → all (full tools/list 1,204 tokens <= …)". */
export function discoveryLine(settings: DiscoveryConfig, tools: readonly McpTool[]): string {
  return `discovery: ${resolveDiscoveryMode(settings, fullListTokens(tools)).why}`;
}
