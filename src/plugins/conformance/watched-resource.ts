// test://watched-resource: a text resource that changes on a timer and tells the host, which tells subscribers.
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import type { Logger } from '../../contract/index.js';

export const WATCHED_RESOURCE_URI = 'test://watched-resource';

export interface WatchedResourceOptions {
  /** Milliseconds between changes; 0 means it never changes. */
  intervalMs: number;
  /** Called with the resource's URI after each change. */
  notifyUpdated(uri: string): void;
  logger: Logger;
}

export interface WatchedResource {
  readonly resource: Resource;
  read(): ReadResourceResult;
  /** Starts the timer; idempotent. */
  start(): void;
  stop(): void;
}

export function createWatchedResource(options: WatchedResourceOptions): WatchedResource {
  let revision = 0;
  let timer: NodeJS.Timeout | undefined;

  const tick = () => {
    revision += 1;
    try {
      options.notifyUpdated(WATCHED_RESOURCE_URI);
    } catch (error) {
      options.logger.warn({ err: error, uri: WATCHED_RESOURCE_URI }, 'could not announce a resource update');
    }
  };

  return {
    resource: {
      uri: WATCHED_RESOURCE_URI,
      name: 'watched-resource',
      title: 'Watched Resource',
      description:
        options.intervalMs > 0
          ? `Text that changes every ${options.intervalMs} ms; subscribe to be told (resources/subscribe).`
          : 'Text that can be subscribed to (resources/subscribe); updates are turned off in this configuration.',
      mimeType: 'text/plain',
    },
    read: () => ({
      contents: [
        {
          uri: WATCHED_RESOURCE_URI,
          mimeType: 'text/plain',
          text: `Watched resource content, revision ${revision}`,
        },
      ],
    }),
    start() {
      if (options.intervalMs === 0 || timer) return;
      timer = setInterval(tick, options.intervalMs);
      // A fixture's timer must never keep the process alive on its own.
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
