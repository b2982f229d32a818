// An upstream that fails says why: a spawned server that exits at start is described by its exit code and its
// last stderr lines, in `foresight check`, in the E_UPSTREAM_UNAVAILABLE answer to a call, and in the log; a
// secret the server prints is redacted everywhere. Real servers: server-filesystem on a missing directory, and
// a fixture that exits with code 3 quoting the token it was given.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { makeWorkspace, killAll, removeWorkspaces, runCli } from './support/cli.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const FAILS_AT_START = fileURLToPath(new URL('./fixtures/upstreams/fails-at-start.mjs', import.meta.url));
const VARIABLE = 'FORESIGHT_TEST_FAILURE_SECRET';
const SECRET = 'fx-secret-4d2b8e91c7';
const MISSING_DIR = '/nonexistent/foresight-failure-reasons';

let connected: Connected | undefined;
let dir: string | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
  delete process.env[VARIABLE];
  await killAll();
  await removeWorkspaces();
});

/** The fixture's table: it fails at start while `flag` exists, quoting the secret it is given. */
function fixtureTable(name: string, flag: string, extra: string[] = []): string {
  return [
    `[plugins.${name}]`,
    'use = "upstream"',
    `command = ["node", ${JSON.stringify(FAILS_AT_START)}]`,
    `env = { FAIL_FLAG = ${JSON.stringify(flag)} }`,
    `secret_env = { FIXTURE_TOKEN = "${VARIABLE}" }`,
    ...extra,
  ].join('\n');
}

describe('foresight check with an upstream that exits at start', () => {
  it('prints each one’s exit code and last stderr lines, redacted, and exits 1', async () => {
    const cwd = await makeWorkspace();
    const flag = join(cwd, 'fail');
    await writeFile(flag, '');
    await writeFile(
      join(cwd, 'foresight.toml'),
      [
        '[plugins.fs]',
        'use = "upstream"',
        `command = ["node", ${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(MISSING_DIR)}]`,
        fixtureTable('db', flag),
      ].join('\n'),
    );
    const run = await runCli(['check'], { cwd, timeoutMs: 30_000, env: { [VARIABLE]: SECRET } });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        '^fail\\s+fs \\(upstream\\), prefix "fs", 0 tools \\(unavailable, restarting \\(attempt \\d+\\): ' +
          'the server process exited with code 1 at start: ' +
          `"Warning: Cannot access directory ${MISSING_DIR}, skipping" / "Error: None of the specified directories are accessible"; ` +
          'listing its last good catalog \\(0 tools\\)\\)$',
        'm',
      ),
    );
    // The stack frames under the error are left out; the token it quoted is redacted.
    expect(run.stdout).toMatch(
      /^fail\s+db \(upstream\), .*the server process exited with code 3 at start: "fails-at-start: reading the settings" \/ "Error: cannot open the database with token \[redacted\]"; listing/m,
    );
    expect(run.stderr).toContain('2 plugins not available');
    // The warn log on stderr (as text under check) has every line kept and the exit code.
    const warning = run.stderr
      .split('\n')
      .find((line) => line.startsWith('foresight: warn [db] upstream: could not connect ('));
    expect(warning, run.stderr).toBeDefined();
    expect(warning).toContain('exitCode=3');
    expect(warning).toContain('signal=null');
    expect(warning).toContain(
      `err=${JSON.stringify('the server process exited with code 3 at start: "Error: cannot open the database with token [redacted]"')}`,
    );
    expect(warning).toContain(JSON.stringify('Error: cannot open the database with token [redacted]'));
    expect(warning).toMatch(/" {4}at file:[^"]*fails-at-start\.mjs/);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });
});

describe('a call to an upstream that restarted and now exits at start', () => {
  it('fails with E_UPSTREAM_UNAVAILABLE quoting the server’s reason; the secret it printed appears nowhere', async () => {
    dir = await mkdtemp(join(tmpdir(), 'foresight-failure-'));
    const flag = join(dir, 'fail');
    process.env[VARIABLE] = SECRET;
    const config = parseConfig(
      fixtureTable('db', flag, ['restart_delay_ms = 50', 'max_restart_delay_ms = 200']),
      '/proj/foresight.toml',
      '/proj',
    );
    // A logger that redacts nothing: what it holds is what the plugin wrote.
    const records: Record<string, unknown>[] = [];
    const c = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
    connected = c;
    await vi.waitFor(
      async () => expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain('db__ping'),
      { timeout: 15_000, interval: 50 },
    );
    // From now on it fails at start; `stop` ends the one running.
    await writeFile(flag, '');
    expect(textOf(await c.client.callTool({ name: 'db__stop', arguments: {} }))).toBe('pong');

    let answer = '';
    await vi.waitFor(
      async () => {
        const result = await c.client.callTool({ name: 'db__ping', arguments: {} });
        expect(result.isError).toBe(true);
        answer = textOf(result);
        expect(answer).toContain('at start');
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(answer).toMatch(
      new RegExp(
        `^the upstream MCP server "node ${FAILS_AT_START}" is unavailable, restarting \\(attempt \\d+\\): ` +
          'the server process exited with code 3 at start: "Error: cannot open the database with token \\[redacted\\]"; ' +
          'the call was not sent',
      ),
    );

    const health = c.host.plugins.mountedPlugins().find((plugin) => plugin.name === 'db')?.health;
    expect(health?.state).toBe('down');
    expect(health?.detail).toContain(
      'the server process exited with code 3 at start: "fails-at-start: reading the settings" / "Error: cannot open the database with token [redacted]"; listing its last good catalog (2 tools)',
    );
    // The stop itself: an exit of its own, after running, with what it said last.
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'upstream: lost',
        exitCode: 0,
        err: 'the server process exited with code 0: "fails-at-start: stopping on request"',
      }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'upstream: could not connect',
        exitCode: 3,
        stderr: expect.arrayContaining(['Error: cannot open the database with token [redacted]']) as unknown,
      }),
    );
    expect(JSON.stringify(records)).not.toContain(SECRET);
    expect(JSON.stringify(health)).not.toContain(SECRET);
  });
});
