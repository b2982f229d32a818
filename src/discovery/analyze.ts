// A text's search terms: its stemmed words and the tokens of the synonym groups its words and phrases belong to.
import { stems } from './terms.js';
import { groupsOf, phraseGroups } from './vocabulary.js';

/** A term and how much it counts in a query: the text's own words 1, a synonym group's token less. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** How much a synonym group's token counts beside the words the query used. */
export const SYNONYM_WEIGHT = 0.6;

/** The terms of a text with the synonym groups its words and phrases belong to; a term appears once. */
export function analyze(text: string): WeightedTerm[] {
  const base = stems(text);
  const seen = new Map<string, number>();
  const add = (term: string, weight: number): void => {
    seen.set(term, Math.max(seen.get(term) ?? 0, weight));
  };
  for (const term of base) add(term, 1);
  for (const term of base) for (const group of groupsOf(term)) add(group, SYNONYM_WEIGHT);
  for (const group of phraseGroups(base)) add(group, SYNONYM_WEIGHT);
  return [...seen].map(([term, weight]) => ({ term, weight }));
}

/** A document field's terms for the index: every word (repeats kept, for term frequency) and its groups. */
export function documentTerms(text: string): string[] {
  const base = stems(text);
  const out = [...base];
  for (const term of base) out.push(...groupsOf(term));
  out.push(...phraseGroups(base));
  return out;
}
