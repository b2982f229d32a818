// Requests for the discovery latency bench over a synthetic catalog (bench/lib/synthetic-catalog.ts): each in the
// words of the catalog's own descriptions, half a short request for one tool, half a task of two steps.
import { createRandom, mixSeed } from './corpus-sessions.js';
import type { SyntheticTool } from './synthetic-catalog.js';

/** Words a request takes from a tool's description: its first clause, at most this many. */
const REQUEST_WORDS = 8;

/** What a tool's description asks, as a person would put it: its first clause, lowercased, a few words. */
function ask(tool: SyntheticTool): string {
  const clause = tool.description.split(/[.:;(]/)[0] ?? '';
  return clause.toLowerCase().split(/\s+/).filter(Boolean).slice(0, REQUEST_WORDS).join(' ');
}

/** `count` requests over `tools`, the same for the same seed. */
export function syntheticQueries(tools: readonly SyntheticTool[], count: number, seed: number): string[] {
  const random = createRandom(mixSeed(seed, 'synthetic-queries'));
  const pick = (): SyntheticTool => tools[Math.floor(random() * tools.length)] as SyntheticTool;
  const queries: string[] = [];
  for (let i = 0; i < count; i += 1)
    queries.push(random() < 0.5 ? ask(pick()) : `I need to ${ask(pick())}, and then ${ask(pick())}`);
  return queries;
}
