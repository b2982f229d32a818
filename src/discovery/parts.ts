// Long task texts: split into their parts (sentences, clauses joined by "and then", "then", "also"), each searched
// on its own, and the ranked lists merged on one scale so that
// every part's best tools surface.
import { stems } from './terms.js';

/** A part with fewer content words than this is too vague to search alone. */
const MIN_PART_WORDS = 2;

/** The parts of a query worth searching apart; none when it is a single part. */
export function queryParts(query: string): string[] {
  const parts = query
    .split(/[.!?;\n]+|,\s*(?:and\s+)?then\b|\b(?:and\s+then|then|and\s+also|also|after\s+that|afterwards)\b/i)
    .map((part) => part.trim())
    .filter((part) => stems(part).length >= MIN_PART_WORDS);
  return parts.length > 1 ? parts : [];
}

/** A ranked list (scores higher is better) and how much it counts in the fusion. */
export interface RankedList {
  hits: readonly { name: string; score: number }[];
  weight: number;
}

/**
 * Merges ranked lists: each list's scores are divided by its best, so that every part counts on one scale, and a
 * name scores the weighted sum over the lists it is in.
 */
export function fuse(lists: readonly RankedList[]): Map<string, number> {
  const scores = new Map<string, number>();
  for (const { hits, weight } of lists) {
    const best = hits[0]?.score ?? 0;
    if (best <= 0) continue;
    for (const hit of hits) scores.set(hit.name, (scores.get(hit.name) ?? 0) + (weight * hit.score) / best);
  }
  return scores;
}
