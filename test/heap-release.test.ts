import { describe, expect, it, vi } from 'vitest';
import { HeapReleasePolicy, releaseHeap, releaseHeapWhenQuiet } from '../src/cli/heap-release.js';

const MB = 1024 * 1024;
const settings = { quietUtilization: 0.05, growthBytes: 32 * MB };

describe('HeapReleasePolicy', () => {
  it('collects once a quiet reading finds the heap grown past the threshold, and not while the loop is busy', () => {
    const policy = new HeapReleasePolicy(settings, 40 * MB);
    expect(policy.due({ heapTotal: 60 * MB, utilization: 0.01 })).toBe(false); // grown 20 MB: not enough
    expect(policy.due({ heapTotal: 200 * MB, utilization: 0.8 })).toBe(false); // grown, but busy
    expect(policy.due({ heapTotal: 200 * MB, utilization: 0.06 })).toBe(false); // just above quiet
    expect(policy.due({ heapTotal: 200 * MB, utilization: 0.05 })).toBe(true);
  });

  it('measures the next growth from where the collection left the heap, so a quiet process is collected once', () => {
    const policy = new HeapReleasePolicy(settings, 40 * MB);
    expect(policy.due({ heapTotal: 200 * MB, utilization: 0 })).toBe(true);
    policy.collected(50 * MB);
    expect(policy.due({ heapTotal: 50 * MB, utilization: 0 })).toBe(false);
    expect(policy.due({ heapTotal: 70 * MB, utilization: 0 })).toBe(false);
    expect(policy.due({ heapTotal: 83 * MB, utilization: 0 })).toBe(true);
  });

  it('lowers its baseline when the heap shrinks on its own', () => {
    const policy = new HeapReleasePolicy(settings, 100 * MB);
    expect(policy.due({ heapTotal: 30 * MB, utilization: 0 })).toBe(false);
    expect(policy.due({ heapTotal: 70 * MB, utilization: 0 })).toBe(true); // 40 MB over the 30 MB seen
  });
});

describe('releaseHeap', () => {
  it('gives back a heap grown by garbage, without a global gc in the process', async () => {
    expect(globalThis.gc).toBeUndefined();
    let garbage: unknown[] | undefined = [];
    for (let i = 0; i < 1_000_000; i++) garbage.push({ index: i, text: `item ${i}` });
    const grown = process.memoryUsage().heapTotal;
    garbage = undefined;
    const after = await releaseHeap();
    expect(garbage).toBeUndefined();
    expect(grown - after).toBeGreaterThan(40 * MB);
    // The flag was only raised to fetch the function: nothing else in the process sees it.
    expect(globalThis.gc).toBeUndefined();
  });

  it('runs on its own from a timer that never keeps the process alive, and stops', async () => {
    // The interval on a fake clock: a reading is taken when the test moves it, and what stop() left is countable.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let released!: () => void;
      const first = new Promise<void>((resolve) => (released = resolve));
      const releaser = releaseHeapWhenQuiet(
        { intervalMs: 20, quietUtilization: 1, growthBytes: 0 },
        { released: () => released() },
      );
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(20);
      await first;
      expect(releaser.releases).toBe(1);
      releaser.stop();
      // No timer left to take another reading, however long the clock runs: nothing more is collected.
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(20 * 100);
      expect(releaser.releases).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
