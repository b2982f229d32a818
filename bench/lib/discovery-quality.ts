// Retrieval quality of a tool search: hit@1, hit@3, Recall@k and nDCG@5 over labelled queries, for any ranker.
import type { LabelledQuery } from './metatool.js';

/** A search under test: a query to names, best first. */
export type Ranker = (query: string, limit: number) => readonly string[];

export interface QualityReport {
  queries: number;
  hit1: number;
  /** Share of queries with at least one of their tools in the top 3 (for in-domain requests: an acceptable one). */
  hit3: number;
  /** Share of each query's tools found in the top 5 (for one tool, hit@5), averaged. */
  recall5: number;
  recall10: number;
  ndcg5: number;
}

function ndcg(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((name, i) => {
    if (relevant.has(name)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i += 1) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

function recall(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const found = ranked.slice(0, k).filter((name) => relevant.has(name)).length;
  return relevant.size === 0 ? 0 : found / relevant.size;
}

export function measureQuality(queries: readonly LabelledQuery[], rank: Ranker): QualityReport {
  let hit1 = 0;
  let hit3 = 0;
  let recall5 = 0;
  let recall10 = 0;
  let ndcg5 = 0;
  for (const { query, tools } of queries) {
    const relevant = new Set(tools);
    const ranked = rank(query, 10);
    if (ranked[0] !== undefined && relevant.has(ranked[0])) hit1 += 1;
    if (ranked.slice(0, 3).some((name) => relevant.has(name))) hit3 += 1;
    recall5 += recall(ranked, relevant, 5);
    recall10 += recall(ranked, relevant, 10);
    ndcg5 += ndcg(ranked, relevant, 5);
  }
  const n = Math.max(1, queries.length);
  return {
    queries: queries.length,
    hit1: hit1 / n,
    hit3: hit3 / n,
    recall5: recall5 / n,
    recall10: recall10 / n,
    ndcg5: ndcg5 / n,
  };
}

/** Every `step`-th query, from the first: a deterministic sample. */
export function everyNth<T>(items: readonly T[], step: number): T[] {
  return items.filter((_, i) => i % step === 0);
}
