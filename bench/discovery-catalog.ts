// The discovery bench's catalogs: builds the team config's enriched tools/list (workspace, GitHub, GitLab, Jira,
// ClickUp against loopback fakes), prints its tool count and what it costs in o200k tokens before an agent's first
// call in `all` mode, the same for a synthetic 1,000-tool catalog, and writes the team catalog to
// bench/data/discovery/team-tools.json for the ranking bench. Run: node --import tsx bench/discovery-catalog.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { countTokens } from '../src/format/index.js';
import { ROOT } from './lib/root.js';
import { syntheticCatalog } from './lib/synthetic-catalog.js';
import { buildTeamCatalog } from './lib/team-catalog.js';

export const TEAM_TOOLS_FILE = join(ROOT, 'bench', 'data', 'discovery', 'team-tools.json');

const team = await buildTeamCatalog();
// The list result as it travels (compact JSON), what the client hands its model.
const teamTokens = countTokens(JSON.stringify(team.listResult));
const synthetic = syntheticCatalog(1000);
const syntheticTokens = countTokens(JSON.stringify({ tools: synthetic }));

const catalog = team.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
mkdirSync(dirname(TEAM_TOOLS_FILE), { recursive: true });
writeFileSync(TEAM_TOOLS_FILE, `${JSON.stringify(catalog, null, 2)}\n`);

console.log('tokens of tools/list before the first call, mode "all" (countTokens: gpt-tokenizer o200k_base)');
console.log(
  `team config (workspace, github, gitlab, jira, clickup): ${team.tools.length} tools, ${teamTokens} tokens`,
);
console.log(`synthetic catalog (seed 37): ${synthetic.length} tools, ${syntheticTokens} tokens`);
console.log(`wrote ${TEAM_TOOLS_FILE}`);
