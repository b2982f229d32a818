// A devboy-tools pipeline_config.toml mapped onto foresight.toml: what maps (enrichment switch and caps, tool
// models under our names), what does not (each listed with its key path and line), and the printed tables
// being a config Foresight loads. The CLI's import-devboy runs as a real process.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importDevboyConfig, parseConfig, tomlSnippet } from '../src/config/index.js';
import { killAll, makeWorkspace, removeWorkspaces, runCli } from './support/cli.js';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

/** Every section devboy-tools' pipeline config has, and a tool model of each sort. */
const PIPELINE = `schema_version = 4

[dedup]
lru_size = 5

[telemetry]
enabled = false

[enrichment]
enabled = true
max_parallel_prefetches = 3
prefetch_budget_tokens = 8000
prefetch_timeout_ms = 1000
respect_rate_limits = true

[tools.Glob]
value_class = "supporting"
side_effect_class = "read_only"
follow_up = [{ tool = "Read", projection = "match_path", projection_arg = "file_path" }]

[tools.Glob.cost_model]
typical_kb = 1.5
max_kb = 8.0
latency_ms_p50 = 40
freshness_ttl_s = 30
dollars = 0.0

[tools.Bash]
side_effect_class = "indeterminate"

[tools.mcp__gitlab__update_issue]
side_effect_class = "mutates_external"
invalidates = ["mcp__gitlab__get_issue", "mcp__gitlab__get_issues"]
fail_fast_after_n = 2
field_groups = { must_have = { fields = ["id"] } }

[tools.mcp__gitlab__get_issues]
side_effect_class = "read_only"
rate_limit_host = "gitlab.example.com"
follow_up = [
  { tool = "mcp__gitlab__get_issue", probability = 0.4, projection = "iid", projection_arg = "key" },
  { tool = "WebFetch", probability = 0.2 },
]
`;

const FILE = '/proj/pipeline_config.toml';

describe('importDevboyConfig', () => {
  const imported = importDevboyConfig(PIPELINE, FILE);

  it('maps [enrichment] onto [planner]', () => {
    expect(imported.table.planner).toEqual({ enabled: true, max_parallel_prefetches: 3, token_budget: 8000 });
  });

  it("maps tool models under Foresight's names, Claude Code's file tools onto the workspace plugin", () => {
    expect(imported.table.tools).toEqual({
      workspace__glob: {
        value_class: 'supporting',
        side_effect: 'read_only',
        follow_up: [{ tool: 'workspace__read_file', projection: 'match_path', projection_arg: 'path' }],
        typical_kb: 1.5,
        latency_ms_p50: 40,
        freshness_ttl_s: 30,
      },
      gitlab__update_issue: {
        side_effect: 'mutates_external',
        invalidates: ['gitlab__get_issue', 'gitlab__get_issues'],
      },
      gitlab__get_issues: {
        side_effect: 'read_only',
        rate_limit_host: 'gitlab.example.com',
        follow_up: [
          { tool: 'gitlab__get_issue', probability: 0.4, projection: 'iid', projection_arg: 'key' },
        ],
      },
    });
  });

  it('lists each key it cannot map, with its path and line', () => {
    expect(imported.warnings.map(({ key, line }) => `${line}: ${key}`)).toEqual([
      '3: dedup',
      '6: telemetry',
      '13: enrichment.prefetch_timeout_ms',
      '23: tools.Glob.cost_model.max_kb',
      '26: tools.Glob.cost_model.dollars',
      '28: tools.Bash',
      '34: tools.mcp__gitlab__update_issue.fail_fast_after_n',
      '35: tools.mcp__gitlab__update_issue.field_groups',
      '42: tools.mcp__gitlab__get_issues.follow_up[1].tool',
    ]);
    expect(imported.warnings.find((w) => w.key === 'tools.Bash')?.detail).toBe(
      "Claude Code's Bash has no counterpart among Foresight's tools; the block is left out",
    );
    expect(imported.warnings.find((w) => w.key.endsWith('prefetch_timeout_ms'))?.detail).toContain(
      "Foresight never holds the agent's answer back",
    );
  });

  it('notes the names it changed', () => {
    expect(imported.notes.map(({ key, detail }) => `${key}: ${detail}`)).toEqual([
      'tools.Glob: mapped onto workspace__glob',
      'tools.Glob.follow_up[0].projection_arg: file_path is called path on workspace__read_file',
      'tools.mcp__gitlab__update_issue: mapped onto gitlab__update_issue',
      'tools.mcp__gitlab__get_issues: mapped onto gitlab__get_issues',
    ]);
  });

  it('prints tables that Foresight loads as they were mapped', () => {
    const config = parseConfig(tomlSnippet(imported.table), '/proj/foresight.toml', '/proj', {});
    expect(config.planner).toMatchObject({ enabled: true, maxInFlight: 3, tokenBudget: 8000 });
    expect(config.tools.workspace__glob?.followUp).toEqual([
      { tool: 'workspace__read_file', probability: 0.5, projection: 'match_path', projectionArg: 'path' },
    ]);
    expect(config.tools.gitlab__get_issues?.rateLimitHost).toBe('gitlab.example.com');
  });

  it('says when [enrichment] enabled is not set: devboy-tools then runs nothing ahead', () => {
    const bare = importDevboyConfig('schema_version = 4\n', FILE);
    expect(bare.notes.map((n) => n.key)).toEqual(['enrichment.enabled']);
    expect(bare.warnings).toEqual([]);
    expect(tomlSnippet(bare.table)).toBe('');
  });

  it('warns on a schema version it does not know, and on keys of no devboy section', () => {
    const odd = importDevboyConfig('schema_version = 9\nstray = 1\n[enrichment]\nenabled = false\n', FILE);
    expect(odd.warnings.map((w) => `${w.key}: ${w.detail}`)).toEqual([
      'schema_version: 9: this import knows versions 1 to 4; read as the last',
      'stray: not a key of devboy-tools pipeline config this import knows; not mapped',
    ]);
    expect(odd.table.planner).toEqual({ enabled: false });
  });

  it('takes the workspace prefix the config publishes under', () => {
    const prefixed = importDevboyConfig('[tools.Read]\nside_effect_class = "pure"\n', FILE, {
      workspacePrefix: 'ws',
    });
    expect(Object.keys(prefixed.table.tools)).toEqual(['ws__read_file']);
  });
});

describe('foresight import-devboy', () => {
  it('prints the tables on stdout and what it could not map on stderr, and exits 0', async () => {
    const cwd = await makeWorkspace({ 'pipeline_config.toml': PIPELINE });
    const run = await runCli(['import-devboy', 'pipeline_config.toml'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '[tools."workspace__glob"]\nvalue_class = "supporting"\nside_effect = "read_only"\nfollow_up = [{ tool = "workspace__read_file", projection = "match_path", projection_arg = "path" }]\n',
    );
    const file = path.join(cwd, 'pipeline_config.toml');
    expect(run.stderr).toContain(
      `warn  ${file}:28: tools.Bash: Claude Code's Bash has no counterpart among Foresight's tools; the block is left out\n`,
    );
    expect(run.stderr).toContain(`warn  ${file}:23: tools.Glob.cost_model.max_kb: `);
    expect(run.stderr).toMatch(/foresight: 9 keys not mapped \(the warn lines above\)\n$/);
    // What it printed is a config Foresight accepts.
    expect(() => parseConfig(run.stdout, 'snippet.toml', cwd, {})).not.toThrow();
  });

  it('exits 1 naming the line of a file that is not TOML', async () => {
    const cwd = await makeWorkspace({ 'pipeline_config.toml': '[enrichment]\nenabled = \n' });
    const run = await runCli(['import-devboy', 'pipeline_config.toml'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${path.join(cwd, 'pipeline_config.toml')}:2`);
    expect(run.stdout).toBe('');
  });
});
