// The projects' metadata, loaded in the background and kept fresh: the enums and cf_ parameters of the schemas.
import type { Logger } from '../../host/index.js';
import type { JiraClient } from './client.js';
import { type JiraMetadata, type ProjectMeta, loadMetadata } from './metadata-load.js';
import type { JiraSettings } from './options.js';

export type { JiraMetadata, ProjectMeta } from './metadata-load.js';

export interface MetadataStore {
  /** Undefined until the first load succeeds; after that the last good load. */
  current(): JiraMetadata | undefined;
  /** One project's metadata, when loaded. */
  project(key: string): ProjectMeta | undefined;
  /** Why the schemas are generic, when they are: still loading, or the last load's failure. */
  problem(): string | undefined;
  /** Loads now and then every TTL; never throws (failures are logged and retried at the next tick). */
  start(): void;
  /** Loads now, outside the timer; resolves when the load has settled. */
  refresh(): Promise<void>;
  /** Stops the timer, aborts a load in flight, and resolves once it has settled. */
  stop(): Promise<void>;
  /** Called after a load whose metadata differs from the one before. */
  onChange(listener: () => void): void;
}

function fingerprint(data: JiraMetadata): string {
  return JSON.stringify([
    [...data.projects.values()],
    [...data.failed.keys()],
    data.priorities,
    data.linkTypes,
    data.special,
  ]);
}

export function createMetadataStore(
  client: JiraClient,
  settings: JiraSettings,
  logger: Logger,
): MetadataStore {
  let data: JiraMetadata | undefined;
  let failure: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let loading: Promise<void> | undefined;
  const stopping = new AbortController();
  const listeners: (() => void)[] = [];

  const load = async () => {
    try {
      const next = await loadMetadata(
        client,
        { signal: stopping.signal },
        settings.projects,
        settings.flavor,
      );
      failure = undefined;
      const changed = data === undefined || fingerprint(data) !== fingerprint(next);
      data = next;
      if (changed && !stopped) for (const listener of listeners) listener();
    } catch (error) {
      if (stopped) return;
      const hadProblem = failure !== undefined;
      failure = error instanceof Error ? error.message : String(error);
      logger.warn(
        { err: failure },
        `cannot load the metadata of ${settings.projects.join(', ')}; schemas stay generic until the next try`,
      );
      // The tool descriptions say the metadata failed: the first failure changes them.
      if (data === undefined && !hadProblem) for (const listener of listeners) listener();
    }
  };

  // Loads never overlap: a refresh during a load waits for it and then loads again.
  const next = (): Promise<void> => {
    const run = (loading ?? Promise.resolve()).then(load);
    loading = run;
    return run;
  };

  return {
    current: () => data,
    project: (key) => data?.projects.get(key),
    problem: () =>
      data !== undefined
        ? undefined
        : failure === undefined
          ? 'still loading'
          : `could not be loaded (${failure})`,
    start() {
      const tick = () => {
        void next().finally(() => {
          if (!stopped) timer = setTimeout(tick, settings.metadataTtlMs).unref();
        });
      };
      tick();
    },
    refresh: () => next(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await loading;
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
