// Mistakes in a plugin's table that only show once it is resolved (the kind, the module file, the root, the
// prefix), as `foresight check` reports them: the file and line, and the nearest valid value.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_FILES, killAll, makeWorkspace, removeWorkspaces, runCli } from './support/cli.js';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

const PLUGIN = `export default {
  id: 'mine',
  version: '1.0.0',
  build: () => ({ tools: () => [], callTool: async () => ({ content: [] }) }),
};
`;

/** `check` in a fresh folder holding `config` as foresight.toml (and a src/ folder and plugin.mjs). */
async function check(config: string): Promise<{ code: number | null; stderr: string; file: string }> {
  const cwd = await makeWorkspace({ ...WORKSPACE_FILES, 'plugin.mjs': PLUGIN, 'foresight.toml': config });
  await mkdir(path.join(cwd, 'docs'), { recursive: true });
  await writeFile(path.join(cwd, 'docs', 'a.md'), '# a\n');
  const run = await runCli(['check'], { cwd });
  return { code: run.code, stderr: run.stderr, file: path.join(cwd, 'foresight.toml') };
}

describe('foresight check on a plugin table that cannot be resolved', () => {
  it('an unknown `use` names its line and the nearest built-in', async () => {
    const { code, stderr, file } = await check('[plugins.gh]\nuse = "githib"\nrepo = "o/r"\n');
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${file}:2: plugins.gh.use: no built-in plugin is called "githib" (did you mean "github"?); built-in plugins are: workspace, github,`,
    );
  });

  it('a table named after no built-in, with no `use`, names its header and the nearest built-in', async () => {
    const { code, stderr, file } = await check('# mine\n[plugins.workspac]\nroot = "."\n');
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${file}:2: plugins.workspac: no built-in plugin is called "workspac" (did you mean "workspace"?)`,
    );
    expect(stderr).toContain('set use = "<kind>" in the table');
  });

  it('a module file that is not there names its line and the nearest file beside it', async () => {
    const { code, stderr, file } = await check('[plugins.mine]\nmodule = "./plugn.mjs"\n');
    expect(code).toBe(1);
    const missing = path.join(path.dirname(file), 'plugn.mjs');
    expect(stderr).toContain(
      `${file}:2: plugins.mine.module: ${JSON.stringify(missing)} does not exist (did you mean "./plugin.mjs"?)`,
    );
  });

  it('a workspace root that is not there names its line and the nearest directory', async () => {
    const { code, stderr, file } = await check('[plugins.workspace]\n\nroot = "./scr"\n');
    expect(code).toBe(1);
    const missing = path.join(path.dirname(file), 'scr');
    expect(stderr).toContain(
      `${file}:3: plugins.workspace.root: ${JSON.stringify(missing)} does not exist (did you mean "./src"?)`,
    );
  });

  it('a root that is a file says so', async () => {
    const { code, stderr, file } = await check('[plugins.workspace]\nroot = "plugin.mjs"\n');
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}:2: plugins.workspace.root: `);
    expect(stderr).toContain('plugin.mjs" is not a directory');
  });

  it('a prefix another table took names both lines and a free prefix', async () => {
    const config =
      '[plugins.a]\nuse = "workspace"\nprefix = "ws"\n\n[plugins.b]\nuse = "workspace"\nprefix = "ws"\n';
    const { code, stderr, file } = await check(config);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${file}:7: plugins.b.prefix: prefix "ws" is already plugins.a's (line 3); their tools, prompts and resource schemes would collide; give this one its own, e.g. prefix = "b"`,
    );
  });

  it('tables with their own prefixes and roots that exist pass', async () => {
    const config =
      '[plugins.a]\nuse = "workspace"\nprefix = "ws"\n\n[plugins.b]\nuse = "workspace"\nroot = "docs"\n';
    const { code, stderr } = await check(config);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
