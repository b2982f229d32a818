// A tracker's metadata (labels, statuses, custom fields…) loaded in the background and reloaded every TTL: what
// the enrichers turn into enums and typed parameters. Until a first load succeeds the schemas stay generic.
import type { Logger } from '../../host/index.js';

export interface MetadataSource<T> {
  /** What is loaded, for the log line when it fails: "labels and milestones of group/project". */
  what: string;
  /** Milliseconds between the end of one load and the start of the next. */
  ttlMs: number;
  /** Reads it all; `signal` aborts when the store stops. */
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
  /** Loads now, outside the timer, after a load in flight; resolves when it has settled (a failure is kept, not thrown). */
  refresh(): Promise<void>;
  /** Stops the timer, aborts a load in flight, and resolves once it has settled. */
  stop(): Promise<void>;
  /** Called after a load that changed what the schemas show, and when a new reason keeps them generic. */
  onChange(listener: () => void): void;
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
    if (!stopped) for (const listener of listeners) listener();
  };

  const load = async () => {
    try {
      const next = await source.load(stopping.signal);
      const fingerprint = source.fingerprint(next);
      const changed = fingerprint !== shown;
      data = next;
      shown = fingerprint;
      lastFailure = undefined;
      if (changed) tell();
    } catch (error) {
      if (stopped) return;
      const previous = lastFailure;
      lastFailure = error instanceof Error ? error.message : String(error);
      logger.warn(
        { err: lastFailure },
        `cannot load ${source.what}; schemas stay generic until the next try`,
      );
      // Generic schemas say why in their descriptions: a new reason changes what they show.
      if (data === undefined && lastFailure !== previous) tell();
    }
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
          if (!stopped) timer = setTimeout(tick, source.ttlMs).unref();
        });
      };
      tick();
    },
    refresh: queue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await loading;
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
