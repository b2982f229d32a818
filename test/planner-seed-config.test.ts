// The planner config as the seeds and devboy-tools write it, end to end: the built CLI serves the workspace over
// stdio with a foresight.toml holding the seeds' link line (no probability, `match_path`) and, through
// --planner-config, a devboy-tools pipeline_config.toml; a real SDK client's glob and grep are followed by
// reads served from what the planner ran ahead. `check` says the seed line replaced the built-in link.
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ObservedStdioClientTransport,
  START_TIMEOUT_MS,
  WORKSPACE_FILES,
  killAll,
  makeWorkspace,
  newClient,
  removeWorkspaces,
  runCli,
  withTimeout,
} from './support/cli.js';

const PREFETCH = 'foresight/prefetch';
const STATS = 'foresight://planner/stats';

/** The seeds' link line, as written: a field name for the projection and no probability. */
const FORESIGHT_TOML = `[plugins.workspace]
root = "."

[planner]
learning = false

[tools."workspace__glob"]
follow_up = [{ tool = "workspace__read_file", projection = "match_path", projection_arg = "path" }]
`;

/** A devboy-tools pipeline config: its [enrichment] switch and cap, Claude Code's tool names, a key with no counterpart. */
const PIPELINE_CONFIG = `schema_version = 4

[enrichment]
enabled = true
max_parallel_prefetches = 2

[tools.Grep]
side_effect_class = "read_only"
follow_up = [{ tool = "Read", probability = 0.6, projection = "match_path", projection_arg = "file_path" }]

[tools.Grep.cost_model]
typical_kb = 1.0
max_kb = 4.0
`;

let client: Client | undefined;
let transport: ObservedStdioClientTransport | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  transport = undefined;
  await killAll();
  await removeWorkspaces();
});

async function workspace(): Promise<string> {
  const root = await makeWorkspace({
    ...WORKSPACE_FILES,
    'foresight.toml': FORESIGHT_TOML,
    'pipeline_config.toml': PIPELINE_CONFIG,
  });
  // A file changed just before a read counts as changed (coarse kernel timestamps): make them plainly older.
  const past = new Date(Date.now() - 60_000);
  for (const file of Object.keys(WORKSPACE_FILES)) await utimes(path.join(root, file), past, past);
  return root;
}

interface Stats {
  counters: { dispatched: number; hits: number };
  inFlight: number;
  queued: number;
}

async function stats(c: Client): Promise<Stats> {
  const read = await c.readResource({ uri: STATS });
  const [content] = read.contents;
  return JSON.parse(content && 'text' in content ? content.text : '{}') as Stats;
}

/** Waits until `dispatched` calls have been run ahead and none is still running or queued. */
async function settledAt(c: Client, dispatched: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const now = await stats(c);
      expect(now.counters.dispatched).toBe(dispatched);
      expect(now.inFlight + now.queued).toBe(0);
    },
    { timeout: START_TIMEOUT_MS },
  );
}

describe('the seed link line and a devboy pipeline config, served', () => {
  it('reads ahead the first file glob and grep find, and answers the reads from the planner', async () => {
    const root = await workspace();
    transport = new ObservedStdioClientTransport({
      cwd: root,
      args: ['serve', '--config', 'foresight.toml', '--planner-config', 'pipeline_config.toml'],
    });
    client = newClient('seed-config');
    await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
    // What the devboy file holds that Foresight has no counterpart for is said on stderr, with its line.
    await transport.waitForStderr(
      /"level":40,[^\n]*"msg":"[^"]*pipeline_config\.toml:13: tools\.Grep\.cost_model\.max_kb: /,
    );

    const listed = await client.callTool({ name: 'workspace__glob', arguments: { pattern: 'src/*.ts' } });
    expect(listed.structuredContent).toMatchObject({ paths: ['src/index.ts', 'src/util.ts'] });
    // The seed line's probability is [planner] default_followup_probability (0.5): the first path clears the
    // 0.3 floor, the second (0.25) does not.
    await settledAt(client, 1);
    const read = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'src/index.ts' } });
    expect(read._meta?.[PREFETCH]).toMatchObject({ source: 'cache' });
    expect(JSON.stringify(read.content)).toContain('answer = 42');

    // Grep → Read came from the devboy file: Claude Code's names mapped, file_path read as read_file's path.
    const found = await client.callTool({ name: 'workspace__grep', arguments: { pattern: 'twice' } });
    expect(found.structuredContent).toMatchObject({ matches: [{ path: 'src/util.ts' }] });
    await settledAt(client, 2);
    const util = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'src/util.ts' } });
    expect(util._meta?.[PREFETCH]).toMatchObject({ source: 'cache' });
    expect((await stats(client)).counters.hits).toBe(2);
  });

  it('check notes that the seed line replaced the built-in glob → read_file link', async () => {
    const root = await workspace();
    const run = await runCli(['check', '--config', 'foresight.toml'], { cwd: root });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'note  planner: [tools."workspace__glob"] follow_up replaces the built-in follow-up links of workspace__glob; no longer followed: workspace__read_file (projection paths[*]) p=0.32.',
    );
    // grep keeps its own link: no block replaces it.
    expect(run.stdout).not.toContain('links of workspace__grep');
  });

  it('check with --planner-config reads the devboy file too, and lists what it could not map', async () => {
    const root = await workspace();
    await writeFile(path.join(root, 'foresight.toml'), '[plugins.workspace]\nroot = "."\n');
    const run = await runCli(['check', '--planner-config', 'pipeline_config.toml'], { cwd: root });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warn {2}\S*pipeline_config\.toml:13: tools\.Grep\.cost_model\.max_kb: /m);
    expect(run.stdout).toContain('links of workspace__grep');
  });
});
