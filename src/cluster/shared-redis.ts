// What every shared part of a cluster member uses of Redis: the command connection, the subscriber, the key prefix
// and the round-trip count, so each part (events, speculative cache, learning, budgets, metadata) adds only its logic.
import type { Logger } from '../contract/index.js';
import type { RedisClient, RedisConnection } from './redis-connection.js';

export interface SharedRedisOptions {
  /** Sends every command but SUBSCRIBE; refused at once while down. */
  commands: RedisConnection;
  /** Holds the subscriptions (a subscribed connection can send nothing else). */
  subscriber: RedisConnection;
  /** What every key and channel of this deployment starts with. */
  keyPrefix: string;
  logger: Logger;
  /** Told of each command sent (the `foresight_redis_roundtrips_total` metric). Default none. */
  onRoundTrip?: () => void;
}

export class SharedRedis {
  constructor(private readonly options: SharedRedisOptions) {}

  get logger(): Logger {
    return this.options.logger;
  }

  /** Whether a command sent now would reach Redis (both connections up: a part that subscribes needs both). */
  get ready(): boolean {
    return this.options.commands.ready && this.options.subscriber.ready;
  }

  /** The command client; call `roundTrip()` for each command sent through it. */
  get client(): RedisClient {
    return this.options.commands.client;
  }

  /** `name` under this deployment's prefix: `key('spec:e:…')` → `foresight:spec:e:…`. */
  key(name: string): string {
    return `${this.options.keyPrefix}${name}`;
  }

  /** Hears each time the command connection becomes ready: at first connect and after every reconnect. */
  onCommandsReady(listener: () => void): void {
    this.options.commands.client.on('ready', listener);
  }

  /** Hears each change of `ready` (told once per change, however many connections and events noticed it). */
  onReadyChange(listener: (ready: boolean) => void): void {
    let last = this.ready;
    const check = () => {
      // node-redis flips isReady after emitting some of these events: look once the current turn is done.
      queueMicrotask(() => {
        const now = this.ready;
        if (now === last) return;
        last = now;
        listener(now);
      });
    };
    for (const connection of [this.options.commands, this.options.subscriber])
      for (const event of ['ready', 'end', 'error', 'reconnecting']) connection.client.on(event, check);
  }

  roundTrip(): void {
    this.options.onRoundTrip?.();
  }

  /**
   * Hears every message on `channel` (named under the prefix) from now on, subscribing again each time the
   * subscriber reconnects: SUBSCRIBE is refused while Redis is down, and repeating it on a live subscription keeps
   * the one listener. `onSubscribed` hears each confirmed subscription.
   */
  subscribe(channel: string, listener: (message: string) => void, onSubscribed?: () => void): void {
    const { subscriber, logger } = this.options;
    const name = this.key(channel);
    const send = () => {
      subscriber.client
        .subscribe(name, listener)
        .then(() => onSubscribed?.())
        .catch((error: unknown) =>
          logger.debug({ err: String(error), channel: name }, 'subscribe failed; retried on reconnect'),
        );
    };
    subscriber.client.on('ready', send);
    if (subscriber.ready) send();
  }

  /** PUBLISH on `channel` (under the prefix), never throwing: a lost message is the listeners' to live with. */
  publish(channel: string, message: string): void {
    if (!this.options.commands.ready) return;
    Promise.resolve()
      .then(() => {
        const sent = this.client.publish(this.key(channel), message);
        this.roundTrip();
        return sent;
      })
      .catch((error: unknown) =>
        this.options.logger.debug({ err: String(error), channel }, 'publish failed'),
      );
  }
}

/**
 * A message of one of the cluster's channels: a JSON object naming its sender in `from`. Undefined for anything else
 * (another program on the channel, a bad key prefix), which every listener ignores.
 */
export function parseChannelMessage(text: string): (Record<string, unknown> & { from: string }) | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  return typeof message.from === 'string'
    ? (message as Record<string, unknown> & { from: string })
    : undefined;
}
