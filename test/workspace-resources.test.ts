// The file/{path} resource template: reading with a MIME type guess, and path completion for its argument.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompletionRequest } from '../src/contract/index.js';
import { requestContext, useWorkspaceTree } from './support/workspace-tree.js';

const workspace = useWorkspaceTree({
  async setup(tree) {
    await mkdir(path.join(tree.root, 'many'));
    for (let i = 0; i < 120; i++)
      await writeFile(path.join(tree.root, 'many', `f${String(i).padStart(3, '0')}.txt`), '');
  },
});

const ctx = () => requestContext();
const readResource = (uri: string) => workspace.provider.readResource!(uri, ctx());
const completePathOf = (value: string, uri = 'file/{path}') =>
  workspace.provider.complete!(
    { ref: { type: 'ref/resource', uri }, argument: { name: 'path', value } },
    ctx(),
  );

describe('workspace file resources', () => {
  it('publishes the local template file/{path}', () => {
    expect(workspace.provider.resourceTemplates!()).toEqual([
      expect.objectContaining({ uriTemplate: 'file/{path}', name: 'file' }),
    ]);
  });

  it('reads a text file with a MIME type guess, slashes plain or percent-encoded', async () => {
    const plain = await readResource('file/src/util.ts');
    expect(plain.contents).toEqual([
      {
        uri: 'file/src/util.ts',
        mimeType: 'text/x-typescript',
        text: 'export function helper(n: number): number {\n  return n + 1; // todo lower case\n}\n',
      },
    ]);
    const encoded = await readResource('file/src%2Fdeep%2Fnested.ts');
    expect(encoded.contents[0]).toMatchObject({
      mimeType: 'text/x-typescript',
      text: expect.stringContaining('gamma'),
    });
    expect((await readResource('file/README.md')).contents[0]).toMatchObject({
      mimeType: 'text/markdown',
    });
  });

  it('returns a small binary file as a base64 blob', async () => {
    const result = await readResource('file/image.png');
    const content = result.contents[0] as { mimeType?: string; blob?: string };
    expect(content.mimeType).toBe('image/png');
    expect(Buffer.from(content.blob ?? '', 'base64')[0]).toBe(0x89);
  });

  it('answers not found for missing files and for URIs outside the template', async () => {
    await expect(readResource('file/nope.txt')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(readResource('dir/src')).rejects.toMatchObject({
      code: 'E_RESOURCE_NOT_FOUND',
    });
    await expect(readResource('file/src')).rejects.toMatchObject({ code: 'E_NOT_A_FILE' });
  });
});

describe('workspace path completion', () => {
  it('completes names in the root, directories with a trailing slash, ignored and escaping entries left out', async () => {
    expect(await completePathOf('')).toEqual({
      values: [
        '.gitignore',
        'README.md',
        'empty.txt',
        'image.png',
        'keep.log',
        'link-dir/',
        'link-in.ts',
        'many/',
        'numbered.txt',
        'src/',
      ],
      total: 10,
      hasMore: false,
    });
  });

  it('completes by prefix inside the typed directory', async () => {
    expect(await completePathOf('src/')).toEqual({
      values: ['src/.gitignore', 'src/deep/', 'src/index.ts', 'src/util.ts'],
      total: 4,
      hasMore: false,
    });
    expect(await completePathOf('src/deep/n')).toEqual({
      values: ['src/deep/nested.ts'],
      total: 1,
      hasMore: false,
    });
    expect(await completePathOf('li')).toEqual({
      values: ['link-dir/', 'link-in.ts'],
      total: 2,
      hasMore: false,
    });
  });

  it('caps at 100 values and reports the total', async () => {
    const result = await completePathOf('many/f');
    expect(result.values).toHaveLength(100);
    expect(result.values[0]).toBe('many/f000.txt');
    expect(result).toMatchObject({ total: 120, hasMore: true });
  });

  it('has no completions under a missing directory, and refuses escaping prefixes', async () => {
    expect(await completePathOf('nope/x')).toEqual({ values: [], total: 0, hasMore: false });
    await expect(completePathOf('../')).rejects.toMatchObject({ code: 'E_PATH_OUTSIDE_ROOT' });
    await expect(completePathOf('/etc/')).rejects.toMatchObject({ code: 'E_PATH_OUTSIDE_ROOT' });
    await expect(completePathOf('link-out-dir/')).rejects.toMatchObject({ code: 'E_PATH_OUTSIDE_ROOT' });
  });

  it('refuses references that are not its template', async () => {
    await expect(completePathOf('', 'dir/{path}')).rejects.toMatchObject({ code: 'E_COMPLETION_REF' });
    const prompt: CompletionRequest = {
      ref: { type: 'ref/prompt', name: 'x' },
      argument: { name: 'a', value: '' },
    };
    await expect(workspace.provider.complete!(prompt, ctx())).rejects.toMatchObject({
      code: 'E_COMPLETION_REF',
    });
  });
});
