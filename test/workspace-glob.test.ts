// glob: picomatch patterns over an ignore-aware walk (.git, node_modules, nested .gitignore files).
import { describe, expect, it } from 'vitest';
import { textOf } from './support/in-memory.js';
import { requestContext, useWorkspaceTree } from './support/workspace-tree.js';

const { call, callChecked } = useWorkspaceTree();
const glob = (args: Record<string, unknown>) => callChecked('glob', args);

describe('workspace glob', () => {
  it('lists every non-ignored file, in path order, honouring nested .gitignore files', async () => {
    const result = await glob({ pattern: '**' });
    expect(result.structuredContent).toEqual({
      paths: [
        '.gitignore',
        'README.md',
        'empty.txt',
        'image.png',
        'keep.log',
        'link-in.ts',
        'numbered.txt',
        'src/.gitignore',
        'src/deep/.gitignore',
        'src/deep/generated.ts',
        'src/deep/nested.ts',
        'src/index.ts',
        'src/util.ts',
      ],
      truncated: false,
    });
    // Spelled out, since these are the rules under test: always-ignored names, root rules, a nested rule,
    // a root negation, a deeper negation, links that leave the root and linked directories.
    const paths = textOf(result).split('\n');
    for (const hidden of ['.git/config', 'node_modules/pkg/index.js', 'dist/bundle.js', 'debug.log']) {
      expect(paths).not.toContain(hidden);
    }
    expect(paths).not.toContain('src/generated.ts');
    expect(paths).toContain('keep.log');
    expect(paths).toContain('src/deep/generated.ts');
    expect(paths).not.toContain('link-out.txt');
    expect(paths.some((p) => p.startsWith('link-dir/') || p.startsWith('link-out-dir/'))).toBe(false);
  });

  it('matches the pattern relative to `path` and returns root-relative paths', async () => {
    const result = await glob({ pattern: '*.ts', path: 'src' });
    expect(result.structuredContent).toEqual({ paths: ['src/index.ts', 'src/util.ts'], truncated: false });
    const deep = await glob({ pattern: '**/*.ts', path: 'src' });
    expect(deep.structuredContent).toMatchObject({
      paths: ['src/deep/generated.ts', 'src/deep/nested.ts', 'src/index.ts', 'src/util.ts'],
    });
  });

  it('keeps "*.ts" at the top level, as glob syntax says', async () => {
    const result = await glob({ pattern: '*.ts' });
    expect(result.structuredContent).toEqual({ paths: ['link-in.ts'], truncated: false });
  });

  it('supports braces and a literal prefix that names a file', async () => {
    expect((await glob({ pattern: '{README.md,keep.log}' })).structuredContent).toEqual({
      paths: ['README.md', 'keep.log'],
      truncated: false,
    });
    expect((await glob({ pattern: 'src/util.ts' })).structuredContent).toEqual({
      paths: ['src/util.ts'],
      truncated: false,
    });
  });

  it('walks into a linked directory that stays inside the root when it is the search path', async () => {
    const result = await glob({ pattern: '*.ts', path: 'link-dir' });
    expect(result.structuredContent).toEqual({
      paths: ['link-dir/index.ts', 'link-dir/util.ts'],
      truncated: false,
    });
  });

  it('stops at max_results and says so', async () => {
    const result = await glob({ pattern: '**/*.ts', max_results: 2 });
    expect(result.structuredContent).toEqual({
      paths: ['link-in.ts', 'src/deep/generated.ts'],
      truncated: true,
    });
    expect(textOf(result)).toMatch(/\[truncated: first 2 matches shown/);
  });

  it('answers a clear text when nothing matches, including under a missing prefix', async () => {
    expect(textOf(await glob({ pattern: '**/*.rs' }))).toBe('no files match "**/*.rs"');
    expect((await glob({ pattern: 'nope/**' })).structuredContent).toEqual({ paths: [], truncated: false });
  });

  it('refuses a file as the search directory', async () => {
    await expect(call('glob', { pattern: '*', path: 'README.md' })).rejects.toMatchObject({
      code: 'E_NOT_A_DIRECTORY',
    });
  });

  it('stops walking once the request is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    await expect(call('glob', { pattern: '**' }, requestContext(controller.signal))).rejects.toThrow(
      'deadline',
    );
  });

  it('rejects arguments outside the schema with a message naming the key', async () => {
    const ctx = requestContext();
    await expect(call('glob', { pattern: '*', recursive: true }, ctx)).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENTS',
      message: expect.stringContaining('recursive'),
    });
    await expect(call('glob', { pattern: '*', max_results: 0 }, ctx)).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENTS',
      message: expect.stringContaining('max_results'),
    });
  });
});
