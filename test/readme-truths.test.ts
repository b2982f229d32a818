// What the README promises, against what Foresight does: each provider's tool table against the tools it publishes,
// the client snippets, and where the planner's state file is.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import clickup from '../src/plugins/clickup/index.js';
import github from '../src/plugins/github/index.js';
import gitlab from '../src/plugins/gitlab/index.js';
import jira from '../src/plugins/jira/index.js';
import { plannerStateFile } from '../src/planner/index.js';
import { type Connected, connect } from './support/in-memory.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The first column of every `| tool |` table in the README section whose heading starts with `heading`. */
function documentedTools(heading: string): string[] {
  const start = README.indexOf(`\n### ${heading}`);
  expect(start, `README has a section "### ${heading}"`).toBeGreaterThan(0);
  const end = README.indexOf('\n### ', start + 1);
  const lines = README.slice(start, end).split('\n');
  const names: string[] = [];
  let inTable = false;
  for (const line of lines) {
    if (/^\|\s*tool\s*\|/.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable) {
      const name = /^\|\s*`([a-z_]+)`/.exec(line)?.[1];
      if (name) names.push(name);
    }
  }
  return names.sort();
}

/** A loopback port nothing listens on: every provider's metadata load fails at once, its tools stay listed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let connected: Connected;

beforeAll(async () => {
  const base = `http://127.0.0.1:${await closedPort()}`;
  process.env.README_TABLES_TOKEN = 'readme-tables-token';
  process.env.README_TABLES_EMAIL = 'someone@example.com';
  connected = await connect({
    plugins: [
      {
        plugin: github,
        name: 'gh',
        options: {
          repo: 'o/r',
          base_url: base,
          token_env: 'README_TABLES_TOKEN',
          retries: 0,
          sub_issues: true,
        },
      },
      {
        plugin: gitlab,
        name: 'gl',
        options: { project: 'g/p', base_url: base, token_env: 'README_TABLES_TOKEN', retries: 0 },
      },
      {
        plugin: jira,
        name: 'jr',
        options: {
          base_url: base,
          flavor: 'server',
          token_env: 'README_TABLES_TOKEN',
          projects: ['PROJ'],
          retries: 0,
        },
      },
      {
        plugin: clickup,
        name: 'cu',
        options: { lists: ['901'], base_url: base, token_env: 'README_TABLES_TOKEN', retries: 0 },
      },
    ],
  });
});

afterAll(async () => {
  await connected?.close();
});

async function served(prefix: string): Promise<string[]> {
  const { tools } = await connected.client.listTools();
  return tools
    .map((tool) => tool.name)
    .filter((name) => name.startsWith(`${prefix}__`))
    .map((name) => name.slice(prefix.length + 2))
    .sort();
}

describe('README tool tables', () => {
  it('lists every tool the github plugin serves, and no other', async () => {
    const documented = documentedTools('`github`');
    expect(documented).toEqual(await served('gh'));
    expect(documented).toHaveLength(16);
  });

  it('says gitlab serves the GitHub table, and it does', async () => {
    expect(README).toContain('All sixteen tools of the GitHub table are served');
    expect(await served('gl')).toEqual(documentedTools('`github`'));
  });

  it('lists every tool the jira plugin serves', async () => {
    expect(documentedTools('`jira`')).toEqual(await served('jr'));
  });

  it('lists every tool the clickup plugin serves', async () => {
    expect(documentedTools('`clickup`')).toEqual(await served('cu'));
  });
});

describe('README quick start and client snippets', () => {
  it('the client config is valid JSON that sets secrets in an env block, and Claude Code gets a one-liner', () => {
    const block = /## Connecting a client[\s\S]*?```json\n([\s\S]*?)```/.exec(README)?.[1];
    const parsed = JSON.parse(block ?? '') as {
      mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
    };
    const server = parsed.mcpServers.foresight;
    expect(server?.args).toContain('serve');
    expect(Object.keys(server?.env ?? {})).toContain('GITHUB_TOKEN');
    expect(README).toMatch(
      /claude mcp add --transport stdio --env GITHUB_TOKEN=\S+ foresight -- node \S+dist\/cli\/main\.js serve/,
    );
  });

  it('the quick start says where the planner state file is, as the planner computes it', () => {
    const quickStart = README.slice(
      README.indexOf('## Quick start'),
      README.indexOf('## Connecting a client'),
    );
    const file = plannerStateFile({ HOME: '/home/u' }, 'linux');
    expect(file).toBe(`/home/u/.local/share/foresight/${path.basename(file)}`);
    expect(quickStart).toContain(`\`${path.basename(file)}\``);
    expect(quickStart).toContain('`~/.local/share/foresight`');
    expect(quickStart).toContain('`$FORESIGHT_DATA_DIR`');
  });
});
