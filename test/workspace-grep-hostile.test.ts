// grep under hostile patterns and inputs, through the real host and an MCP client: linear-time matching (RE2),
// clear refusals for what RE2 does not take, long lines, and other calls served while a search runs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import workspacePlugin from '../src/plugins/workspace/index.js';
import { type Connected, connect, textOf } from './support/in-memory.js';

/** The attack: `(a+)+$` backtracks 2^n ways over n "a"s that end in a "b". */
const ATTACK_LINE = `${'a'.repeat(32)}b`;
/** Far past the 4096 characters grep searches of a line. */
const HUGE_LINE = `${'x'.repeat(100_000)}needle-after-the-cap`;

let dir: string;
let connected: Connected;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'foresight-grep-hostile-'));
  await writeFile(path.join(dir, 'attack.txt'), `${ATTACK_LINE}\n`);
  await writeFile(path.join(dir, 'huge.txt'), `needle-early ${HUGE_LINE}\n${HUGE_LINE}\nplain needle\n`);
  await writeFile(path.join(dir, 'mixed.txt'), 'Hello World\nhello world\nHELLO\nunrelated\n');
  // Enough lines that the search gives the event loop turns inside the file (each slice is a few ms).
  await writeFile(path.join(dir, 'big.txt'), `${'an ordinary line of source text\n'.repeat(200_000)}last\n`);
  connected = await connect({
    planner: { enabled: false },
    plugins: [{ plugin: workspacePlugin, options: { root: dir } }],
  });
});

afterAll(async () => {
  await connected.close();
  await rm(dir, { recursive: true, force: true });
});

const grep = async (args: Record<string, unknown>) =>
  (await connected.client.callTool({ name: 'workspace__grep', arguments: args })) as CallToolResult;

describe('grep under hostile input', () => {
  it('answers "no matches" for (a+)+$ over 32 "a"s and a "b", while a ping and another call are answered', async () => {
    const [attack, pong, other] = await Promise.all([
      grep({ pattern: '(a+)+$', path: 'attack.txt' }),
      connected.client.ping(),
      connected.client.callTool({ name: 'workspace__read_file', arguments: { path: 'mixed.txt' } }),
    ]);
    expect(attack.isError).toBeFalsy();
    expect(textOf(attack)).toBe('no matches for /(a+)+$/');
    expect(pong).toEqual({});
    expect(textOf(other)).toContain('Hello World');
  });

  it('still finds what the same nested pattern does match', async () => {
    const result = await grep({ pattern: '(a+)+b$', path: 'attack.txt' });
    expect(result.structuredContent).toMatchObject({ matches: [{ path: 'attack.txt', line: 1 }] });
  });

  it.each([
    ['(a)\\1', /backreferences and lookaround are not supported/],
    ['(?=x)', /backreferences and lookaround are not supported/],
    ['(?<!x)y', /backreferences and lookaround are not supported/],
    ['(unclosed', /missing closing \)/],
  ])('refuses %s with a clear error that says what grep takes', async (pattern, why) => {
    const result = await grep({ pattern });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain(`invalid pattern ${JSON.stringify(pattern)}`);
    expect(text).toMatch(why);
    expect(text).toContain('RE2 syntax');
  });

  it('searches only the first 4096 characters of a huge line, and the lines around it as usual', async () => {
    const early = await grep({ pattern: 'needle', path: 'huge.txt' });
    const lines = (early.structuredContent as { matches: { line: number; text: string }[] }).matches;
    // Line 1 has a match in its first characters; line 2's match lies past the cap; line 3 is short.
    expect(lines.map((m) => m.line)).toEqual([1, 3]);
    expect(lines[0]?.text.length).toBeLessThanOrEqual(501);
    expect(textOf(await grep({ pattern: 'needle-after-the-cap', path: 'huge.txt' }))).toBe(
      'no matches for /needle-after-the-cap/',
    );
  });

  it('matches regardless of case with ignore_case, and only exactly without it', async () => {
    const insensitive = await grep({ pattern: 'hello w', path: 'mixed.txt', ignore_case: true });
    expect(
      (insensitive.structuredContent as { matches: { line: number }[] }).matches.map((m) => m.line),
    ).toEqual([1, 2]);
    const sensitive = await grep({ pattern: 'hello w', path: 'mixed.txt' });
    expect(
      (sensitive.structuredContent as { matches: { line: number }[] }).matches.map((m) => m.line),
    ).toEqual([2]);
    expect(textOf(await grep({ pattern: '(?i)^hello$', path: 'mixed.txt' }))).toBe('mixed.txt:3:HELLO');
  });

  it('answers pings and other calls while it searches a large file', async () => {
    const search = grep({ pattern: '^last$', path: 'big.txt' });
    const [pong, other] = await Promise.all([
      connected.client.ping(),
      connected.client.callTool({ name: 'workspace__read_file', arguments: { path: 'mixed.txt' } }),
    ]);
    expect(pong).toEqual({});
    expect(textOf(other)).toContain('Hello World');
    expect((await search).structuredContent).toEqual({
      matches: [{ path: 'big.txt', line: 200_001, text: 'last' }],
      truncated: false,
    });
  });
});
