// `foresight stats` as a real process: reads the planner's state file (the data dir's, or [planner] state_file),
// prints counters, rates, switched-off tools and the edges furthest from their priors, and starts no plugin.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killAll, makeWorkspace, removeWorkspaces, runCli } from './support/cli.js';

/** What a Foresight process would have saved; every number below is checked in the output. */
const STATE = {
  version: 1,
  savedAt: '2025-06-01T12:00:00.000Z',
  counters: {
    dispatched: 20,
    hits: 6,
    joins: 2,
    wasted: 10,
    expired: 3,
    invalidated: 1,
    failed: 4,
    dropped: 5,
    latencySavedMs: 12_345,
  },
  tools: {
    workspace__glob: { calls: 40 },
    workspace__grep: { calls: 10, ring: [...new Array<boolean>(11).fill(false), true], off: true },
    workspace__read_file: { calls: 50 },
  },
  edges: [
    // |0.1 − 0| × 40/48 ≈ 0.083
    { from: 'workspace__glob', to: 'workspace__grep', prior: 0, followed: 4, offered: [], matched: [] },
    // |0.9 − 0.5| × 40/48 ≈ 0.333
    {
      from: 'workspace__glob',
      to: 'workspace__read_file',
      prior: 0.5,
      followed: 36,
      offered: [30, 20, 10],
      matched: [25, 5, 1],
    },
    // no calls of from: no weight
    {
      from: 'workspace__list_directory',
      to: 'workspace__read_file',
      prior: 0.9,
      followed: 0,
      offered: [],
      matched: [],
    },
    // |0.1 − 0.6| × 10/18 ≈ 0.278
    {
      from: 'workspace__grep',
      to: 'workspace__read_file',
      prior: 0.6,
      followed: 1,
      offered: [5],
      matched: [0],
    },
  ],
};

const RANKED = [
  'workspace__glob → workspace__read_file',
  'workspace__grep → workspace__read_file',
  'workspace__glob → workspace__grep',
  'workspace__list_directory → workspace__read_file',
];

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'foresight-stats-'));
});
afterEach(async () => {
  await killAll();
  await removeWorkspaces();
  await rm(dataDir, { recursive: true, force: true });
});

async function writeState(file: string, state: unknown = STATE): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(state));
}

describe('foresight stats', () => {
  it('prints the file, the counters, the rates, the switched-off tools and the ranked edges', async () => {
    const file = path.join(dataDir, 'planner-state.json');
    await writeState(file);
    const cwd = await makeWorkspace();
    const run = await runCli(['stats'], { cwd, env: { FORESIGHT_DATA_DIR: dataDir } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain(`planner state: ${file} (saved 2025-06-01T12:00:00.000Z)`);
    const counterLines: [label: string, value: string][] = [
      ['dispatched', '20'],
      ['hits', '6'],
      ['joins', '2'],
      ['wasted', '10'],
      ['expired', '3'],
      ['invalidated', '1'],
      ['failed', '4'],
      ['dropped', '5'],
      ['latency saved', '12.3 s'],
    ];
    for (const [label, value] of counterLines)
      expect(out).toMatch(new RegExp(`^  ${label} +${value.replace('.', '\\.')}$`, 'm'));
    expect(out).toMatch(/^hit rate +40\.0% /m); // (6 + 2) / 20
    expect(out).toMatch(/^wasted per hit +1\.25 /m); // 10 / 8
    expect(out).toMatch(/^ {2}workspace__grep {2}use rate 8\.3% of the last 12 {2}\(local\)$/m);
    const edgeLines = out.split('\n').filter((line) => line.includes(' → ') && !line.includes('from → to'));
    expect(edgeLines.map((line) => line.trim().split(/ {2,}/)[0])).toEqual(RANKED);
    expect(edgeLines[0]).toMatch(/workspace__read_file +0\.50 +0\.90 +40$/);
    expect(edgeLines[1]).toMatch(/workspace__read_file +0\.60 +0\.10 +10$/);
  });

  it('--json prints the state and the ranked edges', async () => {
    await writeState(path.join(dataDir, 'planner-state.json'));
    const cwd = await makeWorkspace();
    const run = await runCli(['stats', '--json'], { cwd, env: { FORESIGHT_DATA_DIR: dataDir } });
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as {
      file: string;
      state: unknown;
      principals: unknown;
      edges: { from: string; to: string; learned: number; calls: number; divergence: number }[];
    };
    expect(printed.file).toBe(path.join(dataDir, 'planner-state.json'));
    // A version 1 file is read as the local user's learning (version 2 keeps it per principal).
    const { tools, edges, ...rest } = STATE;
    expect(printed.state).toEqual({
      ...rest,
      version: 2,
      principals: { local: { seenAt: STATE.savedAt, tools, edges } },
    });
    expect(printed.principals).toEqual([
      {
        principal: 'local',
        seenAt: STATE.savedAt,
        dispatched: 0,
        served: 0,
        calls: 100,
        edges: 4,
        switchedOff: 1,
      },
    ]);
    expect(printed.edges.map((edge) => `${edge.from} → ${edge.to}`)).toEqual(RANKED);
    expect(printed.edges[0]).toMatchObject({ learned: 0.9, calls: 40 });
    expect(printed.edges[0]?.divergence).toBeCloseTo((0.4 * 40) / 48, 12);
  });

  it('with no state file says so plainly and exits 0', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['stats'], { cwd, env: { FORESIGHT_DATA_DIR: dataDir } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      `no planner state at ${path.join(dataDir, 'planner-state.json')} yet: Foresight saves what its planner learns there while it serves\n`,
    );
    const json = await runCli(['stats', '--json'], { cwd, env: { FORESIGHT_DATA_DIR: dataDir } });
    expect(JSON.parse(json.stdout)).toEqual({
      file: path.join(dataDir, 'planner-state.json'),
      state: null,
      principals: [],
      edges: [],
    });
  });

  it('reads [planner] state_file, relative to the config file, and starts no plugin', async () => {
    const cwd = await makeWorkspace({
      'marker.mjs': `import { writeFileSync } from 'node:fs';
export default { id: 'marker', version: '1.0.0', build() { writeFileSync('built.marker', 'yes'); return { tools: () => [], callTool: async () => ({ content: [] }) }; } };
`,
      'conf/foresight.toml':
        '[plugins.marker]\nmodule = "../marker.mjs"\n\n[planner]\nstate_file = "../state/mine.json"\n',
    });
    const file = path.join(cwd, 'state', 'mine.json');
    await writeState(file, { ...STATE, counters: { ...STATE.counters, dispatched: 40 } });
    // The data dir holds another state: it must not be the one read.
    await writeState(path.join(dataDir, 'planner-state.json'));
    const run = await runCli(['stats', '--config', 'conf/foresight.toml'], {
      cwd,
      env: { FORESIGHT_DATA_DIR: dataDir },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`planner state: ${file} `);
    expect(run.stdout).toMatch(/^ {2}dispatched +40$/m);
    expect(run.stdout).toMatch(/^hit rate +20\.0% /m);
    expect(existsSync(path.join(cwd, 'built.marker'))).toBe(false);
  });

  it('needs no plugin secret set: it starts no plugin', async () => {
    const cwd = await makeWorkspace({
      'foresight.toml':
        '[plugins.gh]\nuse = "github"\nrepo = "o/r"\ntoken_env = "FORESIGHT_TEST_UNSET_TOKEN"\n',
    });
    await writeState(path.join(dataDir, 'planner-state.json'));
    const run = await runCli(['stats'], { cwd, env: { FORESIGHT_DATA_DIR: dataDir } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}dispatched +\d+$/m);
    // The same config does need it for a command that starts the plugins.
    const check = await runCli(['check'], { cwd, env: { FORESIGHT_DATA_DIR: dataDir } });
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('FORESIGHT_TEST_UNSET_TOKEN');
  });

  it('a corrupt state file: exits 1 naming it, and leaves it in place', async () => {
    const file = path.join(dataDir, 'planner-state.json');
    await writeFile(file, '{"version": 1, "counters": ');
    const cwd = await makeWorkspace();
    const run = await runCli(['stats'], { cwd, env: { FORESIGHT_DATA_DIR: dataDir } });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(file);
    expect(run.stderr).toMatch(/not JSON/);
    expect(await readFile(file, 'utf8')).toBe('{"version": 1, "counters": ');
    expect(existsSync(`${file}.bad`)).toBe(false);
  });

  it('lists the principals, and --principal shows one principal’s own edges, apart from the others’', async () => {
    const edge = (from: string, to: string, followed: number) => ({
      from,
      to,
      prior: 0.1,
      followed,
      offered: [],
      matched: [],
    });
    const state = {
      version: 2,
      savedAt: '2025-06-02T00:00:00.000Z',
      counters: STATE.counters,
      principals: {
        'sub:auth.example.com:alice': {
          seenAt: '2025-06-02T00:00:00.000Z',
          counters: { dispatched: 8, hits: 5, joins: 1, failed: 1, latencySavedMs: 2_500 },
          tools: { gh__list: { calls: 10 } },
          edges: [edge('gh__list', 'gh__get', 9)],
        },
        'sub:auth.example.com:bob': {
          seenAt: '2025-06-01T00:00:00.000Z',
          tools: { gh__search: { calls: 4 } },
          edges: [edge('gh__search', 'gh__read', 1)],
        },
      },
    };
    await writeState(path.join(dataDir, 'planner-state.json'), state);
    const cwd = await makeWorkspace();
    const env = { FORESIGHT_DATA_DIR: dataDir };

    const all = await runCli(['stats'], { cwd, env });
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^principals \(2, the most recently seen first/m);
    expect(all.stdout).toMatch(
      /^ {2}sub:auth\.example\.com:alice +seen 2025-06-02T00:00:00\.000Z +calls 10 +run ahead 8 +served 6 +edges 1 /m,
    );
    expect(all.stdout).toMatch(
      /^ {2}sub:auth\.example\.com:bob +seen 2025-06-01T00:00:00\.000Z +calls 4 +run ahead 0 +served 0 +edges 1 /m,
    );

    const alice = await runCli(['stats', '--principal', 'sub:auth.example.com:alice'], { cwd, env });
    expect(alice.stderr).toBe('');
    expect(alice.code).toBe(0);
    expect(alice.stdout).toContain(
      'principal sub:auth.example.com:alice (last seen 2025-06-02T00:00:00.000Z): 10 agent calls',
    );
    expect(alice.stdout).toMatch(/^ {2}gh__list → gh__get +0\.10 +0\.90 +10$/m);
    // Her own counters: what the planner ran ahead for her and what her agents got from it.
    expect(alice.stdout).toMatch(/^ {2}dispatched +8$/m);
    expect(alice.stdout).toMatch(/^ {2}hits +5$/m);
    expect(alice.stdout).toMatch(/^ {2}latency saved +2\.5 s$/m);
    expect(alice.stdout).toMatch(/^hit rate +75\.0% /m); // (5 + 1) / 8
    expect(alice.stdout).not.toContain('gh__search');

    const bob = await runCli(['stats', '--principal', 'sub:auth.example.com:bob', '--json'], { cwd, env });
    expect(bob.code).toBe(0);
    const printed = JSON.parse(bob.stdout) as {
      principal: string;
      tools: object;
      ranked: { from: string }[];
    };
    expect(printed.principal).toBe('sub:auth.example.com:bob');
    expect(printed.tools).toEqual({ gh__search: { calls: 4 } });
    expect(printed.ranked.map((ranked) => ranked.from)).toEqual(['gh__search']);

    const unknown = await runCli(['stats', '--principal', 'sub:auth.example.com:carol'], { cwd, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no principal "sub:auth.example.com:carol" in the planner state');
    expect(unknown.stderr).toContain('it knows 2: sub:auth.example.com:alice, sub:auth.example.com:bob');
  });
});
