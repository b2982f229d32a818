// grep: RE2 patterns over text files, with context, max results, binary skipping and the same ignores as glob.
import { describe, expect, it } from 'vitest';
import { textOf } from './support/in-memory.js';
import { useWorkspaceTree } from './support/workspace-tree.js';

const { call, callChecked } = useWorkspaceTree();
const grep = (args: Record<string, unknown>) => callChecked('grep', args);

describe('workspace grep', () => {
  it('finds matches only in non-ignored text files and prints path:line:text', async () => {
    const result = await grep({ pattern: 'TODO' });
    expect(result.structuredContent).toEqual({
      matches: [
        { path: 'link-in.ts', line: 2, text: '// TODO: wire the host' },
        { path: 'src/deep/generated.ts', line: 1, text: 'export const TODO_DEEP = true;' },
        { path: 'src/deep/nested.ts', line: 3, text: 'gamma TODO' },
        { path: 'src/deep/nested.ts', line: 6, text: 'zeta TODO' },
        { path: 'src/index.ts', line: 2, text: '// TODO: wire the host' },
      ],
      truncated: false,
    });
    expect(textOf(result)).toBe(
      [
        'link-in.ts:2:// TODO: wire the host',
        'src/deep/generated.ts:1:export const TODO_DEEP = true;',
        'src/deep/nested.ts:3:gamma TODO',
        'src/deep/nested.ts:6:zeta TODO',
        'src/index.ts:2:// TODO: wire the host',
      ].join('\n'),
    );
  });

  it('skips binary files even when their bytes match', async () => {
    // image.png holds the bytes "TODO" after a NUL; a text search must not report it.
    const result = await grep({ pattern: 'TODO', path: 'image.png' });
    expect(result.structuredContent).toEqual({ matches: [], truncated: false });
  });

  it('uses the pattern as a regular expression (RE2 syntax), case-sensitive unless asked', async () => {
    const sensitive = await grep({ pattern: '^\\s+return n \\+ \\d; // todo', path: 'src' });
    expect(sensitive.structuredContent).toEqual({
      matches: [{ path: 'src/util.ts', line: 2, text: '  return n + 1; // todo lower case' }],
      truncated: false,
    });
    const insensitive = await grep({ pattern: 'todo', ignore_case: true, glob: '*.ts', path: 'src' });
    expect((insensitive.structuredContent as { matches: { path: string; line: number }[] }).matches).toEqual([
      expect.objectContaining({ path: 'src/deep/generated.ts', line: 1 }),
      expect.objectContaining({ path: 'src/deep/nested.ts', line: 3 }),
      expect.objectContaining({ path: 'src/deep/nested.ts', line: 6 }),
      expect.objectContaining({ path: 'src/index.ts', line: 2 }),
      expect.objectContaining({ path: 'src/util.ts', line: 2 }),
    ]);
  });

  it('adds context lines, merging overlaps and separating groups with "--"', async () => {
    const result = await grep({ pattern: 'TODO', path: 'src/deep/nested.ts', context: 2 });
    expect(result.structuredContent).toEqual({
      matches: [
        {
          path: 'src/deep/nested.ts',
          line: 3,
          text: 'gamma TODO',
          before: ['alpha', 'beta'],
          after: ['delta', 'epsilon'],
        },
        {
          path: 'src/deep/nested.ts',
          line: 6,
          text: 'zeta TODO',
          before: ['delta', 'epsilon'],
          after: ['eta'],
        },
      ],
      truncated: false,
    });
    expect(textOf(result)).toBe(
      [
        'src/deep/nested.ts-1-alpha',
        'src/deep/nested.ts-2-beta',
        'src/deep/nested.ts:3:gamma TODO',
        'src/deep/nested.ts-4-delta',
        'src/deep/nested.ts-5-epsilon',
        'src/deep/nested.ts:6:zeta TODO',
        'src/deep/nested.ts-7-eta',
      ].join('\n'),
    );
    const apart = await grep({ pattern: '^(alpha|eta)$', path: 'src/deep/nested.ts', context: 1 });
    expect(textOf(apart)).toBe(
      [
        'src/deep/nested.ts:1:alpha',
        'src/deep/nested.ts-2-beta',
        '--',
        'src/deep/nested.ts-6-zeta TODO',
        'src/deep/nested.ts:7:eta',
      ].join('\n'),
    );
  });

  it('filters files with a glob and stops at max_results with truncated: true', async () => {
    const filtered = await grep({ pattern: 'TODO', glob: 'deep/*.ts', path: 'src' });
    expect((filtered.structuredContent as { matches: unknown[] }).matches).toHaveLength(3);
    const capped = await grep({ pattern: 'line \\d+', path: 'numbered.txt', max_results: 3 });
    expect(capped.structuredContent).toEqual({
      matches: [
        { path: 'numbered.txt', line: 1, text: 'line 1' },
        { path: 'numbered.txt', line: 2, text: 'line 2' },
        { path: 'numbered.txt', line: 3, text: 'line 3' },
      ],
      truncated: true,
    });
    expect(textOf(capped)).toMatch(/\[truncated: stopped after 3 matches/);
  });

  it('refuses an invalid regular expression with the pattern in the message', async () => {
    await expect(call('grep', { pattern: '(unclosed' })).rejects.toMatchObject({
      code: 'E_BAD_PATTERN',
      message: expect.stringContaining('"(unclosed"'),
    });
  });

  it('says so when nothing matches', async () => {
    expect(textOf(await grep({ pattern: 'no-such-token-anywhere' }))).toBe(
      'no matches for /no-such-token-anywhere/',
    );
  });
});
