// The roots of the agents' clients, for plugins that need them outside a call (an upstream server asking for
// roots when it starts): sessions register how to ask their client, plugins ask and listen for changes.
import type { Root } from '@modelcontextprotocol/server';
import { describeThrown, type Logger } from '../contract/index.js';

/** How to ask one connected client for its roots. */
export type RootsSource = () => Promise<Root[]>;

export class ClientRoots {
  readonly #sources = new Set<RootsSource>();
  readonly #listeners = new Set<() => void>();

  constructor(private readonly logger: Logger) {}

  /** A client that declared `roots` connected; returns what to call when it leaves. */
  addSource(source: RootsSource): () => void {
    this.#sources.add(source);
    this.changed();
    return () => {
      if (this.#sources.delete(source)) this.changed();
    };
  }

  /**
   * The roots of the one connected client that has roots, or undefined when there is none or several
   * (whose would they be?): over stdio there is one; over HTTP, one session at a time is the common case.
   */
  async current(): Promise<Root[] | undefined> {
    if (this.#sources.size !== 1) return undefined;
    const [source] = this.#sources;
    return source?.();
  }

  /** Returns the unsubscribe. */
  onChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A client said its roots changed, or one with roots came or went. */
  changed(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.error({ err: describeThrown(error) }, 'roots listener failed');
      }
    }
  }
}
