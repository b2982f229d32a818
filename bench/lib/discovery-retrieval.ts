// The discovery part's retrieval numbers, in one run: the tool index against a plain BM25 over name + description
// + parameter names on MetaTool (single-tool queries, sampled, and two-tool queries) and on the in-domain requests
// over the team catalog (bench/data/discovery/), and in-process search latency on synthetic catalogs of 1,000 and
// 5,000 tools.
import { performance } from 'node:perf_hooks';
import { createToolIndex } from '../../src/discovery/index.js';
import { Bm25 } from './bm25.js';
import { type CatalogTool, loadInDomainQueries, loadTeamTools } from './discovery-data.js';
import { type QualityReport, type Ranker, everyNth, measureQuality } from './discovery-quality.js';
import { syntheticQueries } from './discovery-synthetic.js';
import { readMetaTool } from './metatool.js';
import { syntheticCatalog } from './synthetic-catalog.js';
import { percentile } from './stats.js';

/** Every this-many-th single-tool query is scored (20,615 rows → 5,154). */
export const SINGLE_STEP = 4;
const LATENCY_SIZES = [1000, 5000] as const;
const LATENCY_QUERIES = 500;
const LATENCY_WARMUP = 100;
const SEED = 37;

export interface QualityRow {
  set: string;
  ranker: string;
  report: QualityReport;
}

export interface LatencyRow {
  tools: number;
  buildMs: number;
  p50Ms: number;
  p95Ms: number;
}

export interface DiscoveryRetrievalReport {
  quality: QualityRow[];
  latency: LatencyRow[];
}

/** A tool's parameter names, for the baseline's text. */
function parameterNames(tool: CatalogTool | { name: string; description: string }): string[] {
  const schema = 'inputSchema' in tool ? tool.inputSchema : undefined;
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

function rankers(
  tools: readonly (CatalogTool | { name: string; description: string })[],
): Record<string, Ranker> {
  const index = createToolIndex(tools);
  const bm25 = new Bm25(
    tools.map((t) => ({
      name: t.name,
      text: [t.name, t.description ?? '', ...parameterNames(t)].join(' '),
    })),
  );
  return {
    'tool index': (query, limit) => index.search(query, { limit }).map((hit) => hit.name),
    'BM25 (name + description + parameter names)': (query, limit) =>
      bm25.search(query, limit).map((hit) => hit.name),
  };
}

function measureLatency(size: number): LatencyRow {
  const tools = syntheticCatalog(size, SEED);
  const started = performance.now();
  const index = createToolIndex(tools);
  const buildMs = performance.now() - started;
  const queries = syntheticQueries(tools, LATENCY_WARMUP + LATENCY_QUERIES, SEED);
  const times: number[] = [];
  queries.forEach((query, i) => {
    const t0 = performance.now();
    index.search(query, { limit: 5 });
    if (i >= LATENCY_WARMUP) times.push(performance.now() - t0);
  });
  times.sort((a, b) => a - b);
  return { tools: size, buildMs, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) };
}

export function measureDiscoveryRetrieval(): DiscoveryRetrievalReport {
  const data = readMetaTool();
  const sets = {
    [`MetaTool single-tool (every ${SINGLE_STEP}th of ${data.single.length})`]: everyNth(
      data.single,
      SINGLE_STEP,
    ),
    'MetaTool two-tool (union)': data.multi,
  };
  const quality: QualityRow[] = [];
  const ranked = rankers(data.tools);
  for (const [set, queries] of Object.entries(sets)) {
    for (const [ranker, rank] of Object.entries(ranked)) {
      quality.push({ set, ranker, report: measureQuality(queries, rank) });
    }
  }
  const team = loadTeamTools();
  const inDomain = loadInDomainQueries().map(({ query, acceptable }) => ({ query, tools: acceptable }));
  for (const [ranker, rank] of Object.entries(rankers(team))) {
    quality.push({
      set: `in-domain requests (${team.length}-tool team catalog)`,
      ranker,
      report: measureQuality(inDomain, rank),
    });
  }
  return { quality, latency: LATENCY_SIZES.map(measureLatency) };
}

const f3 = (n: number): string => n.toFixed(3);

export function formatDiscoveryRetrieval(report: DiscoveryRetrievalReport): string {
  const lines = [
    'discovery retrieval (MetaTool: 199 tools; in-domain: any acceptable tool counts as a hit)',
    '',
  ];
  lines.push(
    '| set | ranker | queries | hit@1 | hit@3 | Recall@5 | Recall@10 | nDCG@5 |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const { set, ranker, report: r } of report.quality) {
    lines.push(
      `| ${set} | ${ranker} | ${r.queries} | ${f3(r.hit1)} | ${f3(r.hit3)} | ${f3(r.recall5)} | ${f3(r.recall10)} | ${f3(r.ndcg5)} |`,
    );
  }
  lines.push('', 'search latency in process (synthetic catalogs, limit 5)', '');
  lines.push('| tools | index build ms | p50 ms | p95 ms |', '|---:|---:|---:|---:|');
  for (const row of report.latency) {
    lines.push(`| ${row.tools} | ${row.buildMs.toFixed(0)} | ${f3(row.p50Ms)} | ${f3(row.p95Ms)} |`);
  }
  return lines.join('\n');
}
