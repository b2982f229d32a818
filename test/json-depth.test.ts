import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../src/protocol/json-depth.js';

/** An array `depth` levels deep around `inner`. */
const nested = (depth: number, inner: unknown = 1): unknown =>
  Array.from({ length: depth }).reduce<unknown>((value) => [value], inner);

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan({ a: 1 }, 0)).toBe(true);
    expect(nestsDeeperThan(nested(8), 8)).toBe(false);
    expect(nestsDeeperThan(nested(9), 8)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: nested(6) }] }, 8)).toBe(true);
  });

  it('refuses a deep value without overflowing the stack', () => {
    expect(nestsDeeperThan(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 64)).toBe(true);
  });

  it('says the same with the text length as without it: the shortcut for short texts never lets a deep one by', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null)),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 2 }), tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 12 }), (value, maxDepth) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(value, maxDepth, text.length)).toBe(nestsDeeperThan(value, maxDepth));
      }),
      { seed: 17, numRuns: 2000 },
    );
    // At the bound itself: 2 × (maxDepth + 1) characters are enough to nest one level too deep.
    expect(JSON.stringify(nested(8, []))).toBe('[[[[[[[[[]]]]]]]]]');
    expect(nestsDeeperThan(nested(8, []), 8, 18)).toBe(true);
  });
});
