// A plugin in a temp folder importing `foresight`: the docs' first plugin, written into a folder of its own outside
// this repository with no node_modules, is served by the built CLI inline and in a worker, and answers a real client.
// Then what `npm pack` ships: the files the package names, and a tarball whose CLI serves that plugin by itself.
// Run `npm run build` first.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ObservedStdioClientTransport,
  START_TIMEOUT_MS,
  killAll,
  makeWorkspace,
  newClient,
  removeWorkspaces,
  runCli,
  textOf,
  withTimeout,
} from './support/cli.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('..', import.meta.url));
/** `npm pack` gzips about 900 files; on a busy 2-core box that takes a few seconds. */
const PACK_TIMEOUT_MS = 60_000;

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

/** The plugin and the config of "A first plugin" in docs/writing-plugins.md, as a reader would copy them. */
async function firstPluginFromDocs(): Promise<{ plugin: string; config: string }> {
  const docs = await readFile(path.join(REPO, 'docs/writing-plugins.md'), 'utf8');
  const section = docs.slice(docs.indexOf('\n## A first plugin'));
  const block = (lang: string) => {
    const found = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
    if (!found?.[1]) throw new Error(`no ${lang} block under "A first plugin" in docs/writing-plugins.md`);
    return found[1];
  };
  return { plugin: block('js'), config: block('toml') };
}

/** A fresh folder under the OS temp dir holding hello.mjs and foresight.toml, and nothing else. */
async function pluginFolder(isolation: 'inline' | 'worker', extra: Record<string, string> = {}) {
  const { plugin, config } = await firstPluginFromDocs();
  expect(config).toContain('module = "./hello.mjs"');
  const isolationLine = isolation === 'worker' ? 'isolation = "worker"\n' : '';
  return makeWorkspace({ 'hello.mjs': plugin, 'foresight.toml': config + isolationLine, ...extra });
}

/** True when no folder from `dir` up to the root has a node_modules that could hold `foresight`. */
function nothingToResolveFrom(dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'node_modules', 'foresight'))) return false;
    if (path.dirname(at) === at) return true;
  }
}

describe.each(['inline', 'worker'] as const)(
  'the first plugin of the docs, %s, in a folder of its own',
  (isolation) => {
    it('imports foresight from the host: `foresight call` prints its greeting', async () => {
      const dir = await pluginFolder(isolation);
      expect(path.relative(REPO, dir).startsWith('..')).toBe(true);
      expect(nothingToResolveFrom(dir)).toBe(true);

      const call = await runCli(['call', 'hello__greet', '{"who":"Ada"}'], { cwd: dir });
      expect(call.stderr).toBe('');
      expect(call.code).toBe(0);
      expect(call.stdout.trim()).toBe('Hello, Ada!');
    });

    it('serves a real client over stdio, which lists and calls hello__greet', async () => {
      const dir = await pluginFolder(isolation);
      const transport = new ObservedStdioClientTransport({ cwd: dir, args: ['serve'] });
      const client = newClient();
      await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name);
        expect(tools).toEqual(['hello__greet']);
        const result = await client.callTool({ name: 'hello__greet', arguments: { who: 'Grace' } });
        expect(result.isError).toBeFalsy();
        expect(textOf(result)).toBe('Hello, Grace!');
      } finally {
        await client.close();
      }
      expect((await transport.exited()).code).toBe(0);
    });
  },
);

describe('what a plugin folder resolves on its own comes first', () => {
  it('a foresight in its own node_modules is the one the plugin gets, next to one that has none', async () => {
    const { plugin } = await firstPluginFromDocs();
    // The same plugin twice: in the bare folder, and in local/ beside a stand-in package under the same name,
    // whose definePlugin marks the greeting. The bare one is mounted first, so the host's lookup is in place
    // when local/ is loaded.
    const dir = await pluginFolder('inline', {
      'foresight.toml': [
        '[plugins.bare]',
        'module = "./hello.mjs"',
        '[plugins.local]',
        'module = "./local/hello.mjs"',
        '',
      ].join('\n'),
      'local/hello.mjs': plugin,
      'local/node_modules/foresight/package.json': JSON.stringify({
        name: 'foresight',
        type: 'module',
        exports: './index.js',
      }),
      'local/node_modules/foresight/index.js': [
        'export const definePlugin = (plugin) => ({ ...plugin, build: async (ctx) => {',
        '  const provider = await plugin.build(ctx);',
        '  return { ...provider, callTool: async (name, args, c) => {',
        '    const result = await provider.callTool(name, args, c);',
        "    return { content: [...result.content, { type: 'text', text: '(local copy)' }] };",
        '  } };',
        '} });',
        '',
      ].join('\n'),
    });
    const local = await runCli(['call', 'local__greet', '{"who":"Ada"}'], { cwd: dir });
    expect(local.code).toBe(0);
    expect(local.stdout.trim()).toBe('Hello, Ada!\n(local copy)');
    const bare = await runCli(['call', 'bare__greet', '{"who":"Ada"}'], { cwd: dir });
    expect(bare.code).toBe(0);
    expect(bare.stdout.trim()).toBe('Hello, Ada!');
  });

  it('another package nobody has still fails the load, naming it', async () => {
    const dir = await pluginFolder('inline');
    const source = await readFile(path.join(dir, 'hello.mjs'), 'utf8');
    await writeFile(path.join(dir, 'hello.mjs'), `import 'no-such-package-here';\n${source}`);
    const call = await runCli(['call', 'hello__greet', '{"who":"Ada"}'], { cwd: dir });
    expect(call.code).not.toBe(0);
    expect(call.stderr).toContain(`cannot load plugin "hello"`);
    expect(call.stderr).toContain(`Cannot find package 'no-such-package-here'`);
  });
});

interface PackEntry {
  filename: string;
  files: { path: string }[];
}

/** `npm pack --json` on this repository; scripts are skipped, so it packs the dist/ the suite was given. */
async function npmPack(args: string[]): Promise<PackEntry> {
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', ...args], {
    cwd: REPO,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [entry] = JSON.parse(stdout) as PackEntry[];
  if (!entry) throw new Error(`npm pack printed no entry: ${stdout.slice(0, 300)}`);
  return entry;
}

interface Manifest {
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, Record<string, string>>;
  files: string[];
  scripts: Record<string, string>;
}

describe('npm pack', () => {
  it('ships the built package and every file package.json names', { timeout: PACK_TIMEOUT_MS }, async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as Manifest;
    const files = new Set((await npmPack(['--dry-run'])).files.map((file) => file.path));
    const named = [
      manifest.main,
      manifest.types,
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((conditions) => Object.values(conditions)),
    ].map((file) => path.posix.normalize(file));
    for (const file of [
      'package.json',
      'dist/index.js',
      'dist/cli/main.js',
      'dist/host/worker-entry.js',
      ...named,
    ])
      expect(files, file).toContain(file);
    expect([...files].filter((file) => !file.startsWith('dist/')).sort()).toEqual([
      'README.md',
      'package.json',
    ]);
    // The tarball is built when packed (and for a git checkout, when its dependencies are installed) ...
    expect(manifest.scripts.prepare).toContain('npm run build');
    // ... and asks nothing of the project that installs it.
    for (const script of ['preinstall', 'install', 'postinstall'])
      expect(manifest.scripts[script]).toBeUndefined();
  });

  it(
    'makes a tarball whose own CLI serves a plugin that imports foresight',
    { timeout: PACK_TIMEOUT_MS },
    async () => {
      const project = await pluginFolder('inline', {
        'package.json': '{ "type": "module", "private": true }\n',
      });
      const { filename } = await npmPack(['--pack-destination', project]);
      const installed = path.join(project, 'node_modules', 'foresight');
      await mkdir(installed, { recursive: true });
      await run('tar', ['-xzf', path.join(project, filename), '-C', installed, '--strip-components=1']);
      // Stands in for the dependencies npm would install next to it (offline, from this checkout; it also holds
      // the dev dependencies, which a real install would not).
      await symlink(path.join(REPO, 'node_modules'), path.join(installed, 'node_modules'), 'dir');

      const { stdout } = await run(
        process.execPath,
        [path.join(installed, 'dist/cli/main.js'), 'call', 'hello__greet', '{"who":"Ada"}'],
        { cwd: project, env: { ...process.env, NO_COLOR: '1' }, timeout: START_TIMEOUT_MS },
      );
      expect(stdout.trim()).toBe('Hello, Ada!');
    },
  );
});
