// The tool index: published tools in a MiniSearch index (BM25+ with per-field boosts, prefix and fuzzy matches
// weighted down), searched with synonyms, long texts split into parts, and boosts from outside (the planner).
import MiniSearch from 'minisearch';
import { type WeightedTerm, analyze, documentTerms } from './analyze.js';
import { FIELD_BOOSTS, type IndexableTool, type ToolDocument, toolDocument } from './fields.js';
import { type Intent, intentFactor, requestIntent, toolIntent } from './intent.js';
import { fuse, queryParts } from './parts.js';

/** A boost from outside: a factor per tool name (1 leaves the rank alone), as a function or a map. */
export type ToolBoost =
  ((name: string) => number) | ReadonlyMap<string, number> | Readonly<Record<string, number>>;

export interface SearchOptions {
  /** At most this many results (default 10). */
  limit?: number;
  boost?: ToolBoost;
}

/** One result: a tool's name and its score (higher is better; comparable within one search only). */
export interface ToolHit {
  name: string;
  score: number;
}

export interface ToolIndex {
  /** Ranked best first; an empty or meaningless query finds nothing. */
  search(query: string, options?: SearchOptions): ToolHit[];
  /** Adds a tool, or replaces the one of the same name. */
  upsert(tool: IndexableTool): void;
  /** Removes a tool by name; false when there was none. */
  remove(name: string): boolean;
  has(name: string): boolean;
  readonly size: number;
}

const DEFAULT_LIMIT = 10;
/** How deep each part's ranked list goes before fusion. */
const PART_DEPTH = 30;
/**
 * A query term found in more than this share of the tools barely tells them apart but makes the engine score most
 * of the catalog: it is left out when the query has other terms.
 */
const COMMON_SHARE = 0.2;
/** Below this many tools every search is fast enough with all its terms. */
const SELECTIVE_FROM = 100;
/** In the fusion, the whole text's list counts this much, each part's list less. */
const WHOLE_WEIGHT = 1;
const PART_WEIGHT = 0.5;

const FIELDS = Object.keys(FIELD_BOOSTS) as (keyof typeof FIELD_BOOSTS)[];

function boostOf(boost: ToolBoost | undefined, name: string): number {
  if (boost === undefined) return 1;
  const value =
    typeof boost === 'function'
      ? boost(name)
      : boost instanceof Map
        ? boost.get(name)
        : (boost as Readonly<Record<string, number>>)[name];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 1;
}

class MiniSearchToolIndex implements ToolIndex {
  private readonly engine = new MiniSearch<ToolDocument>({
    fields: FIELDS,
    idField: 'id',
    tokenize: (text) => documentTerms(text),
    processTerm: (term) => term,
  });

  /** How many tools each term is in, and each tool's terms, to keep the counts on replace and remove. */
  private readonly frequency = new Map<string, number>();
  private readonly termsOf = new Map<string, Set<string>>();
  /** Whether each tool reads or writes, to rank it against what a request asks for. */
  private readonly intentOf = new Map<string, Intent>();

  get size(): number {
    return this.engine.documentCount;
  }

  has(name: string): boolean {
    return this.engine.has(name);
  }

  upsert(tool: IndexableTool): void {
    const document = toolDocument(tool);
    if (this.engine.has(document.id)) {
      this.count(document.id, -1);
      this.engine.replace(document);
    } else this.engine.add(document);
    const terms = new Set<string>();
    for (const field of FIELDS) for (const term of documentTerms(document[field])) terms.add(term);
    this.termsOf.set(document.id, terms);
    this.intentOf.set(document.id, toolIntent(tool.name, tool.annotations));
    this.count(document.id, 1);
  }

  remove(name: string): boolean {
    if (!this.engine.has(name)) return false;
    this.count(name, -1);
    this.termsOf.delete(name);
    this.intentOf.delete(name);
    this.engine.discard(name);
    return true;
  }

  private count(name: string, delta: number): void {
    for (const term of this.termsOf.get(name) ?? []) {
      const next = (this.frequency.get(term) ?? 0) + delta;
      if (next > 0) this.frequency.set(term, next);
      else this.frequency.delete(term);
    }
  }

  /**
   * The query's terms without the very common ones, in a catalog large enough for them to cost; when no term that
   * some tool has is left, all of them or (`strict`) none.
   */
  private selective(terms: WeightedTerm[], strict: boolean): WeightedTerm[] {
    if (this.size < SELECTIVE_FROM) return terms;
    const limit = this.size * COMMON_SHARE;
    const rare = terms.filter((t) => (this.frequency.get(t.term) ?? 0) <= limit);
    if (rare.some((t) => (this.frequency.get(t.term) ?? 0) > 0)) return rare;
    return strict ? [] : terms;
  }

  search(query: string, options: SearchOptions = {}): ToolHit[] {
    const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_LIMIT));
    if (typeof query !== 'string' || limit === 0 || this.size === 0) return [];
    const whole = this.rank(query);
    const parts = queryParts(query);
    let scores: Map<string, number>;
    if (parts.length === 0) scores = new Map(whole.map((hit) => [hit.name, hit.score]));
    else {
      const lists = [{ hits: whole, weight: WHOLE_WEIGHT }];
      for (const part of parts) lists.push({ hits: this.rank(part, true), weight: PART_WEIGHT });
      scores = fuse(lists);
    }
    const hits: ToolHit[] = [];
    const asked = requestIntent(query);
    for (const [name, score] of scores) {
      const intent = intentFactor(asked, this.intentOf.get(name) ?? 'unknown');
      hits.push({ name, score: score * intent * boostOf(options.boost, name) });
    }
    return hits
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, limit);
  }

  /** One text's ranked list from the engine; a `part` of only common words finds nothing of its own. */
  private rank(text: string, part = false): ToolHit[] {
    const terms = this.selective(analyze(text), part);
    if (terms.length === 0) return [];
    const weights = new Map(terms.map((t) => [t.term, t.weight]));
    const results = this.engine.search(terms.map((t) => t.term).join(' '), {
      boost: FIELD_BOOSTS,
      tokenize: (q) => q.split(' '),
      processTerm: (term) => term,
      boostTerm: (term) => weights.get(term) ?? 1,
      prefix: (term) => term.length >= 4 && !term.startsWith('~'),
      fuzzy: false,
      weights: { prefix: 0.3, fuzzy: 0.2 },
      combineWith: 'OR',
    });
    return results.slice(0, PART_DEPTH).map((r) => ({ name: String(r.id), score: r.score }));
  }
}

/** An index over the given tools; later changes through `upsert` and `remove`. */
export function createToolIndex(tools: Iterable<IndexableTool> = []): ToolIndex {
  const index = new MiniSearchToolIndex();
  for (const tool of tools) index.upsert(tool);
  return index;
}
