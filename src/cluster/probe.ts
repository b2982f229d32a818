// One look at Redis for `foresight check`: connect once (no retries), PING, and say how long it took.
import { createClient } from 'redis';

export type RedisProbe = { ok: true; ms: number } | { ok: false; reason: string };

/** Default bound of the whole probe: a check must not hang on a black-holed address. */
export const DEFAULT_PROBE_TIMEOUT_MS = 2_000;

/** Whether Redis at `url` answers PING within `timeoutMs`; the reason never holds the URL (only host and port). */
export async function probeRedis(url: string, timeoutMs = DEFAULT_PROBE_TIMEOUT_MS): Promise<RedisProbe> {
  const started = performance.now();
  const client = createClient({
    url,
    socket: { connectTimeout: timeoutMs, reconnectStrategy: false },
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
  });
  let firstError: unknown;
  client.on('error', (error: unknown) => {
    firstError ??= error;
  });
  try {
    await client.connect();
    await client.ping();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, reason: reasonOf(firstError ?? error) };
  } finally {
    if (client.isOpen) client.destroy();
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  const text = error instanceof Error ? error.message : String(error);
  return text === '' ? 'no answer' : text;
}
