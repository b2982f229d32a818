// How shared speculation sends a Redis command: bounded by the lookup timeout, so Redis never delays an agent's call,
// or sent with nobody waiting for it.
import type { SharedRedis } from './shared-redis.js';

/** One command, given up after `timeoutMs` (undefined then, or when it fails): never an agent's delay. */
export async function boundedCommand<T>(
  redis: SharedRedis,
  timeoutMs: number,
  command: () => Promise<T>,
): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    redis.roundTrip();
    return await Promise.race([
      command(),
      new Promise<undefined>((resolve) => {
        // Given up only after one more look at the sockets: when this process's own event loop was the slow part
        // (a long synchronous task), the answer is there already and is read before this check runs.
        timer = setTimeout(() => setImmediate(() => resolve(undefined)), timeoutMs);
      }),
    ]);
  } catch (error) {
    redis.logger.debug({ err: String(error) }, 'shared speculation: command failed or too slow');
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** A command nobody waits for, skipped while Redis is down; its failure costs sharing one result, never a call. */
export function sendUnwaited(
  redis: SharedRedis,
  command: (client: SharedRedis['client']) => Promise<unknown>,
  what: string,
): void {
  if (!redis.ready) return;
  redis.roundTrip();
  Promise.resolve()
    .then(() => command(redis.client))
    .catch((error: unknown) =>
      redis.logger.debug({ err: String(error), what }, 'shared speculation: command failed'),
    );
}
