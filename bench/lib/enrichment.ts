// tools/list with 500 tools and 6 enrichers: the cold build of the enriched list and cached listings, each
// against the same 500 tools listed with no enricher, side by side in one process.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolCategory, ToolDescriptor, ToolEnricher, ToolSchema } from '../../src/index.js';
import { type ForesightHost, createHost } from '../../src/create-host.js';
import { parseConfig } from '../../src/config/index.js';
import { fieldNames, type Logger } from '../../src/contract/index.js';
import { type LatencySummary, median, summarize } from './stats.js';

export const ENRICHMENT_TOOLS = 500;
const COLD_BUILDS = 30;
const CACHED_LISTS = 300;
const WARMUP = 20;

const CATEGORIES: readonly ToolCategory[] = ['issue_tracker', 'git_repository'];

/** 500 tracker-like tools: half issue tools, half code-review tools, with the parameters enrichers touch. */
function trackerTools(count: number): ToolDescriptor[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}`,
    description: `Tracker tool ${index + 1} of ${count}.`,
    category: CATEGORIES[index % 2],
    annotations: { readOnlyHint: index % 4 < 2 },
    inputSchema: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'issue key' },
        status: { type: 'string', description: 'status name' },
        priority: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' } },
        customFields: { type: 'object' },
        limit: { type: 'integer', minimum: 1, maximum: 100 },
        offset: { type: 'integer', minimum: 0 },
      },
      required: ['key'],
      additionalProperties: false,
    },
  }));
}

const STATUSES = ['Backlog', 'To Do', 'In Progress', 'In Review', 'Done', 'Cancelled'];
const LABELS = Array.from({ length: 40 }, (_, i) => `label-${i}`);
const FIELDS = fieldNames(
  ['Story Points', 'Приоритет', 'Статус', 'Team', 'Sprint goal', 'Risk'].map((label, i) => [
    `cf_${i}`,
    label,
  ]),
);

/** Six enrichers doing what provider enrichers do: enums from metadata, custom fields, removals, aliases. */
function sixEnrichers(): ToolEnricher[] {
  const serving = (name: string, enrichSchema: (schema: ToolSchema) => void): ToolEnricher => ({
    name,
    supportedCategories: () => CATEGORIES,
    enrichSchema: (_tool, schema) => enrichSchema(schema),
    transformArgs: () => {},
  });
  return [
    serving('statuses', (schema) => schema.setEnum('status', STATUSES)),
    serving('priorities', (schema) => {
      schema.setEnum('priority', ['Highest', 'High', 'Medium', 'Low', 'Lowest']);
      schema.setParamDescription('priority', 'aliases: urgent, high, normal, low');
    }),
    serving('labels', (schema) => schema.setEnum('labels', LABELS)),
    serving('custom-fields', (schema) => {
      schema.removeParams(['customFields']);
      for (const name of FIELDS.values())
        schema.addParam(name, { type: 'string', description: 'custom field' });
    }),
    serving('unsupported', (schema) => schema.removeParams(['offset'])),
    serving('describe', (schema) => schema.setDescription('Tracker tool fitted to project DEMO.')),
  ];
}

const quietLogger: Logger = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => quietLogger,
};

function trackerPlugin(enrichers: ToolEnricher[], categorised: boolean) {
  const tools = trackerTools(ENRICHMENT_TOOLS).map((tool) =>
    categorised ? tool : { ...tool, category: undefined },
  );
  return {
    id: 'tracker',
    version: '1.0.0',
    build: () => ({
      tools: () => tools,
      enrichers: () => enrichers,
      callTool: async () => ({ content: [] }),
    }),
  };
}

interface Side {
  host: ForesightHost;
  client: Client;
}

/** A: no enricher, tools uncategorised (what listing cost before the pipeline). B: 6 enrichers, plus the format layer and one [[enrich]] rule. */
async function startSide(enriched: boolean): Promise<Side> {
  const config = enriched
    ? parseConfig(
        '[[enrich]]\ntools = ["tracker__tool_1*"]\nhide = ["limit"]\n',
        '/bench/foresight.toml',
        '/bench',
        {},
      )
    : undefined;
  const host = createHost({
    ...(config ? { config } : {}),
    plugins: [trackerPlugin(enriched ? sixEnrichers() : [], enriched)],
    logger: quietLogger,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return { host, client };
}

function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

async function timedAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Lets the pipeline's queued change check run, so it does not land inside the next timing. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface EnrichmentReport {
  tools: number;
  enrichers: number;
  listed: { baseline: number; enriched: number };
  /** Building the enriched list from the catalogs, in process. */
  coldBuildMs: { baseline: LatencySummary; enriched: LatencySummary; ratio: number };
  /** tools/list over the SDK's in-memory transport, served from the cached list. */
  cachedListMs: { baseline: LatencySummary; enriched: LatencySummary; ratio: number };
}

export async function measureEnrichment(): Promise<EnrichmentReport> {
  const baseline = await startSide(false);
  const enriched = await startSide(true);
  try {
    const sides = [baseline, enriched] as const;
    const cold: [number[], number[]] = [[], []];
    const cached: [number[], number[]] = [[], []];
    for (let round = 0; round < WARMUP + COLD_BUILDS; round++) {
      for (const [i, side] of sides.entries()) {
        // Same work as the scheduled rebuild, timed alone: refresh() then the first listTools() builds.
        side.host.tools.refresh();
        const ms = timed(() => side.host.tools.listTools());
        await settle();
        if (round >= WARMUP) cold[i]?.push(ms);
      }
    }
    for (let round = 0; round < WARMUP + CACHED_LISTS; round++) {
      for (const [i, side] of sides.entries()) {
        const ms = await timedAsync(() => side.client.listTools());
        if (round >= WARMUP) cached[i]?.push(ms);
      }
    }
    const [baselineList, enrichedList] = await Promise.all(sides.map((side) => side.client.listTools()));
    return {
      tools: ENRICHMENT_TOOLS,
      enrichers: sixEnrichers().length,
      listed: { baseline: baselineList?.tools.length ?? 0, enriched: enrichedList?.tools.length ?? 0 },
      coldBuildMs: {
        baseline: summarize(cold[0]),
        enriched: summarize(cold[1]),
        ratio: median(cold[1]) / median(cold[0]),
      },
      cachedListMs: {
        baseline: summarize(cached[0]),
        enriched: summarize(cached[1]),
        ratio: median(cached[1]) / median(cached[0]),
      },
    };
  } finally {
    for (const side of [baseline, enriched]) {
      await side.client.close();
      await side.host.close();
    }
  }
}

export function formatEnrichmentReport(report: EnrichmentReport): string {
  const row = (label: string, s: { baseline: LatencySummary; enriched: LatencySummary; ratio: number }) =>
    `  ${label.padEnd(34)} baseline p50 ${s.baseline.p50Ms.toFixed(2)} ms (p90 ${s.baseline.p90Ms.toFixed(2)}), ` +
    `enriched p50 ${s.enriched.p50Ms.toFixed(2)} ms (p90 ${s.enriched.p90Ms.toFixed(2)}), ratio ${s.ratio.toFixed(2)}×`;
  return [
    `tools/list with ${report.tools} tools and ${report.enrichers} enrichers (+ format layer + 1 [[enrich]] rule):`,
    `  listed: baseline ${report.listed.baseline}, enriched ${report.listed.enriched}`,
    row('cold build of the list (in process)', report.coldBuildMs),
    row('cached tools/list (in-memory client)', report.cachedListMs),
  ].join('\n');
}
