// A tracker's metadata (labels, statuses, custom fields…) loaded in the background and reloaded every TTL: what
// the enrichers turn into enums and typed parameters. Until a first load succeeds the schemas stay generic.
import { type Logger, clampDelay } from '../../host/index.js';

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

/** Rejects when `signal` aborts: a load that ignores its signal must still not hold the store. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

export function createRefreshingMetadata<T>(
  source: MetadataSource<T>,
  logger: Logger,
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

  const load = async () => {
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
      if (stopped) return;
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
      return;
    } finally {
      clearTimeout(timer);
    }
    const changed = fingerprint !== shown;
    data = next;
    shown = fingerprint;
    lastFailure = undefined;
    if (changed) tell();
  };
  // Loads never overlap: one asked for during another runs after it.
  const queue = (): Promise<void> => {
    loading = loading.then(load);
    return loading;
  };

  return {
    current: () => data,
    failure: () => (data === undefined ? lastFailure : undefined),
    start() {
      const tick = () => {
        void queue().finally(() => {
          if (!stopped) timer = setTimeout(tick, clampDelay(source.ttlMs)).unref();
        });
      };
      tick();
    },
    refresh: (signal) => (signal ? Promise.race([queue(), untilAborted(signal)]) : queue()),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await loading;
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
