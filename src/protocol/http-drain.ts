// The HTTP listener's drain: it counts the requests being answered in full, and once draining waits for them.
import type { ServerResponse } from 'node:http';

export class HttpDrain {
  #draining = false;
  #answering = 0;
  #drained: (() => void) | undefined;
  /** Set by the first drain(): a second one waits for the same requests. */
  #done: Promise<void> | undefined;

  readonly #answered = (): void => {
    this.#answering--;
    if (this.#draining && this.#answering === 0) this.#drained?.();
  };

  /** True once drain() has been called: nothing new is taken. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Counts a request until its response closes. */
  track(res: ServerResponse): void {
    this.#answering++;
    res.once('close', this.#answered);
  }

  /** A tracked response that stays open until close (a listen stream): the drain stops waiting for it now. */
  untrack(res: ServerResponse): void {
    this.#answered();
    res.removeListener('close', this.#answered);
  }

  /** Stops taking requests; resolves once every tracked one has been answered. */
  drain(): Promise<void> {
    this.#draining = true;
    this.#done ??=
      this.#answering === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.#drained = resolve));
    return this.#done;
  }
}
