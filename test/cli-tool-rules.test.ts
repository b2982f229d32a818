// Tool rules through the real CLI: `foresight check` lists what each rule matched and fails, naming the file and
// line, on a rule, glob or parameter name that matches nothing; `serve` logs such a rule as an error at start.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, makeWorkspace, removeWorkspaces, runCli, spawnCli } from './support/cli.js';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

/** A workspace whose foresight.toml is `lines`; returns the directory and the config's path. */
async function withConfig(...lines: string[]): Promise<{ cwd: string; config: string }> {
  const cwd = await makeWorkspace();
  const config = path.join(cwd, 'foresight.toml');
  await writeFile(config, `${lines.join('\n')}\n`);
  return { cwd, config };
}

const WORKSPACE = ['[plugins.workspace]', 'root = "."'];

describe('foresight check and tool rules', () => {
  it('lists what each rule matched and passes when every rule matches something', async () => {
    const { cwd } = await withConfig(
      ...WORKSPACE,
      'tools.deny = ["grep"]',
      '',
      '[[enrich]]',
      'tools = ["workspace__glob"]',
      'drop = true',
      '',
      '[[enrich]]',
      'tools = ["workspace__read_file"]',
      'name = "read"',
      'hide = ["end_line"]',
    );
    const run = await runCli(['check'], { cwd });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rule  [plugins.workspace] tools.deny (line 3): deny → grep\n');
    expect(run.stdout).toContain('rule  [[enrich]] #1 (line 5): drop → workspace__glob\n');
    expect(run.stdout).toContain(
      'rule  [[enrich]] #2 (line 9): name, hide → workspace__read_file as workspace__read\n',
    );
    expect(run.stdout).toMatch(/config is valid: 1 plugin, 2 tools/);
    // The plugin's own count beside what its rules leave published.
    expect(run.stdout).toMatch(/^ok {2}workspace \(workspace\), prefix "workspace", 4 tools, 2 published$/m);
  });

  it('checks [auth.scopes] globs like tool rules: what each guards, and a glob that matches nothing fails', async () => {
    const { cwd, config } = await withConfig(
      ...WORKSPACE,
      '',
      '[auth]',
      'issuer = "https://auth.example.com"',
      'audience = "https://mcp.example.com/mcp"',
      '',
      '[auth.scopes]',
      '"workspace__read_*" = "files:read"',
      '"gh__*" = "repo:read"',
    );
    const run = await runCli(['check'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'rule  auth.scopes."workspace__read_*" (line 9): guards → workspace__read_file\n',
    );
    expect(run.stdout).toContain(
      `fail  ${config}:10: auth.scopes."gh__*": glob matches no listed tool, so it guards nothing`,
    );
    expect(run.stderr).toMatch(/1 tool rule matches nothing/);
  });

  it('fails on a tools glob that matches nothing, naming the file and line', async () => {
    const { cwd, config } = await withConfig(
      ...WORKSPACE,
      '',
      '[[enrich]]',
      'tools = ["workspace__write_*"]',
      'drop = true',
    );
    const run = await runCli(['check'], { cwd });
    expect(run.code).toBe(1);
    const problem = `${config}:4: [[enrich]] #1: tools glob "workspace__write_*" matches no tool`;
    expect(run.stdout).toContain(`fail  ${problem}\n`);
    expect(run.stdout).not.toMatch(/config is valid/);
    // Said once, on stdout; the exit reason points there.
    expect(run.stderr).toContain('1 tool rule matches nothing (the fail lines above)');
    expect(run.stderr).not.toContain(problem);
  });

  it('fails on a deny glob and a parameter name that match nothing, each with its line', async () => {
    const { cwd, config } = await withConfig(
      ...WORKSPACE,
      'tools.deny = ["write_*"]',
      '',
      '[[enrich]]',
      'tools = ["workspace__read_file"]',
      'hide = ["end_lien"]',
    );
    const run = await runCli(['check'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `fail  ${config}:3: [plugins.workspace] tools.deny: glob "write_*" matches none of the plugin's tools (glob, grep, read_file, list_directory)\n`,
    );
    expect(run.stdout).toContain(
      `fail  ${config}:5: [[enrich]] #1: hide "end_lien" is a parameter of none of its tools (workspace__read_file)\n`,
    );
    expect(run.stderr).toContain('2 tool rules match nothing');
  });
});

describe('foresight serve and tool rules', () => {
  it('logs a rule that matches nothing as an error naming the file and line, and serves', async () => {
    const { cwd, config } = await withConfig(...WORKSPACE, 'tools.allow = ["read_fiel"]');
    const proc = spawnCli(['serve'], { cwd });
    await proc.waitForStderr(/serving stdio/);
    const [line] = await proc.waitForStderr(/^.*tool rule matches nothing.*$/m);
    expect(JSON.parse(line)).toMatchObject({
      level: 50,
      msg: `tool rule matches nothing: ${config}:3: [plugins.workspace] tools.allow: glob "read_fiel" matches none of the plugin's tools (glob, grep, read_file, list_directory)`,
    });
  });
});
