// A wait that ends early, rejecting with the signal's reason, when the call it serves is cancelled or times out.
import { clampDelay } from '../../contract/index.js';

/** Resolves after `ms` (at most the timer limit: a server's Retry-After is data, not a promise); rejects with `signal.reason` as soon as the signal aborts (at once if it already has). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, clampDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
