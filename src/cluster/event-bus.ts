// Change events shared by every process of a cluster over Redis pub/sub, delivered locally first so that a listen
// stream on this process never waits on, or misses an event because of, Redis.
import { randomUUID } from 'node:crypto';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import { type SharedRedis, parseChannelMessage } from './shared-redis.js';

/** One event on the channel: who published it, so its publisher can skip its own (already delivered locally). */
interface Envelope {
  from: string;
  event: ServerEvent;
}

/** The channel under the key prefix: `<key_prefix>events`. */
export const EVENTS_CHANNEL = 'events';

/**
 * A `ServerEventBus` over Redis pub/sub. `publish` delivers to this process's listeners at once, then sends the event
 * to the channel when Redis is reachable; events from the channel reach the local listeners unless this process sent
 * them. With Redis down, events still reach this process's streams (those of the others miss them, as with N
 * separate processes) and nothing throws; the subscription is renewed when the connection returns.
 */
export class RedisServerEventBus implements ServerEventBus {
  readonly #local: InMemoryServerEventBus;
  readonly #origin = randomUUID();
  #started = false;
  #shared = false;

  constructor(private readonly redis: SharedRedis) {
    this.#local = new InMemoryServerEventBus((error) =>
      redis.logger.warn({ err: error.message }, 'event bus listener failed'),
    );
  }

  /** Subscribes to the channel, now and after each reconnect. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.redis.subscribe(
      EVENTS_CHANNEL,
      (message) => this.#received(message),
      () => {
        // Once per process: the line operators (and tests) wait for before counting on shared events.
        if (this.#shared) return;
        this.#shared = true;
        this.redis.logger.info(
          { channel: this.redis.key(EVENTS_CHANNEL) },
          'cluster: change events shared over redis',
        );
      },
    );
  }

  publish(event: ServerEvent): void {
    this.#local.publish(event);
    let message: string;
    try {
      message = JSON.stringify({ from: this.#origin, event } satisfies Envelope);
    } catch (error) {
      // Params that do not serialize cost the other processes this event, never the publishing call.
      this.redis.logger.debug({ err: String(error), kind: event.kind }, 'event not shared');
      return;
    }
    // Not awaited: the caller is the host telling of a change, which must not wait on Redis.
    this.redis.publish(EVENTS_CHANNEL, message);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    return this.#local.subscribe(listener);
  }

  #received(message: string): void {
    const envelope = parseEnvelope(message);
    if (envelope === undefined) {
      this.redis.logger.debug(
        { channel: this.redis.key(EVENTS_CHANNEL) },
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
  const value = parseChannelMessage(message);
  if (value === undefined) return undefined;
  const { from, event } = value;
  if (typeof event !== 'object' || event === null) return undefined;
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
