// The discovery bench's data holds: team-tools.json is what the team config's host publishes today, and every
// in-domain query names only tools of it, at least 100 distinct queries that reach every tool between them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTeamCatalog } from '../bench/lib/team-catalog.js';
import { PATIENCE_MS } from './support/patience.js';

interface CatalogTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

interface Query {
  query: string;
  acceptable: string[];
}

const read = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../bench/data/discovery/${name}`, import.meta.url), 'utf8')) as T;

const catalog = read<CatalogTool[]>('team-tools.json');
const queries = read<Query[]>('in-domain-queries.json');
const names = new Set(catalog.map((tool) => tool.name));

describe('the discovery data', () => {
  it('is the catalog the team config publishes now (else rerun bench/discovery-catalog.ts)', async () => {
    const live = await buildTeamCatalog(PATIENCE_MS);
    expect(
      catalog,
      'team-tools.json is stale: node --import tsx bench/discovery-catalog.ts rewrites it',
    ).toEqual(live.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })));
    expect(names.size).toBe(catalog.length);
  });

  it('has at least 100 distinct queries, each with acceptable tools that exist', () => {
    expect(queries.length).toBeGreaterThanOrEqual(100);
    const normalized = queries.map((q) => q.query.trim().toLowerCase().replace(/\s+/g, ' '));
    const repeated = normalized.filter((text, i) => normalized.indexOf(text) !== i);
    expect(repeated, 'queries written twice').toEqual([]);
    for (const { query, acceptable } of queries) {
      expect(query.trim(), 'an empty query').not.toBe('');
      expect(acceptable.length, `no acceptable tool for "${query}"`).toBeGreaterThan(0);
      expect(new Set(acceptable).size, `a tool listed twice for "${query}"`).toBe(acceptable.length);
      expect(
        acceptable.filter((name) => !names.has(name)),
        `names of "${query}" not in team-tools.json`,
      ).toEqual([]);
    }
  });

  it('aims at every tool of the catalog with at least one query', () => {
    const aimed = new Set(queries.flatMap((q) => q.acceptable));
    expect([...names].filter((name) => !aimed.has(name))).toEqual([]);
  });
});
