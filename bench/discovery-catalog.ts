// The discovery bench's catalogs: builds the team config's enriched tools/list (workspace, GitHub, GitLab, Jira,
// ClickUp against loopback fakes), prints its tool count and what it costs in o200k tokens before an agent's first
// call in `all` mode, the same for synthetic catalogs of 1,000 and 5,000 tools, and writes the team catalog to
// bench/data/discovery/team-tools.json for the ranking bench. Run: node --import tsx bench/discovery-catalog.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { DISCOVERY_DATA_DIR, TEAM_TOOLS_FILE, catalogEntry, listResultTokens } from './lib/discovery-data.js';
import { syntheticCatalog } from './lib/synthetic-catalog.js';
import { buildTeamCatalog } from './lib/team-catalog.js';

const team = await buildTeamCatalog();
const catalog = team.tools.map(catalogEntry);
mkdirSync(DISCOVERY_DATA_DIR, { recursive: true });
writeFileSync(TEAM_TOOLS_FILE, `${JSON.stringify(catalog, null, 2)}\n`);

console.log(
  'tokens of tools/list before the first call, mode "all" (gpt-tokenizer o200k_base, compact JSON)',
);
console.log(
  `team config (workspace, github, gitlab, jira, clickup): ${team.tools.length} tools, ${listResultTokens(team.tools)} tokens`,
);
for (const size of [1000, 5000]) {
  const synthetic = syntheticCatalog(size);
  console.log(
    `synthetic catalog (seed 37): ${synthetic.length} tools, ${listResultTokens(synthetic)} tokens`,
  );
}
console.log(`wrote ${TEAM_TOOLS_FILE}`);
