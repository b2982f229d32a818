// The discovery bench's data holds: team-tools.json is what the team config's host publishes today, every
// in-domain query names only tools of it (at least 100 distinct queries, every tool aimed at), and the synthetic
// catalog is the same for the same seed.
import { describe, expect, it } from 'vitest';
import { catalogEntry, loadInDomainQueries, loadTeamTools } from '../bench/lib/discovery-data.js';
import { syntheticCatalog } from '../bench/lib/synthetic-catalog.js';
import { buildTeamCatalog } from '../bench/lib/team-catalog.js';
import { PATIENCE_MS } from './support/patience.js';

const catalog = loadTeamTools();
const queries = loadInDomainQueries();
const names = new Set(catalog.map((tool) => tool.name));

describe('the discovery data', () => {
  it('is the catalog the team config publishes now (else rerun bench/discovery-catalog.ts)', async () => {
    const live = await buildTeamCatalog(PATIENCE_MS);
    expect(
      catalog,
      'team-tools.json is stale: node --import tsx bench/discovery-catalog.ts rewrites it',
    ).toEqual(live.tools.map(catalogEntry));
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

  it('builds the same synthetic catalog for a seed, with unique names, and another for another seed', () => {
    const tools = syntheticCatalog(5000);
    expect(tools).toHaveLength(5000);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(5000);
    expect(syntheticCatalog(1000)).toEqual(tools.slice(0, 1000));
    expect(syntheticCatalog(1000, 38)).not.toEqual(tools.slice(0, 1000));
  });
});
