// The one-shot CLI commands (tools, call, check) and serve's start-up failures, run as real processes:
// what they print, on which stream, and their exit codes.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type Server, createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  WORKSPACE_FILES,
  killAll,
  loggedMessages,
  makeWorkspace,
  removeWorkspaces,
  runCli,
} from './support/cli.js';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

async function workspaceWith(files: Record<string, string>): Promise<string> {
  return makeWorkspace({ ...WORKSPACE_FILES, ...files });
}

describe('foresight tools', () => {
  it('--json prints the four workspace tools as JSON on stdout', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['tools', '--json'], { cwd });
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as {
      name: string;
      inputSchema: { type: string };
      annotations?: { readOnlyHint?: boolean };
    }[];
    expect(tools.map((t) => t.name).sort()).toEqual([
      'workspace__glob',
      'workspace__grep',
      'workspace__list_directory',
      'workspace__read_file',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
  });
});

describe('foresight call', () => {
  it('prints the text of the file and exits 0', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['call', 'workspace__read_file', '{"path":"a.txt"}'], { cwd });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(WORKSPACE_FILES['a.txt']);
  });

  it('--json prints the whole CallToolResult', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['call', 'workspace__glob', '{"pattern":"src/*.ts"}', '--json'], { cwd });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      structuredContent: { paths: ['src/index.ts', 'src/util.ts'], truncated: false },
    });
  });

  it('exits 2 with a clear message when the arguments are not JSON', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['call', 'workspace__read_file', '{path: a.txt}'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^foresight: arguments must be a JSON object/m);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('exits 2 when the arguments are JSON but not an object', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['call', 'workspace__read_file', '["a.txt"]'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/arguments must be a JSON object/);
  });

  it('exits non-zero and names an unknown tool', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['call', 'workspace__no_such_tool', '{}'], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain('"workspace__no_such_tool"');
  });

  it('exits 1 when the tool reports an error, printing the error text', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['call', 'workspace__read_file', '{"path":"../outside.txt"}'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/outside the workspace root/);
    expect(run.stderr).toMatch(/workspace__read_file reported an error/);
  });
});

describe('foresight check', () => {
  it('exits 0 with a valid config and lists the plugins', async () => {
    const cwd = await workspaceWith({
      'foresight.toml':
        '[plugins.workspace]\nroot = "."\n\n[plugins.docs]\nuse = "workspace"\nroot = "src"\nprefix = "docs"\n',
    });
    const run = await runCli(['check'], { cwd });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ok\s+workspace \(workspace\), prefix "workspace", 4 tools$/m);
    expect(run.stdout).toMatch(/^ok\s+docs \(workspace\), prefix "docs", 4 tools$/m);
    expect(run.stdout).toMatch(/config is valid: 2 plugins, 8 tools/);
  });

  it('exits non-zero on an unknown key, naming the key, the file and the line', async () => {
    const cwd = await makeWorkspace();
    const config = path.join(cwd, 'bad.toml');
    await writeFile(
      config,
      '[server]\nlog_level = "warn"\n\n[plugins.workspace]\nroot = "."\nroots = "src"\n',
    );
    const run = await runCli(['check', '--config', config], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stdout).not.toMatch(/config is valid/);
    expect(run.stderr).toContain(`${config}:6`);
    expect(run.stderr).toContain('"roots"');
  });

  it('exits non-zero when a TOML file does not parse, naming the file and line', async () => {
    const cwd = await makeWorkspace();
    const config = path.join(cwd, 'broken.toml');
    await writeFile(config, '[server]\ntransport = "stdio"\nlog_level = \n');
    const run = await runCli(['check', '--config', config], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${config}:3`);
  });
});

describe('foresight serve start-up failures', () => {
  /** Records its lifecycle as marker files, so a test can see what the host ran after the process is gone. */
  const MARKING_PLUGIN = `
import { writeFileSync } from 'node:fs';
export default {
  id: 'marker',
  version: '1.0.0',
  build() {
    return {
      tools: () => [{ name: 'noop', inputSchema: { type: 'object' } }],
      callTool: async () => ({ content: [] }),
      async start() { writeFileSync('started.marker', 'yes'); },
      async shutdown() { writeFileSync('shut-down.marker', 'yes'); },
    };
  },
};
`;

  const THROWING_PLUGIN = `
export default {
  id: 'grumpy',
  version: '1.0.0',
  build() {
    return {
      tools: () => [{ name: 'noop', inputSchema: { type: 'object' } }],
      callTool: async () => ({ content: [] }),
      async start() {
        throw new Error('cannot reach the grumpy service');
      },
    };
  },
};
`;

  it('exits non-zero, names the plugin whose start() throws and shuts down the one started before it', async () => {
    const cwd = await workspaceWith({
      'grumpy.mjs': THROWING_PLUGIN,
      'marker.mjs': MARKING_PLUGIN,
      'foresight.toml':
        '[plugins.marker]\nmodule = "./marker.mjs"\n\n[plugins.moody]\nmodule = "./grumpy.mjs"\n',
    });
    const run = await runCli(['serve'], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(loggedMessages(run.stderr).join('\n')).toMatch(
      /plugin "moody" \(grumpy\) failed to start: cannot reach the grumpy service/,
    );
    expect(run.stderr).not.toMatch(/serving stdio/);
    expect(existsSync(path.join(cwd, 'started.marker'))).toBe(true);
    expect(existsSync(path.join(cwd, 'shut-down.marker'))).toBe(true);
  });

  it('exits non-zero and names the missing secret variable', async () => {
    const cwd = await workspaceWith({
      'foresight.toml':
        '[server]\ntransport = "http"\nhttp = "127.0.0.1:0"\nauth_token_env = "NOPE_NOT_SET"\n\n[plugins.workspace]\nroot = "."\n',
    });
    const run = await runCli(['serve'], { cwd, env: { NOPE_NOT_SET: undefined } });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain('NOPE_NOT_SET');
    expect(run.stderr).toMatch(/server\.auth_token_env/);
    expect(run.stderr).not.toMatch(/serving Streamable HTTP/);
  });

  it('reports a missing secret before any plugin starts', async () => {
    const cwd = await workspaceWith({
      'marker.mjs': MARKING_PLUGIN,
      'foresight.toml':
        '[server]\ntransport = "http"\nhttp = "127.0.0.1:0"\nauth_token_env = "NOPE_NOT_SET"\n\n[plugins.marker]\nmodule = "./marker.mjs"\n',
    });
    const run = await runCli(['serve'], { cwd, env: { NOPE_NOT_SET: undefined } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('NOPE_NOT_SET');
    expect(existsSync(path.join(cwd, 'started.marker'))).toBe(false);
  });

  describe('when the HTTP port is taken', () => {
    let blocker: Server | undefined;
    afterEach(async () => {
      await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    });

    it('exits non-zero, names the address and shuts the started plugins down', async () => {
      blocker = createServer();
      const port = await new Promise<number>((resolve) => {
        blocker?.listen(0, '127.0.0.1', () => resolve((blocker?.address() as { port: number }).port));
      });
      const cwd = await workspaceWith({
        'marker.mjs': MARKING_PLUGIN,
        'foresight.toml': '[plugins.marker]\nmodule = "./marker.mjs"\n',
      });
      const run = await runCli(['serve', '--http', `127.0.0.1:${port}`], { cwd });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/EADDRINUSE/);
      expect(run.stderr).toContain(`127.0.0.1:${port}`);
      expect(existsSync(path.join(cwd, 'started.marker'))).toBe(true);
      expect(existsSync(path.join(cwd, 'shut-down.marker'))).toBe(true);
    });
  });

  it('exits 2 on a malformed --http address', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['serve', '--http', 'not-an-address'], { cwd });
    expect(run.code).toBe(2);
    expect(loggedMessages(run.stderr).join('\n')).toMatch(/--http "not-an-address"/);
  });
});
