import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CallEnd, CallsInFlight } from '../src/host/calls-in-flight.js';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

// The deadlines on a fake clock (its timers and performance.now() move together, and only when told): each step
// below is exact, where real sleeps on a busy machine could overshoot one deadline into the next.
describe('calls in flight', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends the calls of one deadline oldest first, and never one that was released', () => {
    const calls = new CallsInFlight(new AbortController().signal);
    const ended: string[] = [];
    const end = (name: string) => (why: CallEnd) => ended.push(`${name}:${why}`);
    calls.watch(30, end('first'), true);
    const second = calls.watch(30, end('second'), true);
    calls.watch(30, end('third'), true);
    second.release();
    vi.advanceTimersByTime(29);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual(['first:deadline', 'third:deadline']);
  });

  it('serves each deadline length with its own timer', () => {
    const calls = new CallsInFlight(new AbortController().signal);
    const ended: string[] = [];
    calls.watch(300, () => ended.push('long'), true);
    calls.watch(5, () => ended.push('short'), true);
    vi.advanceTimersByTime(5);
    expect(ended).toEqual(['short']);
    vi.advanceTimersByTime(294);
    expect(ended).toEqual(['short']);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual(['short', 'long']);
  });

  it('ends on shutdown every call but those shutdown itself makes, which keep their deadline', () => {
    const shutdown = new AbortController();
    const calls = new CallsInFlight(shutdown.signal);
    const ended: string[] = [];
    calls.watch(60_000, (why) => ended.push(`call:${why}`), true);
    const settled = calls.watch(60_000, (why) => ended.push(`settled:${why}`), true);
    settled.release();
    const ownShutdown = calls.watch(30, (why) => ended.push(`shutdown():${why}`), false);
    shutdown.abort();
    expect(ended).toEqual(['call:shutdown']);
    vi.advanceTimersByTime(30);
    expect(ended).toEqual(['call:shutdown', 'shutdown():deadline']);
    ownShutdown.release();
  });

  it('ends a call once however it ends, and releasing it again is a no-op', () => {
    const shutdown = new AbortController();
    const calls = new CallsInFlight(shutdown.signal);
    const ended: CallEnd[] = [];
    const call = calls.watch(20, (why) => ended.push(why), true);
    vi.advanceTimersByTime(20);
    expect(ended).toEqual(['deadline']);
    shutdown.abort();
    call.release();
    call.release();
    expect(ended).toEqual(['deadline']);
  });

  it('keeps the process alive only while a call waits on its timer', () => {
    // Real timers: what keeps the process alive is Node's to tell.
    vi.useRealTimers();
    const calls = new CallsInFlight(new AbortController().signal);
    const before = timers();
    const call = calls.watch(60_000, () => {}, true);
    expect(timers()).toBe(before + 1);
    call.release();
    expect(timers()).toBe(before);
    const next = calls.watch(60_000, () => {}, true);
    expect(timers()).toBe(before + 1);
    next.release();
    expect(timers()).toBe(before);
  });
});
