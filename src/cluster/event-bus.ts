// Change events shared by every process of a cluster over Redis pub/sub, delivered locally first so that a listen
// stream on this process never waits on, or misses an event because of, Redis.
import { randomUUID } from 'node:crypto';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import type { Logger } from '../host/index.js';
import type { RedisConnection } from './redis-connection.js';

/** One event on the channel: who published it, so its publisher can skip its own (already delivered locally). */
interface Envelope {
  from: string;
  event: ServerEvent;
}

export interface RedisEventBusOptions {
  /** Sends PUBLISH; commands are refused at once while it is down. */
  publisher: RedisConnection;
  /** Told of each PUBLISH sent. Default none. */
  onRoundTrip?: () => void;
  /** Holds the SUBSCRIBE (a subscribed connection can send nothing else). */
  subscriber: RedisConnection;
  /** The pub/sub channel, `<key_prefix>events`. */
  channel: string;
  logger: Logger;
}

/**
 * A `ServerEventBus` over Redis pub/sub. `publish` delivers to this process's listeners at once, then sends the event
 * to the channel when Redis is reachable; events from the channel reach the local listeners unless this process sent
 * them. With Redis down, events still reach this process's streams (those of the others miss them, as with N
 * separate processes) and nothing throws; node-redis subscribes again when the connection returns.
 */
export class RedisServerEventBus implements ServerEventBus {
  readonly #local: InMemoryServerEventBus;
  readonly #origin = randomUUID();
  readonly #options: RedisEventBusOptions;

  constructor(options: RedisEventBusOptions) {
    this.#options = options;
    this.#local = new InMemoryServerEventBus((error) =>
      options.logger.warn({ err: error.message }, 'event bus listener failed'),
    );
  }

  readonly #onMessage = (message: string) => this.#received(message);
  #started = false;
  #shared = false;

  /**
   * Subscribes to the channel now if the subscriber is connected, and again each time it connects: SUBSCRIBE is
   * refused while Redis is down, and sending it again on a live subscription is harmless (the same listener is
   * kept once).
   */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const { subscriber } = this.#options;
    subscriber.client.on('ready', () => this.#subscribe());
    if (subscriber.ready) this.#subscribe();
  }

  #subscribe(): void {
    const { subscriber, channel, logger } = this.#options;
    subscriber.client
      .subscribe(channel, this.#onMessage)
      .then(() => {
        // Once per process: the line operators (and tests) wait for before counting on shared events.
        if (this.#shared) return;
        this.#shared = true;
        logger.info({ channel }, 'cluster: change events shared over redis');
      })
      .catch((error: unknown) =>
        logger.debug({ err: String(error) }, 'event bus: subscribe failed; retried on reconnect'),
      );
  }

  publish(event: ServerEvent): void {
    this.#local.publish(event);
    const { publisher, channel, logger } = this.#options;
    if (!publisher.ready) return;
    const envelope: Envelope = { from: this.#origin, event };
    // Not awaited: the caller is the host telling of a change, which must not wait on Redis. A failure is one
    // event the other processes miss; the outage log says when Redis itself is gone.
    const unshared = (error: unknown) =>
      logger.debug({ err: String(error), kind: event.kind }, 'event not shared');
    // Guarded whole: params that do not serialize, or a client that throws rather than rejects, cost the other
    // processes this event and never reach the publishing call.
    Promise.resolve()
      .then(() => {
        const sent = publisher.client.publish(channel, JSON.stringify(envelope));
        this.#options.onRoundTrip?.();
        return sent;
      })
      .catch(unshared);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    return this.#local.subscribe(listener);
  }

  #received(message: string): void {
    const envelope = parseEnvelope(message);
    if (envelope === undefined) {
      this.#options.logger.debug(
        { channel: this.#options.channel },
        'event bus: message ignored (not an event)',
      );
      return;
    }
    if (envelope.from === this.#origin) return;
    this.#local.publish(envelope.event);
  }
}

const LIST_KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed']);

/** The envelope in `message`, or undefined for anything else (another program sharing the channel, a bad prefix). */
export function parseEnvelope(message: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { from, event } = value as { from?: unknown; event?: unknown };
  if (typeof from !== 'string' || typeof event !== 'object' || event === null) return undefined;
  const { kind, uri, params } = event as { kind?: unknown; uri?: unknown; params?: unknown };
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return undefined;
  const forwarded = params === undefined ? {} : { params: params as ServerEvent['params'] };
  if (kind === 'resource_updated' && typeof uri === 'string')
    return { from, event: { kind, uri, ...forwarded } };
  if (typeof kind === 'string' && LIST_KINDS.has(kind))
    return { from, event: { kind, ...forwarded } as ServerEvent };
  return undefined;
}
