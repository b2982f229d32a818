// list_directory: entries with type and size, ignored entries hidden (and counted) unless asked for.
import { describe, expect, it } from 'vitest';
import { textOf } from './support/in-memory.js';
import { TREE_FILES, useWorkspaceTree } from './support/workspace-tree.js';

const { call, callChecked } = useWorkspaceTree();

function sizeOf(rel: string): number {
  const content = TREE_FILES[rel];
  if (content === undefined) throw new Error(`${rel} is not in the fixture`);
  return Buffer.byteLength(content);
}

const list = (args: Record<string, unknown>) => callChecked('list_directory', args);

describe('workspace list_directory', () => {
  it('lists the root with types and file sizes, hiding ignored entries', async () => {
    const result = await list({});
    expect(result.structuredContent).toEqual({
      path: '.',
      entries: [
        { name: '.gitignore', path: '.gitignore', type: 'file', size: sizeOf('.gitignore') },
        { name: 'README.md', path: 'README.md', type: 'file', size: sizeOf('README.md') },
        { name: 'empty.txt', path: 'empty.txt', type: 'file', size: sizeOf('empty.txt') },
        { name: 'image.png', path: 'image.png', type: 'file', size: sizeOf('image.png') },
        { name: 'keep.log', path: 'keep.log', type: 'file', size: sizeOf('keep.log') },
        { name: 'link-dir', path: 'link-dir', type: 'symlink' },
        { name: 'link-in.ts', path: 'link-in.ts', type: 'symlink' },
        { name: 'link-out-dir', path: 'link-out-dir', type: 'symlink' },
        { name: 'link-out.txt', path: 'link-out.txt', type: 'symlink' },
        { name: 'numbered.txt', path: 'numbered.txt', type: 'file', size: sizeOf('numbered.txt') },
        { name: 'src', path: 'src', type: 'dir' },
      ],
      // .git, node_modules, dist/ and debug.log
      ignored: 4,
      truncated: false,
    });
    const text = textOf(result);
    expect(text).toContain('\nsrc/\n');
    expect(text).toContain(`\nREADME.md (${sizeOf('README.md')} bytes)\n`);
    expect(text).toContain('\nlink-in.ts@ (symlink)\n');
    expect(text).toContain(
      '[4 ignored entries hidden (.git, node_modules, .gitignore); pass include_ignored: true]',
    );
  });

  it('shows ignored entries when include_ignored is true', async () => {
    const result = await list({ include_ignored: true });
    const names = (result.structuredContent as { entries: { name: string }[] }).entries.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['.git', 'node_modules', 'dist', 'debug.log']));
    expect(result.structuredContent).toMatchObject({ ignored: 0 });
  });

  it('applies nested .gitignore files to subdirectories', async () => {
    const src = await list({ path: 'src' });
    expect((src.structuredContent as { entries: { name: string }[] }).entries.map((e) => e.name)).toEqual([
      '.gitignore',
      'deep',
      'index.ts',
      'util.ts',
    ]);
    const deep = await list({ path: 'src/deep' });
    expect((deep.structuredContent as { entries: { path: string }[] }).entries.map((e) => e.path)).toEqual([
      'src/deep/.gitignore',
      'src/deep/generated.ts',
      'src/deep/nested.ts',
    ]);
  });

  it('truncates at max_results', async () => {
    const result = await list({ max_results: 2 });
    expect(result.structuredContent).toMatchObject({
      entries: [{ name: '.gitignore' }, { name: 'README.md' }],
      truncated: true,
    });
    expect(textOf(result)).toContain('[truncated: first 2 entries shown; raise max_results]');
  });

  it('refuses a file', async () => {
    await expect(call('list_directory', { path: 'README.md' })).rejects.toMatchObject({
      code: 'E_NOT_A_DIRECTORY',
    });
  });
});
