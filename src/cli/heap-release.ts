// Giving back the heap a busy spell grew. V8 sizes its heap to the allocation rate it sees and keeps that size
// when the load stops: Node never tells it the process went quiet, so a server that served a burst of calls holds
// hundreds of MB it no longer uses (the soak run: 124 MB at start, 344 MB half a minute after its 50 clients left,
// 56 MB of it live). When the event loop has been nearly idle for a whole interval and the heap has grown well past
// where the last collection left it, one memory-reducing full collection returns those pages to the system.
// The `serve` command owns its process and starts this; an embedder of createHost decides for its own.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapReleaseSettings {
  /** How often the loop's utilization and the heap are read. */
  intervalMs: number;
  /** The event loop's utilization over one interval (0 to 1) at or below which the process counts as quiet. */
  quietUtilization: number;
  /** Growth of V8's heap since the last collection, in bytes, worth a collection once the process is quiet. */
  growthBytes: number;
}

export const DEFAULT_HEAP_RELEASE: HeapReleaseSettings = {
  intervalMs: 10_000,
  quietUtilization: 0.05,
  growthBytes: 32 * 1024 * 1024,
};

/** One reading: V8's heap size and how busy the event loop was since the last reading. */
export interface HeapReading {
  heapTotal: number;
  utilization: number;
}

/**
 * When to collect: the decision alone, so that it can be followed reading by reading. The baseline is the heap
 * size the last collection (or the start) left; a collection is due on a quiet reading once the heap has grown
 * `growthBytes` past it, and only once per growth, so a quiet process is never collected again and again.
 */
export class HeapReleasePolicy {
  private baseline: number;

  constructor(
    private readonly settings: Pick<HeapReleaseSettings, 'quietUtilization' | 'growthBytes'>,
    startHeapTotal: number,
  ) {
    this.baseline = startHeapTotal;
  }

  /** Whether this reading calls for a collection. */
  due(reading: HeapReading): boolean {
    // A heap that shrank on its own lowers the bar: growth is measured from the smallest size seen since.
    this.baseline = Math.min(this.baseline, reading.heapTotal);
    return (
      reading.utilization <= this.settings.quietUtilization &&
      reading.heapTotal - this.baseline >= this.settings.growthBytes
    );
  }

  /** The heap size a collection left: the next one is measured from here. */
  collected(heapTotal: number): void {
    this.baseline = heapTotal;
  }
}

type MemoryReducingGc = () => Promise<void>;

let memoizedGc: MemoryReducingGc | undefined;

/**
 * V8's `gc` function, as `--expose-gc` would give it, fetched without the flag on the command line: the flag is
 * raised for the moment it takes a fresh context to bind the function and lowered again, so no other code of the
 * process sees a global `gc`. Its "last-resort" flavor is the memory-reducing collection (V8's reaction to a low
 * memory notification): every unreachable object freed, then the young generation and free pages given back.
 */
function memoryReducingGc(): MemoryReducingGc {
  if (memoizedGc !== undefined) return memoizedGc;
  let gc = globalThis.gc;
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as NodeJS.GCFunction;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  const fn = gc;
  memoizedGc = async () => {
    // V8 11 (Node 20) evacuates only a few fragmented pages per collection, even a memory-reducing one: after the
    // soak it kept 182 MB of old space for 30 MB of live objects. Compacting every page for this one collection
    // gives them back (Node 22's V8 does so on its own).
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      await fn({ type: 'major', execution: 'async', flavor: 'last-resort' });
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
  return memoizedGc;
}

/** V8's heap size (`heapTotal`), without the read of the process's RSS that `process.memoryUsage()` makes. */
const heapSize = () => getHeapStatistics().total_heap_size;

/** One memory-reducing full collection now; the heap size it left. */
export async function releaseHeap(): Promise<number> {
  await memoryReducingGc()();
  return heapSize();
}

export interface HeapReleaser {
  /** Collections run so far. */
  readonly releases: number;
  stop(): void;
}

/** Reads the loop and the heap every interval and collects when the policy says so; the timer never holds the process. */
export function releaseHeapWhenQuiet(
  settings: HeapReleaseSettings = DEFAULT_HEAP_RELEASE,
  report: {
    released?: (before: number, after: number) => void;
    /** The collection could not run (a runtime without V8's gc): the releaser stops; the process keeps its heap. */
    failed?: (error: unknown) => void;
  } = {},
): HeapReleaser {
  const policy = new HeapReleasePolicy(settings, heapSize());
  let last = performance.eventLoopUtilization();
  let releases = 0;
  let collecting = false;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const heapTotal = heapSize();
    if (collecting || !policy.due({ heapTotal, utilization })) return;
    collecting = true;
    releaseHeap().then(
      (after) => {
        policy.collected(after);
        releases++;
        collecting = false;
        report.released?.(heapTotal, after);
      },
      (error: unknown) => {
        clearInterval(timer);
        report.failed?.(error);
      },
    );
  }, settings.intervalMs);
  timer.unref();
  return {
    get releases() {
      return releases;
    },
    stop: () => clearInterval(timer),
  };
}
