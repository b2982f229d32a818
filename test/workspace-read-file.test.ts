// read_file: whole files, 1-based line ranges, the byte cap with its "ask for lines N-M" hint, binary refusal.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PluginProvider } from '../src/contract/index.js';
import { textOf } from './support/in-memory.js';
import { buildProvider, NUMBERED, requestContext, useWorkspaceTree } from './support/workspace-tree.js';

const workspace = useWorkspaceTree({
  async setup(tree) {
    await writeFile(path.join(tree.root, 'long.txt'), NUMBERED.repeat(4));
    await writeFile(path.join(tree.root, 'one-line.txt'), `${'€'.repeat(700)}\nsecond\n`);
    await writeFile(path.join(tree.root, 'crlf.txt'), 'a\r\nb\r\nc');
  },
});
const { call } = workspace;
/** The smallest cap the options allow, which long.txt (four copies of NUMBERED) overflows. */
let small: PluginProvider;

beforeAll(async () => {
  small = await buildProvider({ root: workspace.tree.root, max_read_bytes: 1024 });
});

const read = (args: Record<string, unknown>) => call('read_file', args).then(textOf);
const readSmall = (args: Record<string, unknown>) =>
  small.callTool('read_file', args, requestContext()).then(textOf);

describe('workspace read_file', () => {
  it('returns a whole text file verbatim', async () => {
    expect(await read({ path: 'numbered.txt' })).toBe(NUMBERED);
    expect(await read({ path: './src//util.ts' })).toContain('export function helper');
    expect(await read({ path: 'crlf.txt' })).toBe('a\r\nb\r\nc');
  });

  it('returns an inclusive, 1-based line range', async () => {
    expect(await read({ path: 'numbered.txt', start_line: 3, end_line: 5 })).toBe('line 3\nline 4\nline 5\n');
    expect(await read({ path: 'numbered.txt', start_line: 63 })).toBe('line 63\nline 64\n');
    expect(await read({ path: 'numbered.txt', end_line: 1 })).toBe('line 1\n');
    expect(await read({ path: 'crlf.txt', start_line: 3 })).toBe('c');
    // An end past the last line is the end of the file, not an error.
    expect(await read({ path: 'numbered.txt', start_line: 64, end_line: 1000 })).toBe('line 64\n');
  });

  it('cuts at max_read_bytes on a line boundary and names the lines to ask for next', async () => {
    const text = await readSmall({ path: 'long.txt' });
    const [body, hint] = text.split('\n\n');
    // One copy of NUMBERED is 9 x 7 + 55 x 8 = 503 bytes: two copies and "line 1\n" + "line 2\n" make 1020,
    // and "line 3\n" would pass 1024.
    expect(body).toBe(NUMBERED.repeat(2) + 'line 1\nline 2');
    expect(hint).toBe(
      '[truncated: this shows lines 1-130 of 256, the 1024-byte limit; ' +
        'ask for lines 131-256 (read_file with start_line: 131, end_line: 256) to read on]',
    );
    const next = await readSmall({ path: 'long.txt', start_line: 131, end_line: 133 });
    expect(next).toBe('line 3\nline 4\nline 5\n');
  });

  it('bounds the hint by the end_line asked for', async () => {
    const text = await readSmall({ path: 'long.txt', start_line: 10, end_line: 200 });
    expect(text).toMatch(/ask for lines \d+-200 \(read_file with start_line: \d+, end_line: 200\)/);
  });

  it('cuts a single line longer than the limit at a character boundary, and says so', async () => {
    const text = await readSmall({ path: 'one-line.txt' });
    const [body, hint] = text.split('\n\n');
    // '€' is 3 bytes: 341 of them fill 1023 bytes, and the 342nd would be cut in half.
    expect(body).toBe('€'.repeat(341));
    expect(hint).toBe(
      '[truncated: line 1 is longer than the 1024-byte limit and was cut short; ' +
        'ask for lines 2-2 (read_file with start_line: 2, end_line: 2) to read on]',
    );
  });

  it('refuses binary files with a clear error', async () => {
    await expect(call('read_file', { path: 'image.png' })).rejects.toMatchObject({
      code: 'E_BINARY_FILE',
      message: '"image.png" looks binary; read_file only returns text',
    });
  });

  it('refuses directories, ranges past the end and inverted ranges', async () => {
    const ctx = requestContext();
    await expect(call('read_file', { path: 'src' }, ctx)).rejects.toMatchObject({
      code: 'E_NOT_A_FILE',
    });
    await expect(call('read_file', { path: 'numbered.txt', start_line: 65 }, ctx)).rejects.toMatchObject({
      code: 'E_LINE_OUT_OF_RANGE',
      message: 'start_line 65 is past the end of "numbered.txt", which has 64 lines',
    });
    await expect(
      call('read_file', { path: 'numbered.txt', start_line: 5, end_line: 4 }, ctx),
    ).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENTS' });
    await expect(call('read_file', { path: 'numbered.txt', start_line: 0 }, ctx)).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENTS',
      message: expect.stringContaining('start_line'),
    });
  });

  it('reads an empty file as empty text', async () => {
    expect(await read({ path: 'empty.txt' })).toBe('');
    expect(await read({ path: 'empty.txt', start_line: 1 })).toBe('');
    // One empty text block: textOf alone would also give '' for a result with no text block at all.
    for (const args of [{ path: 'empty.txt' }, { path: 'empty.txt', start_line: 1 }]) {
      expect((await call('read_file', args)).content).toEqual([{ type: 'text', text: '' }]);
    }
  });
});
