// Long task texts: split into their parts (sentences, clauses joined by "and then", "then", "also"), each searched
// on its own, and the ranked lists merged by reciprocal-rank fusion so that every part's best tools surface.
import { stems } from './terms.js';

/** A part with fewer content words than this is too vague to search alone. */
const MIN_PART_WORDS = 2;
/** Reciprocal-rank fusion's constant: larger flattens the difference between ranks. */
const RRF_K = 20;

/** The parts of a query worth searching apart; none when it is a single part. */
export function queryParts(query: string): string[] {
  const parts = query
    .split(/[.!?;\n]+|,\s*(?:and\s+)?then\b|\b(?:and\s+then|then|and\s+also|also|after\s+that|afterwards)\b/i)
    .map((part) => part.trim())
    .filter((part) => stems(part).length >= MIN_PART_WORDS);
  return parts.length > 1 ? parts : [];
}

/** A ranked list and how much it counts in the fusion. */
export interface RankedList {
  names: readonly string[];
  weight: number;
}

/** Merges ranked lists: each name scores the sum of weight / (k + rank) over the lists it is in. */
export function fuse(lists: readonly RankedList[]): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.names.forEach((name, rank) => {
      scores.set(name, (scores.get(name) ?? 0) + list.weight / (RRF_K + rank + 1));
    });
  }
  return scores;
}
