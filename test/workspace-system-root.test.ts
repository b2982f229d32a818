// The workspace plugin refuses a root that reaches /proc or /sys unless allow_system_root says so, and never serves
// a process's environment or memory: through the real host and an MCP client, and through the CLI with a canary.
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../src/create-host.js';
import workspacePlugin from '../src/plugins/workspace/index.js';
import { runCli } from './support/cli.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const linux = process.platform === 'linux';

async function startWith(options: Record<string, unknown>): Promise<void> {
  const host = createHost({
    logger: createMemoryLogger(),
    planner: { enabled: false },
    plugins: [{ plugin: workspacePlugin, options }],
  });
  try {
    await host.start();
  } finally {
    await host.close();
  }
}

describe('workspace system roots', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'foresight-sysroot-'));
    await symlink('/', path.join(base, 'to-slash'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it.each(['/', '/proc', '/proc/self', '/sys', '/sys/kernel'])(
    'refuses root = %j at start, naming the option',
    async (root) => {
      const start = startWith({ root });
      await expect(start).rejects.toMatchObject({ code: 'E_PLUGIN_BUILD' });
      await expect(start).rejects.toThrow(/workspace plugin option root: .*is or contains \/proc or \/sys/);
      await expect(start).rejects.toThrow(/allow_system_root = true/);
    },
  );

  it('refuses a root whose real path is "/" through a link', async () => {
    await expect(startWith({ root: path.join(base, 'to-slash') })).rejects.toThrow(
      /"\/" is or contains \/proc/,
    );
  });

  it('serves an ordinary directory, and refuses a non-boolean allow_system_root', async () => {
    await expect(startWith({ root: base })).resolves.toBeUndefined();
    await expect(startWith({ root: base, allow_system_root: 'yes' })).rejects.toThrow(/allow_system_root/);
  });
});

describe.runIf(linux)('with allow_system_root = true and root = "/"', () => {
  let connected: Connected;
  beforeAll(async () => {
    connected = await connect({
      planner: { enabled: false },
      plugins: [{ plugin: workspacePlugin, options: { root: '/', allow_system_root: true } }],
    });
  });
  afterAll(() => connected.close());

  const call = async (name: string, args: Record<string, unknown>) =>
    (await connected.client.callTool({ name: `workspace__${name}`, arguments: args })) as CallToolResult;
  /** A value of this process's starting environment, which /proc/<pid>/environ would show. */
  const envValue = process.env.PATH ?? '';

  it.each([
    'proc/self/environ',
    'proc/thread-self/environ',
    `proc/${process.pid}/environ`,
    `proc/${process.pid}/task/${process.pid}/environ`,
    'proc/self/mem',
    `proc/${process.ppid}/environ`,
  ])('read_file %s is refused, and names why', async (file) => {
    const result = await call('read_file', { path: file });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`"${file}" is a process's environment or memory`);
    expect(JSON.stringify(result)).not.toContain(envValue);
  });

  it('workspace://file/proc/self/environ is refused', async () => {
    const read = connected.client.readResource({ uri: 'workspace://file/proc/self/environ' });
    await expect(read).rejects.toThrow(/is a process's environment or memory/);
  });

  it('grep neither searches an environ file in a walk nor when named', async () => {
    const walked = await call('grep', { pattern: 'PATH=', path: 'proc/self', glob: 'environ' });
    expect(walked.structuredContent).toEqual({ matches: [], truncated: false });
    const named = await call('grep', { pattern: 'PATH=', path: 'proc/self/environ' });
    expect(named.isError).toBe(true);
    expect(JSON.stringify(named)).not.toContain(envValue);
  });

  it('still serves the ordinary files of the system', async () => {
    expect(textOf(await call('read_file', { path: 'proc/self/status' }))).toMatch(/^Name:/m);
  });
});

describe.runIf(linux)('the CLI with root = "/"', () => {
  const CANARY = 'canary-token-7f3e9c1a5b2d';
  it('keeps a token from the environment out of every output', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'foresight-sysroot-cli-'));
    try {
      const { writeFile } = await import('node:fs/promises');
      const config = path.join(cwd, 'foresight.toml');
      await writeFile(config, '[plugins.workspace]\nroot = "/"\nallow_system_root = true\n');
      const env = { FORESIGHT_CANARY_TOKEN: CANARY };
      const read = await runCli(['call', 'workspace__read_file', '{"path":"proc/self/environ"}'], {
        cwd,
        env,
      });
      expect(read.code).toBe(1);
      expect(read.stdout).toMatch(/is a process's environment or memory/);
      const grep = await runCli(
        ['call', 'workspace__grep', `{"pattern":"${CANARY}","path":"proc/self","glob":"environ"}`],
        { cwd, env },
      );
      expect(grep.stdout).toContain(`no matches for /${CANARY}/`);
      for (const run of [read, grep])
        expect(run.stdout.split(CANARY).length + run.stderr.split(CANARY).length).toBe(
          // The grep answer quotes its own pattern once; the environment itself must appear nowhere.
          run === grep ? 3 : 2,
        );
      await writeFile(config, '[plugins.workspace]\nroot = "/"\n');
      const refused = await runCli(['check'], { cwd, env });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/workspace plugin option root: "\/" is or contains \/proc or \/sys/);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
