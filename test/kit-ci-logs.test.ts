// The kit's CI job logs, on their own: cleaning, the agent's pattern and query, paging from the head or the tail,
// searching with merged context, and the caps on lines, characters and line length.
import { describe, expect, it } from 'vitest';
import {
  MAX_LOG_CHARS,
  compilePattern,
  jobIdArg,
  logLines,
  logQuery,
  renderJobLog,
} from '../src/plugins/kit/index.js';

const ESC = '\u001b';
const search = (
  lines: string[],
  pattern: string,
  options: { offset?: number; limit?: number; context?: number },
) =>
  renderJobLog(
    lines,
    {
      pattern: compilePattern(pattern),
      contextLines: options.context ?? 0,
      limit: options.limit ?? 100,
      ...(options.offset === undefined ? {} : { offset: options.offset }),
    },
    { label: 'job 1' },
  );
const body = (answer: string) => answer.split('\n').slice(2);

describe('logLines', () => {
  it('drops colour codes and line ends, and a final newline ends the last line', () => {
    expect(logLines(`${ESC}[31;1mred${ESC}[0;m\r\n${ESC}[0Kplain\n`)).toEqual(['red', 'plain']);
  });

  it('keeps the last state of a line rewritten by \\r, as a terminal shows it', () => {
    expect(logLines('Downloading 10%\rDownloading 55%\rDownloading 100%\ndone')).toEqual([
      'Downloading 100%',
      'done',
    ]);
  });

  it('takes out what the provider adds, after the escape codes', () => {
    const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/gm;
    expect(logLines('2024-05-01T10:00:00.1234567Z a\n2024-05-01T10:00:01Z b\n', [timestamp])).toEqual([
      'a',
      'b',
    ]);
    const section = /section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]]*\])?\r?/g;
    expect(logLines(`section_start:1700000000:build[collapsed=true]\r${ESC}[0KBuilding`, [section])).toEqual([
      'Building',
    ]);
  });
});

describe('the agent’s query', () => {
  it('is smart about case: an upper-case letter makes it exact, an escape does not', () => {
    expect(compilePattern('error').flags).toBe('i');
    expect(compilePattern('Error').flags).toBe('');
    expect(compilePattern('\\S+ failed').flags).toBe('i');
  });

  it('refuses a bad or overlong pattern with the reason', () => {
    expect(() => compilePattern('(unclosed')).toThrow(
      'parameter "pattern" is "(unclosed", which is not a valid regular expression (Invalid regular expression: /(unclosed/i: Unterminated group)',
    );
    expect(() => compilePattern('x'.repeat(501))).toThrow(
      'parameter "pattern" is 501 characters long; at most 500 are allowed',
    );
    expect(() => logQuery({ job_id: '1', pattern: '[' })).toThrow('not a valid regular expression');
  });

  it('reads the defaults, and leaves the offset out when the agent did', () => {
    expect(logQuery({ job_id: '1' })).toEqual({ contextLines: 5, limit: 200 });
    expect(logQuery({ offset: 0, limit: 3, context_lines: 1, pattern: 'x' })).toEqual({
      pattern: /x/i,
      contextLines: 1,
      offset: 0,
      limit: 3,
    });
  });

  it('takes a positive numeric job id, as a string or a number', () => {
    expect(jobIdArg(' 502 ')).toBe(502);
    expect(jobIdArg(7)).toBe(7);
    for (const bad of ['lint', '0', '', '12a', -3, undefined]) {
      expect(() => jobIdArg(bad)).toThrow('a job id is a number, as get_pipeline lists it');
    }
  });
});

describe('searching a log', () => {
  const lines = ['a', 'hit 1', 'b', 'hit 2', 'c', 'd', 'e', 'hit 3'];

  it('merges overlapping context and separates groups with --', () => {
    const answer = search(lines, 'hit', { context: 1 });
    expect(answer.split('\n')[0]).toBe(
      'Log of job 1, 8 lines; 3 lines match /hit/i, shown with 1 line of context.',
    );
    expect(body(answer)).toEqual(['1- a', '2: hit 1', '3- b', '4: hit 2', '5- c', '--', '7- e', '8: hit 3']);
  });

  it('searches after `offset`, with no context before it, and says when nothing matches', () => {
    expect(search(lines, 'hit', { offset: 4, context: 3 })).toBe(
      'Log of job 1, 8 lines; 1 line after line 4 match /hit/i, shown with 3 lines of context.\n\n5- c\n6- d\n7- e\n8: hit 3',
    );
    expect(search(lines, 'nothing', { context: 2 })).toBe(
      'The log of job 1 has 8 lines; none matches /nothing/i.',
    );
  });

  it('keeps a window whole for the next call rather than cut it, and says where to search on', () => {
    const answer = search(lines, 'hit', { context: 1, limit: 6 });
    expect(answer.split('\n')[0]).toBe(
      'Log of job 1, 8 lines; 3 lines match /hit/i. Showing the first 2 with 1 line of context; call again with offset=6 to search on from line 7.',
    );
    expect(body(answer)).toEqual(['1- a', '2: hit 1', '3- b', '4: hit 2', '5- c']);
  });

  it('cuts the first window when even it does not fit, and goes on from where it stopped', () => {
    const all = Array.from({ length: 50 }, (_, i) => `hit ${i + 1}`);
    const answer = search(all, 'hit', { limit: 10 });
    expect(answer.split('\n')[0]).toContain(
      'Showing the first 10 with 0 lines of context; call again with offset=10',
    );
    expect(body(answer)).toHaveLength(10);
  });

  it('reads a long line whole but shows it cut', () => {
    const answer = search([`${'z'.repeat(2500)} needle`], 'needle', {});
    expect(body(answer)[0]?.endsWith(`${'z'.repeat(10)} [… 507 more characters]`)).toBe(true);
  });
});

describe('paging a log', () => {
  const lines = ['a', 'b', 'c', 'd', 'e'];
  const page = (
    query: { offset?: number; limit: number },
    unpaged: 'head' | 'tail' = 'head',
    skippedBytes = 0,
  ) => renderJobLog(lines, { contextLines: 0, ...query }, { label: 'job 1', unpaged, skippedBytes });

  it('pages from the head, and says how to go on', () => {
    expect(page({ limit: 2 })).toBe(
      'Log of job 1, lines 1–2 of 5. Call again with offset=2 for the next lines; the last 2 lines start at offset=3.\n\n1: a\n2: b',
    );
    expect(page({ offset: 3, limit: 5 })).toBe('Log of job 1, lines 4–5 of 5 (the end).\n\n4: d\n5: e');
  });

  it('without an offset, a tail page shows the last lines and says the first are left out', () => {
    expect(page({ limit: 2 }, 'tail')).toBe(
      'Log of job 1, lines 4–5 of 5 (the end). Lines 1–3 are not shown; call again with offset=0, or with a pattern, for them.\n\n4: d\n5: e',
    );
    expect(page({ offset: 0, limit: 2 }, 'tail').split('\n')[0]).toMatch(/^Log of job 1, lines 1–2 of 5\./);
  });

  it('says when a page starts past the end, when the log is empty, and when only its tail was read', () => {
    expect(page({ offset: 5, limit: 200 })).toBe(
      'The log of job 1 has 5 lines; offset=5 is past its end (the last page starts at offset=0).',
    );
    expect(renderJobLog([], { contextLines: 0, limit: 10 }, { label: 'job 1', unpaged: 'tail' })).toBe(
      'The log of job 1 is empty.',
    );
    expect(page({ limit: 5 }, 'head', 3000).split('\n')[0]).toBe(
      'Log of job 1, lines 1–5 of 5 (the end). The log is longer: its first 3 KB were not read, and line numbers count from what was kept.',
    );
  });

  it('never shows more than the character cap, and the tail keeps the newest lines under it', () => {
    const long = Array.from({ length: 1000 }, (_, i) => `${i + 1} ${'y'.repeat(1500)}`);
    const fromHead = renderJobLog(long, { contextLines: 0, offset: 0, limit: 1000 }, { label: 'job 1' });
    const fromTail = renderJobLog(
      long,
      { contextLines: 0, limit: 1000 },
      { label: 'job 1', unpaged: 'tail' },
    );
    for (const answer of [fromHead, fromTail]) {
      expect(body(answer).join('\n').length).toBeLessThanOrEqual(MAX_LOG_CHARS);
    }
    expect(fromHead.split('\n')[0]).toMatch(
      /^Log of job 1, lines 1–13\d of 1000\. Call again with offset=13\d/,
    );
    expect(fromTail.split('\n')[0]).toMatch(
      /^Log of job 1, lines 8\d\d–1000 of 1000 \(the end\)\. Lines 1–8\d\d are not shown/,
    );
    expect(body(fromTail).at(-1)).toMatch(/^1000: 1000 y/);
  });
});
