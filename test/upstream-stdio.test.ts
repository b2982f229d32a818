// The upstream plugin over stdio, against the real reference servers: server-everything and
// server-filesystem (on a temp dir), reached through Foresight by a real MCP client.
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const STALLS_ONE_LISTING = fileURLToPath(
  new URL('./fixtures/upstreams/stalls-one-listing.mjs', import.meta.url),
);

let connected: Connected | undefined;
let dir: string | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function mount(toml: string): Promise<Connected> {
  const config = parseConfig(toml, '/proj/foresight.toml', '/proj');
  connected = await connect({ config, planner: { enabled: false } });
  return connected;
}

/** The upstream connects in the background: its tools arrive with list_changed. */
async function toolNames(c: Connected, expected: string): Promise<string[]> {
  let names: string[] = [];
  await vi.waitFor(
    async () => {
      names = (await c.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain(expected);
    },
    { timeout: 15_000, interval: 50 },
  );
  return names;
}

describe('upstream over stdio: server-everything', () => {
  it('lists its tools under the prefix with schemas unchanged, and forwards calls', async () => {
    const c = await mount(
      ['[plugins.ev]', 'use = "upstream"', `command = ["node", ${JSON.stringify(EVERYTHING)}]`].join('\n'),
    );
    const names = await toolNames(c, 'ev__echo');
    expect(names).toEqual(expect.arrayContaining(['ev__echo', 'ev__get-sum', 'ev__get-structured-content']));
    const sum = (await c.client.listTools()).tools.find((tool) => tool.name === 'ev__get-sum');
    expect(sum?.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });

    const echoed = await c.client.callTool({
      name: 'ev__echo',
      arguments: { message: 'hi ✓' },
    });
    expect(textOf(echoed)).toBe('Echo: hi ✓');
    const added = await c.client.callTool({ name: 'ev__get-sum', arguments: { a: 2, b: 40 } });
    expect(textOf(added)).toContain('42');
  });

  it('passes resources, resource templates and prompts through', async () => {
    const c = await mount(
      ['[plugins.ev]', 'use = "upstream"', `command = ["node", ${JSON.stringify(EVERYTHING)}]`].join('\n'),
    );
    await toolNames(c, 'ev__echo');
    const { resources } = await c.client.listResources();
    const doc = resources.find((resource) => resource.uri.endsWith('document/architecture.md'));
    expect(doc?.uri).toBe('ev://demo://resource/static/document/architecture.md');
    const read = await c.client.readResource({ uri: doc?.uri ?? '' });
    expect(read.contents[0]?.uri).toBe(doc?.uri);
    expect(
      'text' in (read.contents[0] ?? {}) && (read.contents[0] as { text: string }).text.length,
    ).toBeGreaterThan(0);

    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);

    const { prompts } = await c.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('ev__simple-prompt');
    const prompt = await c.client.getPrompt({ name: 'ev__args-prompt', arguments: { city: 'Lisbon' } });
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon');
  });
});

describe('upstream over stdio: requests of the server during a call', () => {
  it('passes sampling and elicitation to the agent’s client and its answers back', async () => {
    const config = parseConfig(
      ['[plugins.ev]', 'use = "upstream"', `command = ["node", ${JSON.stringify(EVERYTHING)}]`].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    connected = await connect(
      { config, planner: { enabled: false } },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    const c = connected;
    const asked: string[] = [];
    c.client.setRequestHandler('sampling/createMessage', (request) => {
      asked.push(JSON.stringify(request.params.messages));
      return {
        role: 'assistant',
        content: { type: 'text', text: 'sampled by the agent' },
        model: 'test-model',
      };
    });
    c.client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'decline' };
    });
    await toolNames(c, 'ev__trigger-sampling-request');

    const sampled = await c.client.callTool({
      name: 'ev__trigger-sampling-request',
      arguments: { prompt: 'name a colour' },
    });
    expect(textOf(sampled)).toContain('sampled by the agent');
    expect(asked[0]).toContain('name a colour');

    const elicited = await c.client.callTool({ name: 'ev__trigger-elicitation-request', arguments: {} });
    expect(asked).toHaveLength(2);
    expect(textOf(elicited).toLowerCase()).toContain('decline');
  });
});

describe('upstream over stdio: deadlines', () => {
  it('ends a call that outlives the plugin’s deadline, and goes on serving', async () => {
    const c = await mount(
      [
        '[plugins.ev]',
        'use = "upstream"',
        `command = ["node", ${JSON.stringify(EVERYTHING)}]`,
        'deadline_ms = 300',
      ].join('\n'),
    );
    await toolNames(c, 'ev__trigger-long-running-operation');
    const slow = await c.client.callTool({
      name: 'ev__trigger-long-running-operation',
      arguments: { duration: 5, steps: 5 },
    });
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toContain('did not finish within its deadline of 300 ms');
    const echoed = await c.client.callTool({ name: 'ev__echo', arguments: { message: 'still here' } });
    expect(textOf(echoed)).toBe('Echo: still here');
  });
});

/** Pids of this process's children running `script` (the spawned upstream servers). */
function childrenRunning(script: string): number[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === process.pid && args.join(' ').includes(script))
    .map(([pid]) => Number(pid));
}

describe('upstream over stdio: when the server dies', () => {
  it('restarts a killed server: meanwhile its last catalog stays listed and writes say which attempt is next', async () => {
    const records: Record<string, unknown>[] = [];
    const config = parseConfig(
      [
        '[plugins.ev]',
        'use = "upstream"',
        `command = ["node", ${JSON.stringify(EVERYTHING)}]`,
        // Long enough to observe the server down; the backoff itself is the supervisor's.
        'restart_delay_ms = 2000',
        // The server calls it read-only; counted as a write here, its call cut off is not made again.
        '[tools."ev__trigger-long-running-operation"]',
        'side_effect = "mutates_external"',
      ].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    const c = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
    connected = c;
    await toolNames(c, 'ev__echo');
    const [pid, ...others] = childrenRunning(EVERYTHING);
    expect(others).toEqual([]);
    // A write the server is working on when it dies says so, not "connection closed".
    let progressed = () => {};
    const working = new Promise<void>((resolve) => (progressed = resolve));
    const inFlight = c.client.callTool(
      { name: 'ev__trigger-long-running-operation', arguments: { duration: 20, steps: 20 } },
      { onprogress: () => progressed() },
    );
    await working;
    process.kill(pid ?? 0, 'SIGKILL');
    const cut = await inFlight;
    expect(cut.isError).toBe(true);
    // The server's last stderr line is quoted after the signal, whatever it was.
    const died = 'the server process exited on signal SIGKILL(: "[^"]*")?';
    expect(textOf(cut)).toMatch(
      new RegExp(
        `is unavailable, restarting \\(attempt 1\\): ${died}; it went away while the call was in flight, so the call may or may not have taken effect`,
      ),
    );
    await vi.waitFor(async () => {
      // A write (the server says it is not read-only) fails at once; a read-only call would wait for the restart.
      const answer = await c.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
      expect(answer.isError).toBe(true);
      expect(textOf(answer)).toMatch(
        new RegExp(
          `the upstream MCP server "node ${EVERYTHING}" is unavailable, restarting \\(attempt 1\\): ${died}; the call was not sent`,
        ),
      );
    });
    expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain('ev__echo');
    expect(records).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'upstream: lost', attempt: 1, retryInMs: 2000 }),
    );

    // Restarted: a new process, and calls are served again.
    await vi.waitFor(
      async () => {
        const answer = await c.client.callTool({ name: 'ev__echo', arguments: { message: 'back' } });
        expect(textOf(answer)).toBe('Echo: back');
      },
      { timeout: 15_000, interval: 100 },
    );
    const restarted = childrenRunning(EVERYTHING);
    expect(restarted).toHaveLength(1);
    expect(restarted[0]).not.toBe(pid);
    expect(records).toContainEqual(expect.objectContaining({ msg: 'upstream: connected', after: 1 }));
  });

  it('a server that never answers does not hold the listing, and is gone once Foresight closes', async () => {
    const hang = 'setInterval(() => {}, 1000) /* foresight-hung-upstream */';
    const c = await mount(
      [
        '[plugins.hung]',
        'use = "upstream"',
        `command = ["node", "-e", ${JSON.stringify(hang)}]`,
        '[plugins.ev]',
        'use = "upstream"',
        `command = ["node", ${JSON.stringify(EVERYTHING)}]`,
      ].join('\n'),
    );
    const names = await toolNames(c, 'ev__echo');
    expect(names.filter((name) => name.startsWith('hung__'))).toEqual([]);
    expect(childrenRunning('foresight-hung-upstream')).toHaveLength(1);
    await c.close();
    connected = undefined;
    await vi.waitFor(() => expect(childrenRunning('foresight-hung-upstream')).toEqual([]), { timeout: 8000 });
  });

  it('a change notice ends a re-reading the server never answered, and lists what changed since', async () => {
    const c = await mount(
      ['[plugins.st]', 'use = "upstream"', `command = ["node", ${JSON.stringify(STALLS_ONE_LISTING)}]`].join(
        '\n',
      ),
    );
    await toolNames(c, 'st__grow');
    // The first change: the server never answers the listing that follows.
    await c.client.callTool({ name: 'st__grow', arguments: {} });
    // The second change supersedes that listing; its own is answered, with both new tools.
    await c.client.callTool({ name: 'st__grow', arguments: {} });
    const names = await toolNames(c, 'st__grown_2');
    expect(names).toEqual(expect.arrayContaining(['st__grow', 'st__grown_1', 'st__grown_2']));
  });

  it('leaves no server process behind once Foresight has closed', async () => {
    const c = await mount(
      ['[plugins.ev]', 'use = "upstream"', `command = ["node", ${JSON.stringify(EVERYTHING)}]`].join('\n'),
    );
    await toolNames(c, 'ev__echo');
    expect(childrenRunning(EVERYTHING)).toHaveLength(1);
    await c.close();
    connected = undefined;
    await vi.waitFor(() => expect(childrenRunning(EVERYTHING)).toEqual([]));
  });
});

describe('upstream over stdio: catalog changes', () => {
  it('passes the server’s list_changed on, with the new catalog listed under the prefix', async () => {
    const c = await mount(
      ['[plugins.ev]', 'use = "upstream"', `command = ["node", ${JSON.stringify(EVERYTHING)}]`].join('\n'),
    );
    await toolNames(c, 'ev__gzip-file-as-resource');
    let changed = 0;
    c.client.setNotificationHandler('notifications/resources/list_changed', () => {
      changed += 1;
    });
    const before = (await c.client.listResources()).resources.map((r) => r.uri);
    // The tool registers a new resource of the session, and the server says its resource list changed.
    await c.client.callTool({
      name: 'ev__gzip-file-as-resource',
      arguments: { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8gd29ybGQ=' },
    });
    await vi.waitFor(() => expect(changed).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    const after = (await c.client.listResources()).resources.map((r) => r.uri);
    const added = after.filter((uri) => !before.includes(uri));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^ev:\/\/.*hello\.txt\.gz$/);
  });
});

describe('upstream over stdio: secrets for the spawned server', () => {
  const VARIABLE = 'FORESIGHT_TEST_UPSTREAM_SECRET';
  const table = [
    '[plugins.ev]',
    'use = "upstream"',
    `command = ["node", ${JSON.stringify(EVERYTHING)}]`,
    `secret_env = { PASSED_SECRET = "${VARIABLE}" }`,
  ].join('\n');
  afterEach(() => {
    delete process.env[VARIABLE];
  });

  it('passes the value of the variable named to the server, and never shows it to the agent', async () => {
    process.env[VARIABLE] = 'up-secret-7f3a9c';
    const c = await mount(table);
    await toolNames(c, 'ev__get-env');
    // server-everything's get-env answers with its whole environment.
    const env = textOf(await c.client.callTool({ name: 'ev__get-env', arguments: {} }));
    expect(env).toContain('"PASSED_SECRET": "[redacted]"');
    expect(env).not.toContain('up-secret-7f3a9c');
    // Only the safe default set and what the table names: not Foresight's own variables.
    expect(env).not.toContain(VARIABLE);
  });

  it('refuses to start when the variable is not set, naming the key and the variable', () => {
    expect(() => parseConfig(table, '/proj/foresight.toml', '/proj')).toThrow(
      new RegExp(`${VARIABLE}.*plugins\\.ev\\.secret_env\\.PASSED_SECRET in /proj/foresight\\.toml:4`),
    );
  });
});

describe('upstream over stdio: server-filesystem on a temp dir', () => {
  it('reads a file of the mounted directory through its own tool', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'foresight-upstream-')));
    await writeFile(join(dir, 'notes.md'), 'mounted through Foresight\n');
    const c = await mount(
      [
        '[plugins.fs]',
        'use = "upstream"',
        `command = ["node", ${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(dir)}]`,
      ].join('\n'),
    );
    await toolNames(c, 'fs__read_text_file');
    const read = await c.client.callTool({
      name: 'fs__read_text_file',
      arguments: { path: join(dir, 'notes.md') },
    });
    expect(textOf(read)).toContain('mounted through Foresight');
  });

  it('a server that cannot start is logged and lists nothing; the other upstream is unaffected', async () => {
    const records: Record<string, unknown>[] = [];
    const config = parseConfig(
      [
        '[plugins.gone]',
        'use = "upstream"',
        'command = ["/nonexistent/mcp-server", "--flag"]',
        '[plugins.ev]',
        'use = "upstream"',
        `command = ["node", ${JSON.stringify(EVERYTHING)}]`,
      ].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    connected = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
    const names = await toolNames(connected, 'ev__echo');
    expect(names.filter((name) => name.startsWith('gone__'))).toEqual([]);
    await vi.waitFor(() =>
      expect(records).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: 'upstream: could not connect',
          upstream: '/nonexistent/mcp-server --flag',
        }),
      ),
    );
  });
});
