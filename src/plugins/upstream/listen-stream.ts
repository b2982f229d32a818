// The one `subscriptions/listen` stream of a 2026-07-28 upstream connection: its list changes and the resources
// some agent subscribed to, opened again whenever that set changes (a stream's filter cannot be amended).
import type { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { describeThrown, type Logger } from '../../contract/index.js';

/**
 * A stream that ended by itself sooner than this after opening is not opened again at once: a server that ends
 * every stream must not be asked in a loop. (Subscribing or a reconnect opens it again.)
 */
const MIN_STREAM_MS = 1_000;

export class ListenStream {
  #subscription: McpSubscription | undefined;
  /** The resources the open stream carries, sorted and joined: an unchanged set is not opened again. */
  #openedWith = '';
  /** The latest set asked for: what a stream the server ended is opened again with. */
  #wanted: readonly string[] = [];
  /** Updates, one at a time in the order asked, so an older set never ends up open. */
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  /**
   * `lists`: the list changes to hear, as the server offers them; `subscribable`: the server takes resource
   * subscriptions (`resources.subscribe`), else the resources asked for are not sent.
   */
  constructor(
    private readonly client: Client,
    private readonly lists: SubscriptionFilter,
    private readonly subscribable: boolean,
    private readonly logger: Logger,
  ) {}

  /**
   * Listens for the list changes and for updates of `uris`: resolves once the server has acknowledged the stream
   * (at once when it is open with these already). `signal` bounds the wait for that acknowledgement only.
   */
  update(uris: readonly string[], signal?: AbortSignal): Promise<void> {
    this.#wanted = uris;
    const next = this.#queue.then(() => this.#open(uris, signal));
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * The connection is closing, which ends the stream with it: from now on its end is not taken for the
   * server's, and updates open nothing. (Nothing is sent: the server may be gone already.)
   */
  stop(): void {
    this.#closed = true;
    this.#subscription = undefined;
  }

  async #open(uris: readonly string[], signal: AbortSignal | undefined): Promise<void> {
    const resources = this.subscribable ? [...new Set(uris)].sort() : [];
    const key = resources.join('\n');
    if (this.#closed || (this.#subscription !== undefined && key === this.#openedWith)) return;
    const filter: SubscriptionFilter = {
      ...this.lists,
      ...(resources.length > 0 ? { resourceSubscriptions: resources } : {}),
    };
    const previous = this.#subscription;
    if (Object.keys(filter).length === 0) {
      this.#subscription = undefined;
      await previous?.close();
      return;
    }
    // The signal ends a stream for good once given (the SDK closes it on abort), so it only races the
    // acknowledgement here, and the SDK's own timer bounds that.
    const opened = this.client.listen(filter);
    const acknowledged = signal ? raceAbort(opened, signal) : opened;
    const subscription = await acknowledged;
    // The new stream is open before the old one ends, so no change falls between them; one heard on both
    // reaches the agent twice, which a change notice allows.
    this.#subscription = subscription;
    this.#openedWith = key;
    this.#watch(subscription, Date.now());
    await previous?.close();
  }

  /** A stream the server ended (not replaced by us) is opened again with the set wanted now. */
  #watch(subscription: McpSubscription, openedAt: number): void {
    void subscription.closed.then((how) => {
      if (how === 'local' || this.#closed || this.#subscription !== subscription) return;
      this.#subscription = undefined;
      // The connection itself closed (the SDK ends its streams first): reconnecting listens anew.
      if (this.client.transport === undefined) return;
      if (Date.now() - openedAt < MIN_STREAM_MS) {
        this.logger.warn({ how }, 'upstream: the server ended its listen stream; not opening it again yet');
        return;
      }
      this.update(this.#wanted).catch((error: unknown) => {
        this.logger.warn({ err: describeThrown(error) }, 'upstream: could not listen again');
      });
    });
  }
}

/**
 * `opened`, or a rejection when `signal` aborts first. A stream acknowledged after that is closed, as nobody
 * holds it.
 */
function raceAbort(opened: Promise<McpSubscription>, signal: AbortSignal): Promise<McpSubscription> {
  if (signal.aborted) {
    void opened.then((late) => late.close()).catch(() => {});
    return Promise.reject(signal.reason as Error);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      void opened.then((late) => late.close()).catch(() => {});
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    opened.then(
      (subscription) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) return;
        resolve(subscription);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
