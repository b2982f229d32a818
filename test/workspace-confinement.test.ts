// The workspace plugin never reaches outside its root: "..", absolute paths and escaping links are refused.
import { describe, expect, it } from 'vitest';
import { textOf } from './support/in-memory.js';
import { requestContext, useWorkspaceTree } from './support/workspace-tree.js';

const workspace = useWorkspaceTree();
const { call } = workspace;

const outsideRoot = { code: 'E_PATH_OUTSIDE_ROOT', kind: 'invalid_input' };

describe('workspace confinement', () => {
  it.each(['../x', '../root/README.md', 'src/../../outside/secret.txt', 'src/../README.md'])(
    'refuses read_file of %s, which has a ".." segment',
    async (p) => {
      await expect(call('read_file', { path: p })).rejects.toMatchObject(outsideRoot);
    },
  );

  it('refuses absolute paths, even ones that name a file inside the root', async () => {
    await expect(call('read_file', { path: '/etc/passwd' })).rejects.toMatchObject(outsideRoot);
    await expect(call('read_file', { path: `${workspace.tree.root}/README.md` })).rejects.toMatchObject(
      outsideRoot,
    );
  });

  it('refuses a symlink that leaves the root, without revealing what it points at', async () => {
    const refusal = call('read_file', { path: 'link-out.txt' });
    await expect(refusal).rejects.toMatchObject(outsideRoot);
    await expect(refusal).rejects.not.toThrow(/secret/);
  });

  it('says "outside", not "not found", for a missing path under an escaping link', async () => {
    await expect(call('read_file', { path: 'link-out-dir/secret.txt' })).rejects.toMatchObject(outsideRoot);
    await expect(call('read_file', { path: 'link-out-dir/no-such-file' })).rejects.toMatchObject(outsideRoot);
    await expect(call('list_directory', { path: 'link-out-dir' })).rejects.toMatchObject(outsideRoot);
  });

  it('reports a plain missing path inside the root as not found', async () => {
    await expect(call('read_file', { path: 'src/missing.ts' })).rejects.toMatchObject({
      code: 'E_PATH_NOT_FOUND',
      kind: 'not_found',
    });
  });

  it('follows symlinks that stay inside the root', async () => {
    const viaLink = textOf(await call('read_file', { path: 'link-in.ts' }));
    expect(viaLink).toContain('export const answer');
    const listing = await call('list_directory', { path: 'link-dir' });
    expect(textOf(listing)).toContain('util.ts');
  });

  it('refuses escaping search roots and patterns in glob and grep', async () => {
    await expect(call('glob', { pattern: '*', path: '..' })).rejects.toMatchObject(outsideRoot);
    await expect(call('glob', { pattern: '../outside/*' })).rejects.toMatchObject(outsideRoot);
    await expect(call('glob', { pattern: '/etc/*' })).rejects.toMatchObject(outsideRoot);
    await expect(call('glob', { pattern: 'link-out-dir/*' })).rejects.toMatchObject(outsideRoot);
    await expect(call('grep', { pattern: 'TODO', path: '/etc' })).rejects.toMatchObject(outsideRoot);
    await expect(call('grep', { pattern: 'TODO', path: 'link-out-dir' })).rejects.toMatchObject(outsideRoot);
  });

  it('never returns content from outside the root in a walk', async () => {
    const result = await call('grep', { pattern: 'secret' });
    expect(result.structuredContent).toEqual({ matches: [], truncated: false });
  });

  it('refuses escaping resource URIs, percent-encoded or not', async () => {
    const { provider } = workspace;
    const ctx = requestContext();
    await expect(provider.readResource!('file/../outside/secret.txt', ctx)).rejects.toMatchObject(
      outsideRoot,
    );
    await expect(provider.readResource!('file/..%2Foutside%2Fsecret.txt', ctx)).rejects.toMatchObject(
      outsideRoot,
    );
    await expect(provider.readResource!('file/%2Fetc%2Fpasswd', ctx)).rejects.toMatchObject(outsideRoot);
    await expect(provider.readResource!('file/link-out.txt', ctx)).rejects.toMatchObject(outsideRoot);
  });
});
