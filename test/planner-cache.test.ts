// The speculative result cache: TTL by an injected clock, sessions, byte bound, invalidation, in-flight joins.
import { describe, expect, it } from 'vitest';
import { ResultCache } from '../src/planner/index.js';
import { T0, bytesOf, failed, ok, parts, setup, shared } from './support/planner-fixtures.js';

const NO_STATS = { stored: 0, hits: 0, expired: 0, invalidated: 0, evicted: 0, refusedErrors: 0, unused: 0 };

describe('ResultCache: storing and freshness', () => {
  it('serves a stored result with its times and size', () => {
    const { cache } = setup();
    const result = ok('file body ✓');
    expect(cache.put(parts('ws__read_file', { path: 'a.ts' }), result, 30)).toBe(true);
    expect(cache.get(parts('ws__read_file', { path: 'a.ts' }))).toEqual({
      result,
      storedAtMs: T0,
      expiresAtMs: T0 + 30_000,
      bytes: bytesOf(result),
    });
    expect(cache.get(parts('ws__read_file', { path: 'b.ts' }))).toBeUndefined();
    expect(cache.get(parts('ws__glob', { path: 'a.ts' }))).toBeUndefined();
  });

  it('is fresh 1 ms before the TTL and gone at exactly the TTL, counted once', () => {
    const { cache, advance } = setup();
    cache.put(parts('t'), ok('x'), 2);
    advance(1_999);
    expect(cache.get(parts('t'))?.result).toEqual(ok('x'));
    advance(1);
    expect(cache.get(parts('t'))).toBeUndefined();
    expect(cache.get(parts('t'))).toBeUndefined();
    expect(cache.stats).toEqual({ ...NO_STATS, stored: 1, hits: 1, expired: 1 });
  });

  it('refuses error results, and TTLs that are not positive', () => {
    const { cache } = setup();
    expect(cache.put(parts('t'), failed(), 60)).toBe(false);
    expect(cache.put(parts('t'), ok('x'), 0)).toBe(false);
    expect(cache.put(parts('t'), ok('x'), Number.NaN)).toBe(false);
    expect(cache.get(parts('t'))).toBeUndefined();
    expect(cache.stats).toEqual({ ...NO_STATS, refusedErrors: 1 });
  });

  it('ignores the order of argument keys, at every depth', () => {
    const { cache } = setup();
    cache.put(parts('t', { b: { y: 2, x: 1 }, a: [1, { q: 1, p: 0 }] }), ok('x'), 60);
    expect(cache.get(parts('t', { a: [1, { p: 0, q: 1 }], b: { x: 1, y: 2 } }))).toBeDefined();
    expect(cache.get(parts('t', { a: [{ p: 0, q: 1 }, 1], b: { x: 1, y: 2 } }))).toBeUndefined();
    expect(ResultCache.key(parts('t', { b: 1, a: 2 }))).toBe(ResultCache.key(parts('t', { a: 2, b: 1 })));
  });

  it('keeps its own copy of the arguments', () => {
    const { cache } = setup();
    const args: Record<string, unknown> = { key: '#12' };
    cache.put(parts('t', args), ok('x'), 60);
    args.key = '#13';
    expect(cache.invalidate(['t'], { key: '#12' })).toBe(1);
  });
});

describe('ResultCache: session scoping', () => {
  it("never serves one session's entries to another or to a session-less caller", () => {
    const { cache } = setup();
    cache.put(parts('t', {}, 'A'), ok('for A'), 60);
    expect(cache.get(parts('t', {}, 'B'))).toBeUndefined();
    expect(cache.get(shared('t'))).toBeUndefined();
    expect(cache.get(parts('t', {}, 'A'))?.result).toEqual(ok('for A'));
  });

  it('serves session-independent entries to every session, preferring a session’s own', () => {
    const { cache } = setup();
    cache.put(shared('t'), ok('shared'), 60);
    expect(cache.get(parts('t', {}, 'A'))?.result).toEqual(ok('shared'));
    expect(cache.get(parts('t', {}, 'B'))?.result).toEqual(ok('shared'));
    expect(cache.get(shared('t'))?.result).toEqual(ok('shared'));
    cache.put(parts('t', {}, 'A'), ok('own'), 60);
    expect(cache.get(parts('t', {}, 'A'))?.result).toEqual(ok('own'));
    expect(cache.get(parts('t', {}, 'B'))?.result).toEqual(ok('shared'));
  });

  it('falls back to the session-independent entry when the own one has expired', () => {
    const { cache, advance } = setup();
    cache.put(parts('t', {}, 'A'), ok('own'), 1);
    cache.put(shared('t'), ok('shared'), 10);
    advance(1_000);
    expect(cache.get(parts('t', {}, 'A'))?.result).toEqual(ok('shared'));
    expect(cache.stats).toEqual({ ...NO_STATS, unused: 1, stored: 2, hits: 1, expired: 1 });
  });
});

describe('ResultCache: byte bound', () => {
  it('evicts the least recently used entry and counts it', () => {
    const size = bytesOf(ok('aaaa'));
    const { cache } = setup({ maxBytes: 3 * size });
    cache.put(parts('a'), ok('aaaa'), 60);
    cache.put(parts('b'), ok('bbbb'), 60);
    cache.put(parts('c'), ok('cccc'), 60);
    expect(cache.get(parts('a'))).toBeDefined(); // now b is the least recently used
    cache.put(parts('d'), ok('dddd'), 60);
    expect(cache.get(parts('b'))).toBeUndefined();
    expect(cache.get(parts('a'))).toBeDefined();
    expect(cache.get(parts('c'))).toBeDefined();
    expect(cache.get(parts('d'))).toBeDefined();
    expect(cache.stats).toEqual({ ...NO_STATS, unused: 1, stored: 4, hits: 4, evicted: 1 });
  });

  it('counts an entry pushed out after its TTL as expired, not evicted', () => {
    const size = bytesOf(ok('aaaa'));
    const { cache, advance } = setup({ maxBytes: 2 * size });
    cache.put(parts('a'), ok('aaaa'), 1);
    cache.put(parts('b'), ok('bbbb'), 60);
    advance(1_000);
    cache.put(parts('c'), ok('cccc'), 60);
    expect(cache.stats).toEqual({ ...NO_STATS, unused: 1, stored: 3, expired: 1 });
  });

  it('refuses a result larger than the whole bound and keeps the older entry', () => {
    const { cache } = setup({ maxBytes: bytesOf(ok('small')) });
    cache.put(parts('t'), ok('small'), 60);
    expect(cache.put(parts('t'), ok('much larger'), 60)).toBe(false);
    expect(cache.get(parts('t'))?.result).toEqual(ok('small'));
    expect(cache.stats).toEqual({ ...NO_STATS, stored: 1, hits: 1 });
  });
});

describe('ResultCache: invalidation', () => {
  it('drops every entry of the named tools', () => {
    const { cache } = setup();
    cache.put(parts('issue', { key: '#12' }), ok('12'), 60);
    cache.put(parts('issue', { key: '#13' }), ok('13'), 60);
    cache.put(parts('comments', { key: '#12' }), ok('c12'), 60);
    cache.put(parts('file', { path: 'a' }), ok('a'), 60);
    expect(cache.invalidate(['issue', 'comments'])).toBe(3);
    expect(cache.get(parts('issue', { key: '#12' }))).toBeUndefined();
    expect(cache.get(parts('issue', { key: '#13' }))).toBeUndefined();
    expect(cache.get(parts('comments', { key: '#12' }))).toBeUndefined();
    expect(cache.get(parts('file', { path: 'a' }))).toBeDefined();
  });

  it('with a key, drops the entries naming that key or none, and keeps those with another key', () => {
    const { cache } = setup();
    cache.put(parts('issue', { key: '#12', full: true }), ok('12'), 60);
    cache.put(parts('issue', { key: '#13' }), ok('13'), 60);
    cache.put(parts('issue', { state: 'open' }), ok('list'), 60);
    cache.put(parts('other', { key: '#12' }), ok('o12'), 60);
    expect(cache.invalidate(['issue'], { key: '#12' })).toBe(2);
    expect(cache.get(parts('issue', { key: '#12', full: true }))).toBeUndefined();
    expect(cache.get(parts('issue', { state: 'open' }))).toBeUndefined();
    expect(cache.get(parts('issue', { key: '#13' }))).toBeDefined();
    expect(cache.get(parts('other', { key: '#12' }))).toBeDefined();
  });

  it('compares key values as canonical JSON, and keeps an entry differing in any named parameter', () => {
    const { cache } = setup();
    cache.put(parts('mr', { project: { path: 'g/p', id: 1 }, iid: 5 }), ok('5'), 60);
    cache.put(parts('mr', { project: { id: 1, path: 'g/p' }, iid: 6 }), ok('6'), 60);
    cache.put(parts('mr', { project: { id: 2, path: 'g/q' }, iid: 5 }), ok('q5'), 60);
    expect(cache.invalidate(['mr'], { iid: 5, project: { id: 1, path: 'g/p' } })).toBe(1);
    expect(cache.get(parts('mr', { project: { id: 1, path: 'g/p' }, iid: 5 }))).toBeUndefined();
    expect(cache.get(parts('mr', { project: { id: 1, path: 'g/p' }, iid: 6 }))).toBeDefined();
    expect(cache.get(parts('mr', { project: { id: 2, path: 'g/q' }, iid: 5 }))).toBeDefined();
  });

  it('drops the entries of every session: a mutation changes what all of them would read', () => {
    const { cache } = setup();
    cache.put(parts('t', {}, 'A'), ok('A'), 60);
    cache.put(parts('t', {}, 'B'), ok('B'), 60);
    cache.put(shared('t'), ok('shared'), 60);
    cache.put(parts('u', {}, 'B'), ok('u'), 60);
    expect(cache.invalidate(['t'])).toBe(3);
    expect(cache.get(parts('t', {}, 'A'))).toBeUndefined();
    expect(cache.get(parts('t', {}, 'B'))).toBeUndefined();
    expect(cache.get(parts('u', {}, 'B'))?.result).toEqual(ok('u'));
  });

  it('counts expired entries it drops as expired, not in its answer', () => {
    const { cache, advance } = setup();
    cache.put(parts('t', { n: 1 }), ok('1'), 1);
    cache.put(parts('t', { n: 2 }), ok('2'), 60);
    advance(1_000);
    expect(cache.invalidate(['t'])).toBe(1);
    expect(cache.stats).toEqual({ ...NO_STATS, unused: 2, stored: 2, expired: 1, invalidated: 1 });
  });
});

describe('ResultCache: calls in flight', () => {
  it('lets the agent’s call join a speculative call and stores its result', async () => {
    const { cache } = setup();
    const flight = cache.begin(parts('t', { k: 1 }));
    const joined = cache.inFlight(parts('t', { k: 1 }))?.result;
    expect(joined).toBeDefined();
    expect(cache.inFlight(parts('t', { k: 2 }))).toBeUndefined();
    flight.settle(ok('done'), 60);
    await expect(joined).resolves.toEqual(ok('done'));
    expect(flight.stale).toBe(false);
    expect(cache.inFlight(parts('t', { k: 1 }))).toBeUndefined();
    expect(cache.get(parts('t', { k: 1 }))?.result).toEqual(ok('done'));
  });

  it('scopes joins like entries: own session or session-independent', () => {
    const { cache } = setup();
    cache.begin(parts('own', {}, 'A'));
    cache.begin(shared('shared'));
    expect(cache.inFlight(parts('own', {}, 'B'))).toBeUndefined();
    expect(cache.inFlight(parts('own', {}, 'A'))).toBeDefined();
    expect(cache.inFlight(parts('shared', {}, 'B'))).toBeDefined();
  });

  it('marks a call stale when a mutation invalidates it: not stored, joiners get undefined', async () => {
    const { cache } = setup();
    const flight = cache.begin(parts('issue', { key: '#12' }));
    const other = cache.begin(parts('issue', { key: '#13' }));
    const joined = cache.inFlight(parts('issue', { key: '#12' }))?.result;
    expect(cache.invalidate(['issue'], { key: '#12' })).toBe(0);
    expect(flight.stale).toBe(true);
    expect(other.stale).toBe(false);
    // Joiners are told at once, and nobody new joins the doomed call.
    await expect(joined).resolves.toBeUndefined();
    expect(cache.inFlight(parts('issue', { key: '#12' }))).toBeUndefined();
    flight.settle(ok('old state'), 60);
    expect(cache.get(parts('issue', { key: '#12' }))).toBeUndefined();
    other.settle(ok('13'), 60);
    expect(cache.get(parts('issue', { key: '#13' }))).toBeDefined();
    expect(cache.stats).toEqual({ ...NO_STATS, unused: 1, stored: 1, hits: 1 });
  });

  it('marks stale a call replaced by a later begin for the same key', () => {
    const { cache } = setup();
    const first = cache.begin(parts('t'));
    const second = cache.begin(parts('t'));
    cache.invalidate(['t']);
    expect([first.stale, second.stale]).toEqual([true, true]);
    first.settle(ok('old state'), 60);
    second.settle(ok('old state'), 60);
    expect(cache.get(parts('t'))).toBeUndefined();
    expect(cache.stats.stored).toBe(0);
  });

  it('marks calls of every session stale, and only those of the named tools', () => {
    const { cache } = setup();
    const flight = cache.begin(parts('t', {}, 'B'));
    const other = cache.begin(parts('u', {}, 'B'));
    cache.invalidate(['t']);
    expect(flight.stale).toBe(true);
    expect(other.stale).toBe(false);
  });

  it.each([
    ['no result', undefined, 0],
    ['an error result', failed(), 1],
  ])('stores nothing for a failed call (%s) and gives joiners undefined', async (_name, result, refused) => {
    const { cache } = setup();
    const flight = cache.begin(parts('t'));
    const joined = cache.inFlight(parts('t'))?.result;
    flight.settle(result, 60);
    await expect(joined).resolves.toBeUndefined();
    expect(cache.get(parts('t'))).toBeUndefined();
    expect(cache.stats).toEqual({ ...NO_STATS, unused: 1, refusedErrors: refused });
  });

  it('ignores a second settle, and a replaced call does not remove its successor', async () => {
    const { cache } = setup();
    const first = cache.begin(parts('t'));
    const second = cache.begin(parts('t'));
    first.settle(ok('first'), 60);
    first.settle(ok('again'), 60);
    const joined = cache.inFlight(parts('t'))?.result;
    expect(joined).toBeDefined();
    second.settle(ok('second'), 60);
    await expect(joined).resolves.toEqual(ok('second'));
    expect(cache.get(parts('t'))?.result).toEqual(ok('second'));
    expect(cache.stats.stored).toBe(2);
  });
});

describe('ResultCache: covers and stats', () => {
  it('covers fresh entries and live calls without counting or dropping anything', () => {
    const { cache, advance } = setup();
    cache.put(parts('fresh'), ok('x'), 60);
    cache.put(parts('old'), ok('x'), 1);
    cache.begin(parts('flying'));
    cache.put(shared('shared'), ok('x'), 60);
    advance(1_000);
    expect(cache.covers(parts('fresh'))).toBe(true);
    expect(cache.covers(parts('flying'))).toBe(true);
    expect(cache.covers(parts('shared'))).toBe(true);
    expect(cache.covers(parts('old'))).toBe(false);
    expect(cache.covers(parts('none'))).toBe(false);
    expect(cache.covers(parts('fresh', {}, 'B'))).toBe(false);
    expect(cache.stats).toEqual({ ...NO_STATS, stored: 3 });
  });

  it('keeps every counter exact over a mixed run', async () => {
    const { cache, advance } = setup({ maxBytes: 2 * bytesOf(ok('aaaa')) });
    cache.put(parts('a'), ok('aaaa'), 10); // stored 1
    cache.put(parts('b'), ok('bbbb'), 1); // stored 2
    cache.put(parts('e'), failed(), 10); // refused 1
    cache.get(parts('a')); // hits 1
    cache.get(parts('a')); // hits 2
    cache.get(parts('missing'));
    advance(1_000);
    cache.get(parts('b')); // expired 1
    cache.put(parts('c'), ok('cccc'), 10); // stored 3
    cache.put(parts('d'), ok('dddd'), 10); // stored 4, evicts a: evicted 1
    const flight = cache.begin(parts('f'));
    cache.invalidate(['c', 'f']); // invalidated 1, f stale
    flight.settle(ok('ffff'), 10); // not stored
    const speculative = cache.begin(parts('g'));
    const joined = cache.inFlight(parts('g'))?.result;
    speculative.settle(failed(), 10); // refused 2
    await joined;
    expect(cache.stats).toEqual({
      stored: 4,
      hits: 2,
      expired: 1,
      invalidated: 1,
      evicted: 1,
      refusedErrors: 2,
      // b expired, c invalidated, f stale, g failed; a was evicted but had been served.
      unused: 4,
    });
  });

  it('gives a snapshot, not a live object', () => {
    const { cache } = setup();
    const before = cache.stats;
    cache.put(parts('t'), ok('x'), 60);
    expect(before.stored).toBe(0);
    expect(cache.stats.stored).toBe(1);
  });
});
