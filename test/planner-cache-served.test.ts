// The result cache's bookkeeping of what was served: unused results, cost, sessions, clear, and sizes.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { T0, bytesOf, ok, parts, setup, shared } from './support/planner-fixtures.js';

describe('ResultCache: unused results', () => {
  it('counts an entry that expires unserved, not one that was served first', () => {
    const { cache, advance } = setup();
    cache.put(parts('never'), ok('x'), 1);
    cache.put(parts('served'), ok('y'), 1);
    expect(cache.get(parts('served'))).toBeDefined();
    advance(1_000);
    expect(cache.get(parts('never'))).toBeUndefined();
    expect(cache.get(parts('served'))).toBeUndefined();
    expect(cache.stats).toMatchObject({ stored: 2, hits: 1, expired: 2, unused: 1 });
  });

  it('counts an unserved entry dropped by invalidate, not a served one', () => {
    const { cache } = setup();
    cache.put(parts('t', { key: '#1' }), ok('1'), 60);
    cache.put(parts('t', { key: '#2' }), ok('2'), 60);
    cache.get(parts('t', { key: '#2' }));
    expect(cache.invalidate(['t'])).toBe(2);
    expect(cache.stats).toMatchObject({ invalidated: 2, unused: 1 });
  });

  it('counts an unserved entry pushed out by the byte bound, not a served one', () => {
    const size = bytesOf(ok('aaaa'));
    const { cache } = setup({ maxBytes: 2 * size });
    cache.put(parts('served'), ok('aaaa'), 60);
    cache.put(parts('unserved'), ok('bbbb'), 60);
    cache.get(parts('served'));
    // `served` is now the most recently used: `unserved` goes first, then `served`.
    cache.put(parts('c'), ok('cccc'), 60);
    expect(cache.stats).toMatchObject({ evicted: 1, unused: 1 });
    cache.put(parts('d'), ok('dddd'), 60);
    expect(cache.stats).toMatchObject({ evicted: 2, unused: 1 });
    expect(cache.size).toEqual({ entries: 2, bytes: 2 * size });
  });

  it('counts the unserved entries that clear() drops', () => {
    const { cache } = setup();
    cache.put(parts('a'), ok('a'), 60);
    cache.put(parts('b'), ok('b'), 60);
    cache.put(shared('c'), ok('c'), 60);
    cache.get(parts('a'));
    cache.clear();
    expect(cache.stats).toMatchObject({
      stored: 3,
      hits: 1,
      unused: 2,
      expired: 0,
      invalidated: 0,
      evicted: 0,
    });
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('counts the unserved entries that dropSession drops', () => {
    const { cache } = setup();
    cache.put(parts('a', {}, 'A'), ok('a'), 60);
    cache.put(parts('b', {}, 'A'), ok('b'), 60);
    cache.get(parts('b', {}, 'A'));
    cache.dropSession('A');
    expect(cache.stats).toMatchObject({ unused: 1, expired: 0, invalidated: 0, evicted: 0 });
  });

  it('counts an unserved entry replaced by a newer result for the same key', () => {
    const { cache } = setup();
    cache.put(parts('t'), ok('old'), 60);
    cache.put(parts('t'), ok('new'), 60);
    expect(cache.stats).toMatchObject({ stored: 2, unused: 1 });
    cache.get(parts('t'));
    cache.put(parts('t'), ok('newer'), 60);
    expect(cache.stats).toMatchObject({ stored: 3, unused: 1 });
  });

  it('does not count a joined result that was stored when it later expires', async () => {
    const { cache, advance } = setup();
    const flight = cache.begin(parts('t'));
    const joined = cache.inFlight(parts('t'));
    flight.settle(ok('fresh'), 2);
    await expect(joined?.result).resolves.toEqual(ok('fresh'));
    expect(cache.stats).toMatchObject({ stored: 1, hits: 0, unused: 0 });
    advance(2_000);
    expect(cache.get(parts('t'))).toBeUndefined();
    expect(cache.stats).toMatchObject({ stored: 1, expired: 1, unused: 0 });
  });

  it('does count a stored result nobody joined when it later expires', () => {
    const { cache, advance } = setup();
    cache.begin(parts('t')).settle(ok('fresh'), 2);
    expect(cache.stats.unused).toBe(0);
    advance(2_000);
    expect(cache.get(parts('t'))).toBeUndefined();
    expect(cache.stats).toMatchObject({ stored: 1, expired: 1, unused: 1 });
  });

  it('does not count a joined result invalidated after it was stored', async () => {
    const { cache } = setup();
    const flight = cache.begin(parts('t', { key: '#1' }));
    const joined = cache.inFlight(parts('t', { key: '#1' }))?.result;
    flight.settle(ok('1'), 60);
    await joined;
    expect(cache.invalidate(['t'], { key: '#1' })).toBe(1);
    expect(cache.stats).toMatchObject({ invalidated: 1, unused: 0 });
  });

  it.each([
    ['no result', undefined, 0],
    ['an error result', { content: [], isError: true } as CallToolResult, 1],
  ])('counts a failed flight (%s) once, however often it is settled', (_name, result, refused) => {
    const { cache } = setup();
    const flight = cache.begin(parts('t'));
    flight.settle(result, 60);
    flight.settle(result, 60);
    flight.settle(ok('late'), 60);
    expect(cache.stats).toMatchObject({ stored: 0, unused: 1, refusedErrors: refused });
    expect(cache.get(parts('t'))).toBeUndefined();
  });

  it('counts a flight that went stale once: when it settles, not when it is marked', () => {
    const { cache } = setup();
    const flight = cache.begin(parts('t'));
    cache.invalidate(['t']);
    expect(flight.stale).toBe(true);
    expect(cache.stats.unused).toBe(0);
    flight.settle(ok('old state'), 60);
    flight.settle(ok('old state'), 60);
    expect(cache.stats).toMatchObject({ stored: 0, unused: 1, refusedErrors: 0, invalidated: 0 });
  });

  it('counts a stale flight with an error result as unused, not as a refused error', () => {
    const { cache } = setup();
    const flight = cache.begin(parts('t'));
    cache.invalidate(['t']);
    flight.settle({ content: [], isError: true }, 60);
    expect(cache.stats).toMatchObject({ unused: 1, refusedErrors: 0 });
  });

  it('counts a flight whose successful result could not be stored (TTL 0) when nobody joined', async () => {
    const { cache } = setup();
    cache.begin(parts('alone')).settle(ok('x'), 0);
    expect(cache.stats).toMatchObject({ stored: 0, unused: 1 });
    const joinedFlight = cache.begin(parts('joined'));
    const joined = cache.inFlight(parts('joined'))?.result;
    joinedFlight.settle(ok('y'), 0);
    await expect(joined).resolves.toEqual(ok('y'));
    expect(cache.stats).toMatchObject({ stored: 0, unused: 1 });
  });
});

describe('ResultCache: cost of a stored result', () => {
  it('keeps costMs given to put, and leaves it out when not given', () => {
    const { cache } = setup();
    cache.put(parts('costly'), ok('x'), 60, 345);
    cache.put(parts('free'), ok('x'), 60);
    expect(cache.get(parts('costly'))?.costMs).toBe(345);
    const free = cache.get(parts('free'));
    expect(free).toBeDefined();
    expect(free !== undefined && 'costMs' in free).toBe(false);
  });

  it('keeps costMs given to a settled flight', () => {
    const { cache } = setup();
    cache.begin(parts('t')).settle(ok('x'), 60, 212);
    expect(cache.get(parts('t'))).toEqual({
      result: ok('x'),
      storedAtMs: T0,
      expiresAtMs: T0 + 60_000,
      bytes: bytesOf(ok('x')),
      costMs: 212,
    });
  });

  it('keeps a cost of 0', () => {
    const { cache } = setup();
    cache.put(parts('t'), ok('x'), 60, 0);
    expect(cache.get(parts('t'))?.costMs).toBe(0);
  });
});

describe('ResultCache: dropSession', () => {
  it("drops only that session's entries, not another session's nor the session-independent ones", () => {
    const { cache } = setup();
    const own = ok('own');
    const other = ok('other');
    const common = ok('shared');
    cache.put(parts('t', { k: 1 }, 'A'), own, 60);
    cache.put(parts('u', { k: 2 }, 'A'), own, 60);
    cache.put(parts('t', { k: 1 }, 'B'), other, 60);
    cache.put(shared('t', { k: 1 }), common, 60);
    expect(cache.size.entries).toBe(4);

    cache.dropSession('A');
    expect(cache.size).toEqual({ entries: 2, bytes: bytesOf(other) + bytesOf(common) });
    // Session A now falls back to the session-independent entry; B keeps its own.
    expect(cache.get(parts('t', { k: 1 }, 'A'))?.result).toEqual(common);
    expect(cache.get(parts('u', { k: 2 }, 'A'))).toBeUndefined();
    expect(cache.get(parts('t', { k: 1 }, 'B'))?.result).toEqual(other);
  });

  it("marks that session's calls in flight stale, and only those: nobody is left to serve", () => {
    const { cache } = setup();
    const own = cache.begin(parts('t', { k: 1 }, 'A'));
    const other = cache.begin(parts('t', { k: 1 }, 'B'));
    const common = cache.begin(shared('t', { k: 2 }));
    cache.dropSession('A');
    expect([own.stale, other.stale, common.stale]).toEqual([true, false, false]);
    own.settle(ok('late'), 60);
    expect(cache.size.entries).toBe(0);
    expect(cache.stats.unused).toBe(1);
  });

  it('does nothing for a session with no entries', () => {
    const { cache } = setup();
    cache.put(parts('t', {}, 'A'), ok('x'), 60);
    cache.dropSession('Z');
    expect(cache.size.entries).toBe(1);
    expect(cache.stats.unused).toBe(0);
  });
});

describe('ResultCache: clear', () => {
  it('marks every call in flight stale: joiners get undefined at once, nothing is stored or joined later', async () => {
    const { cache } = setup();
    const own = cache.begin(parts('t', {}, 'A'));
    const forAll = cache.begin(shared('u'));
    const joined = cache.inFlight(parts('t', {}, 'A'))?.result;
    expect(joined).toBeDefined();

    cache.clear();
    expect([own.stale, forAll.stale]).toEqual([true, true]);
    await expect(joined).resolves.toBeUndefined();
    expect(cache.inFlight(parts('t', {}, 'A'))).toBeUndefined();
    expect(cache.inFlight(parts('u', {}, 'A'))).toBeUndefined();
    expect(cache.covers(parts('t', {}, 'A'))).toBe(false);

    own.settle(ok('late'), 60);
    forAll.settle(ok('late'), 60);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    expect(cache.get(parts('t', {}, 'A'))).toBeUndefined();
    expect(cache.stats).toMatchObject({ stored: 0, unused: 2 });
  });

  it('leaves calls begun after the clear alone', () => {
    const { cache } = setup();
    cache.clear();
    const flight = cache.begin(parts('t'));
    expect(flight.stale).toBe(false);
    flight.settle(ok('x'), 60);
    expect(cache.get(parts('t'))?.result).toEqual(ok('x'));
  });
});

describe('ResultCache: inFlight and size', () => {
  it('gives the time the call began by the cache clock, whenever it is asked', () => {
    const { cache, advance } = setup();
    advance(250);
    cache.begin(shared('t'));
    advance(4_000);
    // A session's call joins the session-independent flight, and sees when it began.
    expect(cache.inFlight(parts('t', {}, 'A'))?.startedAtMs).toBe(T0 + 250);
    advance(1_000);
    expect(cache.inFlight(parts('t', {}, 'B'))?.startedAtMs).toBe(T0 + 250);
  });

  it('prefers the own session’s flight over a session-independent one', () => {
    const { cache, advance } = setup();
    cache.begin(shared('t'));
    advance(10);
    cache.begin(parts('t', {}, 'A'));
    expect(cache.inFlight(parts('t', {}, 'A'))?.startedAtMs).toBe(T0 + 10);
    expect(cache.inFlight(parts('t', {}, 'B'))?.startedAtMs).toBe(T0);
  });

  it('reports entries and summed bytes as they come and go', () => {
    const { cache, advance } = setup();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    const small = ok('s');
    const large = ok('l'.repeat(500));
    cache.put(parts('small'), small, 1);
    cache.put(parts('large'), large, 60);
    expect(cache.size).toEqual({ entries: 2, bytes: bytesOf(small) + bytesOf(large) });
    // A replaced entry counts with its new size only.
    cache.put(parts('large'), small, 60);
    expect(cache.size).toEqual({ entries: 2, bytes: 2 * bytesOf(small) });
    advance(1_000);
    cache.get(parts('small'));
    expect(cache.size).toEqual({ entries: 1, bytes: bytesOf(small) });
    // Flights are not entries.
    cache.begin(parts('flying'));
    expect(cache.size.entries).toBe(1);
  });
});
