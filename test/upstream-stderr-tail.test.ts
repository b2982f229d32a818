// What Foresight keeps of a spawned server's stderr: the last lines, each and all bounded, with the secrets the
// server was given cut out however the output is split into chunks or lines are cut, and its exit unless
// Foresight ended it.
import { describe, expect, it } from 'vitest';
import {
  STDERR_LINE_MAX_CHARS,
  STDERR_TAIL_LINES,
  STDERR_TAIL_MAX_CHARS,
  StderrTail,
} from '../src/plugins/upstream/stderr-tail.js';

const SECRET = 'tail-secret-91f3c2';

describe('the stderr tail of a spawned server', () => {
  it('keeps the last lines, skipping blank ones, and returns each line as it completes', () => {
    const tail = new StderrTail();
    const written = Array.from({ length: STDERR_TAIL_LINES + 5 }, (_, i) => `line ${i}`);
    expect(tail.write(`${written.join('\n')}\n\n\r\n`)).toEqual(written);
    expect(tail.lines()).toEqual(written.slice(-STDERR_TAIL_LINES));
  });

  it('joins a line written in pieces, and shows an unfinished last line', () => {
    const tail = new StderrTail();
    expect(tail.write('Error: none of the dir')).toEqual([]);
    expect(tail.lines()).toEqual(['Error: none of the dir']);
    expect(tail.write(Buffer.from('ectories is accessible ✓\r\nnext'))).toEqual([
      'Error: none of the directories is accessible ✓',
    ]);
    expect(tail.lines()).toEqual(['Error: none of the directories is accessible ✓', 'next']);
  });

  it('cuts a long line and bounds the total', () => {
    const tail = new StderrTail();
    const [line] = tail.write(`${'x'.repeat(STDERR_LINE_MAX_CHARS * 10)}\n`);
    expect(line).toHaveLength(STDERR_LINE_MAX_CHARS);
    expect(line?.endsWith('…')).toBe(true);
    for (let i = 0; i < STDERR_TAIL_LINES; i += 1) tail.write(`${String(i).repeat(STDERR_LINE_MAX_CHARS)}\n`);
    expect(tail.lines().join('').length).toBeLessThanOrEqual(STDERR_TAIL_MAX_CHARS);
    expect(
      tail
        .lines()
        .at(-1)
        ?.startsWith(String(STDERR_TAIL_LINES - 1)),
    ).toBe(true);
  });

  it('removes terminal colour codes', () => {
    const tail = new StderrTail();
    expect(tail.write('\u001b[31mError:\u001b[0m it failed\n')).toEqual(['Error: it failed']);
  });

  it('redacts the secrets it was given, split across chunks, in colour, or cut at the line cap', () => {
    const tail = new StderrTail([SECRET]);
    tail.write(`token=${SECRET.slice(0, 7)}`);
    // Unfinished: the start of the secret written so far is not shown.
    expect(tail.lines()).toEqual(['token=']);
    tail.write(`${SECRET.slice(7)} ok\n`);
    tail.write(`\u001b[1m${SECRET}\u001b[0m\n`);
    // The secret starts just before the cap: the part that would be kept is its start.
    tail.write(`${'y'.repeat(STDERR_LINE_MAX_CHARS - 5)}${SECRET}${'z'.repeat(1000)}\n`);
    // A longer secret before it moves the rest forward when redacted: a cut secret must not come into view.
    const long = new StderrTail([SECRET, 'L'.repeat(200)]);
    long.write(`${'L'.repeat(200)}${'y'.repeat(STDERR_LINE_MAX_CHARS - 17)}${SECRET}${'z'.repeat(500)}\n`);
    const kept = [...tail.lines(), ...long.lines()];
    expect(kept.slice(0, 2)).toEqual(['token=[redacted] ok', '[redacted]']);
    for (const line of kept) {
      expect(line).not.toContain(SECRET.slice(0, 4));
      expect(line.length).toBeLessThanOrEqual(STDERR_LINE_MAX_CHARS);
    }
  });

  it('records the exit, unless Foresight was ending the process', () => {
    const own = new StderrTail();
    own.ended({ code: 3, signal: null });
    own.closing();
    expect(own.exit).toEqual({ code: 3, signal: null });
    const ours = new StderrTail();
    ours.closing();
    ours.ended({ code: null, signal: 'SIGTERM' });
    expect(ours.exit).toBeUndefined();
  });
});
