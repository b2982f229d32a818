// The providers' background metadata: loaded at start and every TTL, listeners told only of changes that show,
// the last good load kept through failures, loads never overlapping, and nothing after stop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRefreshingMetadata } from '../src/plugins/kit/index.js';
import { createMemoryLogger } from './support/in-memory.js';

type Answer = { labels: string[]; loadedAt: number } | Error;

function source(answers: Answer[], ttlMs = 1000) {
  const signals: AbortSignal[] = [];
  let running = 0;
  let overlapped = false;
  const load = vi.fn(async (signal: AbortSignal) => {
    signals.push(signal);
    running += 1;
    if (running > 1) overlapped = true;
    await new Promise((resolve) => setTimeout(resolve, 10));
    running -= 1;
    const next = answers.shift() ?? new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  });
  return {
    load,
    signals,
    overlapped: () => overlapped,
    spec: {
      what: 'labels of o/r',
      ttlMs,
      load,
      // loadedAt changes every load but is not shown: only labels count.
      fingerprint: (data: { labels: string[]; loadedAt: number }) => JSON.stringify(data.labels),
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('refreshing metadata', () => {
  it('tells listeners when what the schemas show changes, not on every load', async () => {
    vi.useFakeTimers();
    const s = source([
      { labels: ['bug'], loadedAt: 1 },
      { labels: ['bug'], loadedAt: 2 },
      { labels: ['bug', 'ui'], loadedAt: 3 },
    ]);
    const store = createRefreshingMetadata(s.spec, createMemoryLogger());
    const changed = vi.fn();
    store.onChange(changed);
    store.start();
    expect(store.current()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10);
    expect(store.current()).toEqual({ labels: ['bug'], loadedAt: 1 });
    expect(changed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1010);
    expect(store.current()?.loadedAt).toBe(2);
    expect(changed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1010);
    expect(store.current()?.labels).toEqual(['bug', 'ui']);
    expect(changed).toHaveBeenCalledTimes(2);
    await store.stop();
  });

  it('keeps the last good load through a failure, and says why only while nothing has loaded', async () => {
    vi.useFakeTimers();
    const records: Record<string, unknown>[] = [];
    const s = source([
      new Error('HTTP 502'),
      new Error('HTTP 502'),
      new Error('HTTP 503'),
      { labels: ['a'], loadedAt: 1 },
      new Error('HTTP 500'),
    ]);
    const store = createRefreshingMetadata(s.spec, createMemoryLogger(records));
    const changed = vi.fn();
    store.onChange(changed);
    store.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(store.failure()).toBe('HTTP 502');
    // Generic schemas name the reason: the first reason and each new one are changes, a repeat is not.
    expect(changed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1010);
    expect(changed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1010);
    expect(store.failure()).toBe('HTTP 503');
    expect(changed).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1010);
    expect(store.current()?.labels).toEqual(['a']);
    expect(store.failure()).toBeUndefined();
    expect(changed).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1010);
    expect(store.current()?.labels).toEqual(['a']);
    expect(store.failure()).toBeUndefined();
    expect(changed).toHaveBeenCalledTimes(3);
    expect(records.filter((r) => r.level === 'warn').map((r) => r.msg)).toEqual([
      ...Array(3).fill('cannot load labels of o/r; schemas stay generic until the next try'),
      'cannot reload labels of o/r; schemas keep the last load until the next try',
    ]);
    await store.stop();
  });

  it('runs a refresh asked for during a load after it, never beside it', async () => {
    const s = source([
      { labels: ['one'], loadedAt: 1 },
      { labels: ['two'], loadedAt: 2 },
    ]);
    const store = createRefreshingMetadata(s.spec, createMemoryLogger());
    store.start();
    await store.refresh();
    expect(s.load).toHaveBeenCalledTimes(2);
    expect(s.overlapped()).toBe(false);
    expect(store.current()?.labels).toEqual(['two']);
    await store.stop();
  });

  it('stop aborts the load in flight, waits for it, and tells no one after', async () => {
    const s = source([{ labels: ['late'], loadedAt: 1 }]);
    const store = createRefreshingMetadata(s.spec, createMemoryLogger());
    const changed = vi.fn();
    store.onChange(changed);
    store.start();
    await store.stop();
    expect(s.signals[0]?.aborted).toBe(true);
    expect(changed).not.toHaveBeenCalled();
    expect(s.load).toHaveBeenCalledTimes(1);
  });

  it('ends a load that takes too long, even one that ignores its signal, and tries again at the next tick', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const store = createRefreshingMetadata(
      {
        what: 'fields of PROJ',
        ttlMs: 1000,
        timeoutMs: 5000,
        fingerprint: (data: string[]) => data.join(),
        load: () => {
          calls += 1;
          // The first load never settles and never looks at its signal.
          return calls === 1 ? new Promise<string[]>(() => {}) : Promise.resolve(['Severity']);
        },
      },
      createMemoryLogger(),
    );
    store.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(store.failure()).toBe('no answer within 5 s');
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.current()).toEqual(['Severity']);
    await store.stop();
  });

  it('a listener that throws is logged and the others are still told', async () => {
    const records: Record<string, unknown>[] = [];
    const s = source([{ labels: ['a'], loadedAt: 1 }]);
    const store = createRefreshingMetadata(s.spec, createMemoryLogger(records));
    const after = vi.fn();
    store.onChange(() => {
      throw new Error('listener broke');
    });
    store.onChange(after);
    await store.refresh();
    expect(after).toHaveBeenCalledTimes(1);
    expect(store.current()?.labels).toEqual(['a']);
    expect(records).toContainEqual(expect.objectContaining({ level: 'error', err: 'listener broke' }));
    await store.stop();
  });

  it('a refresh given a signal stops waiting when it aborts, and the load still lands', async () => {
    const s = source([{ labels: ['slow'], loadedAt: 1 }]);
    const store = createRefreshingMetadata(s.spec, createMemoryLogger());
    const call = new AbortController();
    const waiting = store.refresh(call.signal);
    call.abort(new Error('the call was cancelled'));
    await expect(waiting).rejects.toThrow('the call was cancelled');
    // A call already over does not wait at all.
    await expect(store.refresh(call.signal)).rejects.toThrow('the call was cancelled');
    await store.refresh();
    expect(store.current()?.labels).toEqual(['slow']);
    await store.stop();
  });
});
