// The baseline every tool search is compared with: a plain BM25 (k1 = 1.2, b = 0.75) over one text per tool,
// lowercase words, no stemming, no synonyms, no stop words.

const K1 = 1.2;
const B = 0.75;

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

export interface Bm25Hit {
  name: string;
  score: number;
}

export class Bm25 {
  private readonly docs: { name: string; tf: Map<string, number>; length: number }[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  constructor(docs: Iterable<{ name: string; text: string }>) {
    for (const doc of docs) {
      const tf = new Map<string, number>();
      const words = tokens(doc.text);
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.docs.push({ name: doc.name, tf, length: words.length });
      this.totalLength += words.length;
    }
  }

  search(query: string, limit: number): Bm25Hit[] {
    const n = this.docs.length;
    const avg = this.totalLength / Math.max(1, n);
    const terms = [...new Set(tokens(query))];
    const hits: Bm25Hit[] = [];
    for (const doc of this.docs) {
      let score = 0;
      for (const term of terms) {
        const f = doc.tf.get(term);
        if (f === undefined) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / avg));
      }
      if (score > 0) hits.push({ name: doc.name, score });
    }
    return hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, limit);
  }
}
