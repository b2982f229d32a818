// A tracker's metadata (labels, statuses, custom fields…) loaded in the background and reloaded every TTL: what
// the enrichers turn into enums and typed parameters. Until a first load succeeds the schemas stay generic. In a
// cluster, one process loads it per TTL and the others read its copy.
import { clampDelay, type Logger, type SharedClaim, type SharedRead } from '../../contract/index.js';
import { type MetadataSharing, decodeMetadata, encodeMetadata } from './metadata-sharing.js';

export interface MetadataSource<T> {
  /** What is loaded, for the log line when it fails: "labels and milestones of group/project". */
  what: string;
  /** Milliseconds between the end of one load and the start of the next. */
  ttlMs: number;
  /** How long one load may take before it counts as failed; default LOAD_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Reads it all; `signal` aborts when the store stops or the load has taken too long. */
  load(signal: AbortSignal): Promise<T>;
  /** What the schemas show of it, as text: a load that changes this tells the listeners, another does not. */
  fingerprint(data: T): string;
}

export interface RefreshingMetadata<T> {
  /** Undefined until the first load succeeds; after that the last good load. */
  current(): T | undefined;
  /** While nothing has loaded: why the last load failed; undefined before the first attempt ends, and after any success. */
  failure(): string | undefined;
  /** Loads now and then every TTL; never throws (failures are logged and retried at the next tick). */
  start(): void;
  /**
   * Loads now, outside the timer, after a load in flight; resolves when it has settled (a failure is kept, not
   * thrown). With a signal, stops waiting (rejecting with its reason) when it aborts; the load goes on.
   */
  refresh(signal?: AbortSignal): Promise<void>;
  /** Stops the timer, aborts a load in flight, and resolves once it has settled. */
  stop(): Promise<void>;
  /** Called after a load that changed what the schemas show, and when a new reason keeps them generic. */
  onChange(listener: () => void): void;
}

/** Two minutes: a tracker with many projects or fields reads dozens of pages, but a stalled request must end. */
export const LOAD_TIMEOUT_MS = 120_000;

/** How long the loader's lease lasts past its last renewal: a process that dies mid-load frees it this soon. */
export const SHARED_LEASE_MS = 10_000;
/** How often a process waiting on another's load looks again, besides hearing of its write. */
export const SHARED_RECHECK_MS = 1_000;
/**
 * The longest a process waits on the shared store before it loads by itself: a safety net, since the cluster's
 * store answers within its own command bound (250 ms) and at once while Redis is down. Loose, because a process
 * that starts on a busy machine may not run for a second or more, and a bound that ends while the answer waits to
 * be read costs the tracker a load.
 */
export const SHARED_WAIT_MS = 3_000;
/** At most this much later than the shared copy expires, a process looks again: so they do not all claim at once. */
const SHARED_JITTER_MS = 250;

const UNAVAILABLE = { kind: 'unavailable' } as const;

/** What the debug log says of each answer to a claim. */
const SAID: Record<SharedClaim['kind'], string> = {
  found: 'found, used as is',
  lease: 'missing: this process loads it',
  held: 'being loaded by another process',
  unavailable: 'unreachable: this process loads it',
};

/**
 * The store's answer, or `unavailable` past SHARED_WAIT_MS: a slow Redis costs a local load, never a stall. A
 * lease granted after that is released at once, or its renewals would keep every other process waiting.
 */
function bounded<T extends SharedClaim | SharedRead>(answer: Promise<T>): Promise<T | typeof UNAVAILABLE> {
  let timer: NodeJS.Timeout | undefined;
  let gaveUp = false;
  const late = new Promise<typeof UNAVAILABLE>((resolve) => {
    // Timers run before I/O in each turn of the event loop: after a stall, an answer already received is read
    // first (setImmediate runs after the I/O), so it is not given up on.
    timer = setTimeout(
      () =>
        setImmediate(() => {
          gaveUp = true;
          resolve(UNAVAILABLE);
        }),
      SHARED_WAIT_MS,
    ).unref();
  });
  const answered = answer.then(
    (value) => {
      if (gaveUp && value.kind === 'lease') value.release();
      return value;
    },
    () => UNAVAILABLE,
  );
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}

/** Rejects when `signal` aborts: a load that ignores its signal must still not hold the store. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

/**
 * With `sharing` (a cluster), each tick first claims the shared copy: fresh, it is used as is (no request); else
 * the process that gets the lease loads and stores it for the TTL, and the others take it when told of the write
 * (or when they look again). The store unreachable or slow: this process loads by itself, as without a cluster.
 */
export function createRefreshingMetadata<T>(
  source: MetadataSource<T>,
  logger: Logger,
  sharing?: MetadataSharing,
): RefreshingMetadata<T> {
  let data: T | undefined;
  let shown: string | undefined;
  let lastFailure: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let loading: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  const listeners: (() => void)[] = [];
  const tell = () => {
    if (stopped) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          'metadata listener failed',
        );
      }
    }
  };

  /** Loads from the source; resolves the data when it succeeded (and is now current). */
  const load = async (): Promise<T | undefined> => {
    const timeoutMs = source.timeoutMs ?? LOAD_TIMEOUT_MS;
    const tooLong = new AbortController();
    const timer = setTimeout(() => tooLong.abort(new Error('timed out')), clampDelay(timeoutMs)).unref();
    const signal = AbortSignal.any([stopping.signal, tooLong.signal]);
    let next: T;
    let fingerprint: string;
    try {
      next = await Promise.race([source.load(signal), untilAborted(signal)]);
      fingerprint = source.fingerprint(next);
    } catch (error) {
      if (stopped) return undefined;
      const previous = lastFailure;
      lastFailure = tooLong.signal.aborted
        ? `no answer within ${timeoutMs / 1000} s`
        : error instanceof Error
          ? error.message
          : String(error);
      logger.warn(
        { err: lastFailure },
        data === undefined
          ? `cannot load ${source.what}; schemas stay generic until the next try`
          : `cannot reload ${source.what}; schemas keep the last load until the next try`,
      );
      // Generic schemas say why in their descriptions: a new reason changes what they show.
      if (data === undefined && lastFailure !== previous) tell();
      return undefined;
    } finally {
      clearTimeout(timer);
    }
    use(next, fingerprint);
    return next;
  };
  const use = (next: T, fingerprint: string) => {
    const changed = fingerprint !== shown;
    data = next;
    shown = fingerprint;
    lastFailure = undefined;
    if (changed) tell();
  };

  /** Takes another process's load; false when it cannot be read back whole (then this process loads itself). */
  const adopt = (text: string): boolean => {
    const stored = decodeMetadata(text, source.fingerprint);
    if (stored === undefined) {
      logger.warn({}, `the shared copy of ${source.what} cannot be read; loading it here`);
      return false;
    }
    use(stored.data, stored.fingerprint);
    return true;
  };
  const store = async (shared: MetadataSharing, next: T) => {
    const text = encodeMetadata(next, source.fingerprint(next));
    if (!(await shared.state.write(shared.key, text, source.ttlMs)))
      logger.debug({}, `${source.what} not shared: the cluster's store did not take it`);
  };
  const jitter = () => Math.floor(Math.random() * Math.min(SHARED_JITTER_MS, source.ttlMs / 10));

  /** One tick: the shared copy, else the lease and a load, else a wait on the holder's; resolves the next delay. */
  const tick = async (): Promise<number> => {
    if (!sharing) {
      await load();
      return source.ttlMs;
    }
    const claim = await bounded(sharing.state.claim(sharing.key, SHARED_LEASE_MS));
    logger.debug({ shared: claim.kind }, `${source.what}: shared copy ${SAID[claim.kind]}`);
    if (stopped) {
      if (claim.kind === 'lease') claim.release();
      return source.ttlMs;
    }
    if (claim.kind === 'found' && adopt(claim.value)) return claim.ttlLeftMs + jitter();
    if (claim.kind === 'held') return Math.min(SHARED_RECHECK_MS, source.ttlMs);
    try {
      const next = await load();
      if (next !== undefined && claim.kind !== 'unavailable') await store(sharing, next);
    } finally {
      if (claim.kind === 'lease') claim.release();
    }
    return source.ttlMs;
  };
  /** Told another process stored a load: take it, and look again when it expires; undefined when it is gone. */
  const reread = async (shared: MetadataSharing): Promise<number | undefined> => {
    const read = await bounded(shared.state.read(shared.key));
    if (stopped || read.kind !== 'found' || !adopt(read.value)) return undefined;
    return read.ttlLeftMs + jitter();
  };
  /** Loads now, whatever the shared copy, and stores the result: an explicit refresh is for what just changed. */
  const reload = async () => {
    const next = await load();
    if (next !== undefined && sharing) await store(sharing, next);
  };

  // Loads never overlap: one asked for during another runs after it.
  const queue = <R>(work: () => Promise<R>): Promise<R> => {
    const done = loading.then(work);
    loading = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  };
  let started = false;
  const schedule = (delayMs: number) => {
    if (stopped || !started) return;
    clearTimeout(timer);
    timer = setTimeout(next, clampDelay(delayMs)).unref();
  };
  const next = () => {
    void queue(tick).then(schedule, () => schedule(source.ttlMs));
  };
  let unsubscribe: (() => void) | undefined;

  return {
    current: () => data,
    failure: () => (data === undefined ? lastFailure : undefined),
    start() {
      if (started) return;
      started = true;
      if (sharing) {
        const shared = sharing;
        unsubscribe = shared.state.onWritten(shared.key, () => {
          void queue(() => reread(shared)).then((delayMs) => {
            if (delayMs !== undefined) schedule(delayMs);
          });
        });
      }
      next();
    },
    refresh(signal) {
      const done = queue(reload);
      return signal ? Promise.race([done, untilAborted(signal)]) : done;
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearTimeout(timer);
      stopping.abort();
      await loading;
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
