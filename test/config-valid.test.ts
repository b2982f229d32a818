import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS, parseConfig } from '../src/config/index.js';

// The example from DESIGN.md, with every table and most keys present.
const EXAMPLE = `[server]
transport = "http"
http = "0.0.0.0:8080"
allowed_hosts = ["foresight.local"]
allowed_origins = ["https://app.example.com"]
log_level = "debug"

[plugins.workspace]                 # built-in plugin, chosen by its table name
root = "."

[plugins.gh]
use = "github"                      # built-in kind, several instances allowed
repo = "octo-org/octo-repo"
token_env = "GITHUB_TOKEN"
deadlines_ms = { call_tool = 5000, start = 2000 }

[plugins.demo]
module = "./plugins/demo.mjs"       # a third-party plugin module (default export: Plugin)
prefix = "demo"
deadline_ms = 2000
isolation = "worker"

[plugins.bare]
prefix = ""
enabled = false

[[enrich]]                          # declarative enricher
tools = ["fs__*"]
pin = { dryRun = true }

[[enrich]]
tools = ["gh__*", "gl__*"]
defaults = { per_page = 20 }
hide = ["page"]
rename = { q = "query" }
description = "Issues of the team's repositories"
annotations = { readOnlyHint = true, title = "Issues" }

[planner]
enabled = true
probability_floor = 0.3
max_waste_per_hit = inf
max_in_flight = 6
learning = false
state_file = "state/planner.json"

[tools."*"]                         # every tool's model starts here
speculate = false

[tools."gh__get_issues"]            # value model overrides, field by field
follow_up = [{ tool = "gh__get_issue_comments", probability = 0.5, projection = "key", projection_arg = "key" }]
value_class = "critical"
side_effect = "read_only"
typical_kb = 12
latency_ms_p50 = 300
freshness_ttl_s = 60
rate_limit_host = "api.github.com"

[tools.gh__create_issue]
side_effect = "mutates_external"
invalidates = ["gh__get_issues"]
speculate = false

[server.limits]
max_sessions = 200
max_in_flight_per_client = 4
`;

describe('parseConfig with a full valid file', () => {
  const config = parseConfig(EXAMPLE, '/proj/foresight.toml', '/proj', {
    GITHUB_TOKEN: 'example-token-value',
  });

  test('server table, camelCase, address parsed', () => {
    expect(config.file).toBe('/proj/foresight.toml');
    expect(config.baseDir).toBe('/proj');
    expect(config.server).toEqual({
      transport: 'http',
      http: { host: '0.0.0.0', port: 8080 },
      allowedHosts: ['foresight.local'],
      allowedOrigins: ['https://app.example.com'],
      allowUnauthenticated: false,
      logLevel: 'debug',
      legacyClients: 'serve',
      requestStateTtlS: 300,
      tasks: { afterMs: 1_000, ttlMs: 3_600_000, pollIntervalMs: 1_000, maxTasks: 1_000 },
      ops: { metrics: false, metricsPublic: false, drainTimeoutS: 10 },
      limits: { ...DEFAULT_LIMITS, maxSessions: 200, maxInFlightPerClient: 4 },
    });
  });

  test('plugins in file order with origins, prefixes, deadlines, options and header lines', () => {
    expect(config.plugins.map((entry) => [entry.name, entry.line])).toEqual([
      ['workspace', 8],
      ['gh', 11],
      ['demo', 17],
      ['bare', 23],
    ]);
    const [workspace, gh, demo, bare] = config.plugins;
    expect(workspace).toMatchObject({
      origin: { type: 'builtin', kind: 'workspace' },
      prefix: 'workspace',
      options: { root: '.' },
      baseDir: '/proj',
      file: '/proj/foresight.toml',
    });
    expect(gh).toMatchObject({
      origin: { type: 'builtin', kind: 'github' },
      prefix: 'gh',
      options: { repo: 'octo-org/octo-repo', token_env: 'GITHUB_TOKEN' },
      deadlinesMs: {
        callTool: 5000,
        readResource: 30_000,
        getPrompt: 30_000,
        complete: 30_000,
        start: 2000,
        shutdown: 10_000,
      },
    });
    expect(gh?.keyLines).toMatchObject({ repo: 13, token_env: 14 });
    expect(demo).toMatchObject({
      origin: { type: 'module', path: '/proj/plugins/demo.mjs' },
      prefix: 'demo',
      isolation: 'worker',
      options: {},
      deadlinesMs: {
        callTool: 2000,
        readResource: 2000,
        getPrompt: 2000,
        complete: 2000,
        start: 10_000,
        shutdown: 10_000,
      },
    });
    expect(bare).toMatchObject({ origin: { type: 'builtin', kind: 'bare' }, prefix: '', enabled: false });
  });

  test('enrich rules with defaults filled in and their header lines', () => {
    expect(config.enrich).toEqual([
      {
        tools: ['fs__*'],
        pin: { dryRun: true },
        defaults: {},
        hide: [],
        rename: {},
        drop: false,
        line: 27,
      },
      {
        tools: ['gh__*', 'gl__*'],
        pin: {},
        defaults: { per_page: 20 },
        hide: ['page'],
        rename: { q: 'query' },
        description: "Issues of the team's repositories",
        annotations: { readOnlyHint: true, title: 'Issues' },
        drop: false,
        line: 31,
      },
    ]);
  });

  test('planner and tool overrides, camelCase, only the fields given', () => {
    expect(config.planner).toEqual({
      enabled: true,
      probabilityFloor: 0.3,
      maxWastePerHit: Infinity,
      tokenBudget: 4000,
      maxInFlight: 6,
      perHostInFlight: 2,
      defaultTtlS: 60,
      thinkWindowS: 30,
      defaultFollowupProbability: 0.5,
      learning: false,
      stateFile: '/proj/state/planner.json',
    });
    expect(config.format).toEqual({ budgetTokens: 8000, defaultFormat: 'markdown' });
    expect(config.tools).toEqual({
      '*': { speculate: false },
      gh__get_issues: {
        followUp: [
          { tool: 'gh__get_issue_comments', probability: 0.5, projection: 'key', projectionArg: 'key' },
        ],
        valueClass: 'critical',
        sideEffect: 'read_only',
        typicalKb: 12,
        latencyMsP50: 300,
        freshnessTtlS: 60,
        rateLimitHost: 'api.github.com',
      },
      gh__create_issue: { sideEffect: 'mutates_external', invalidates: ['gh__get_issues'], speculate: false },
    });
    expect(Object.keys(config.tools.gh__create_issue ?? {})).toEqual([
      'sideEffect',
      'invalidates',
      'speculate',
    ]);
  });

  test('the result survives structured cloning (worker isolation passes entries to threads)', () => {
    expect(structuredClone(config.plugins)).toEqual(config.plugins);
  });
});

describe('server.http', () => {
  const http = (value: string) => parseConfig(`[server]\nhttp = "${value}"\n`, 'f.toml', '/', {}).server.http;

  test.each([
    ['3000', { host: '127.0.0.1', port: 3000 }],
    [':4000', { host: '127.0.0.1', port: 4000 }],
    ['localhost:5000', { host: 'localhost', port: 5000 }],
    ['[::1]:6000', { host: '::1', port: 6000 }],
    ['0', { host: '127.0.0.1', port: 0 }],
  ])('%s', (value, expected) => {
    expect(http(value)).toEqual(expected);
  });

  test.each(['', 'host', 'host:', 'a:b:3000', '70000', 'http://x:1'])('rejects %j', (value) => {
    expect(() => http(value)).toThrow(/server\.http: expected a "\[host:\]port" string/);
  });
});
