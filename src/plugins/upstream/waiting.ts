// How a call waits for its upstream to come back: until the next change of state, bounded by the call itself.
import type { RequestContext } from '../../contract/index.js';

/**
 * How long before its deadline a waiting call gives up, so that it can say it waited for a restart: at the
 * deadline itself the host answers first, with a message that only says the deadline passed. The host's timer
 * was set before this wait's, for a later time, so this one fires first however busy the process is.
 */
export const GIVE_UP_BEFORE_DEADLINE_MS = 100;

/** The longest delay setTimeout takes (2^31 − 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** What a request knows of the call it is made for. `signal` is read only when the call has to wait. */
export type CallOfRequest = Pick<RequestContext, 'signal' | 'timeLeftMs' | 'readOnly'>;

/** One call's wait, across as many changes of state as it takes; `end()` it in a `finally`. */
export class Waiting {
  readonly startedAt = Date.now();
  /** Rejects when the call gives up: its deadline is near (`onGiveUp`'s error), or its signal aborted. */
  readonly #over: Promise<never>;
  #end = () => {};

  constructor(call: CallOfRequest, onGiveUp: (waitedMs: number) => Error) {
    const signal = call.signal;
    this.#over = new Promise<never>((_, reject) => {
      const aborted = () => reject(signal.reason as Error);
      const timer = setTimeout(
        () => reject(onGiveUp(Date.now() - this.startedAt)),
        // Clamped: setTimeout takes a longer delay (a call with no deadline of its own) as 1 ms.
        Math.min(Math.max(0, call.timeLeftMs() - GIVE_UP_BEFORE_DEADLINE_MS), MAX_TIMER_MS),
      );
      signal.addEventListener('abort', aborted, { once: true });
      this.#end = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
      };
      if (signal.aborted) aborted();
    });
    // Each wait races it; a rejection after the last race must not count as unhandled.
    this.#over.catch(() => {});
  }

  /** Resolves when `changed` does; rejects if the call gives up first. */
  until(changed: Promise<void>): Promise<void> {
    return Promise.race([changed, this.#over]);
  }

  end(): void {
    this.#end();
  }
}
