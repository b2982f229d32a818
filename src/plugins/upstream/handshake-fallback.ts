// Whether a spawned server under `protocol = "auto"` is spoken to on the 2025 handshake instead: one that exits
// during its first connect may end on any first request but `initialize` (the `server/discover` probe).
import type { StderrTail } from './stderr-tail.js';
import type { UpstreamTarget } from './options.js';

/**
 * A server spawned under `protocol = "auto"` that exits during the first connect is tried once more at once on
 * the 2025 handshake, and spoken to that way from then on if that connects.
 */
export class HandshakeFallback {
  #stage: 'untried' | 'trying' | 'legacy' | 'spent' = 'untried';
  readonly #target: UpstreamTarget;

  constructor(target: UpstreamTarget) {
    this.#target = target;
  }

  /** The target to connect to: the configured one, or pinned to 2025-11-25 while trying or using the fallback. */
  target(): UpstreamTarget {
    return this.#stage === 'trying' || this.#stage === 'legacy'
      ? { ...this.#target, protocol: '2025-11-25' }
      : this.#target;
  }

  /**
   * Whether to try the 2025 handshake at once after a failed connect: once, for a spawned server under `auto`
   * whose process ended while connecting. A second failure is reported as any other (and `auto` stays).
   */
  tryAfterFailure(stderr: StderrTail | undefined): boolean {
    if (this.#stage === 'trying') this.#stage = 'spent';
    if (this.#stage !== 'untried') return false;
    const auto = this.#target.kind === 'stdio' && (this.#target.protocol ?? 'auto') === 'auto';
    if (!auto || stderr?.exit === undefined) return false;
    this.#stage = 'trying';
    return true;
  }

  /**
   * A connect succeeded; true when it was the fallback's try, which holds from now on. Only a server that never
   * connected under `auto` is taken for one that ends on the probe: a later crash of one that did connect says
   * nothing of its handshake.
   */
  connected(): boolean {
    if (this.#stage === 'untried') this.#stage = 'spent';
    else if (this.#stage === 'trying') {
      this.#stage = 'legacy';
      return true;
    }
    return false;
  }
}
