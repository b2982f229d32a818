// One connection to Redis that never blocks or fails an agent's call: short timeouts, background reconnects,
// commands refused at once (not queued) while it is down.
import { type RedisClientType, createClient } from 'redis';
import type { OutageLog } from './outage-log.js';

export interface RedisConnectionOptions {
  url: string;
  /** What the outage log calls this connection ("commands", "events"). */
  name: string;
  outages: OutageLog;
  /** How long one connection attempt may take; default 1000 ms. */
  connectTimeoutMs?: number;
  /** How long one command may take before it is given up (the caller falls back to local state); default 250 ms. */
  commandTimeoutMs?: number;
  /** The longest pause between reconnect attempts; default 2000 ms. */
  maxRetryDelayMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 1_000;
export const DEFAULT_COMMAND_TIMEOUT_MS = 250;
export const DEFAULT_MAX_RETRY_DELAY_MS = 2_000;

export type RedisClient = RedisClientType;

export class RedisConnection {
  readonly client: RedisClient;
  #closed = false;

  constructor(private readonly options: RedisConnectionOptions) {
    const maxDelay = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    this.client = createClient({
      url: options.url,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        // Retry for ever, 100 ms more each time up to the cap: Redis may come back at any time.
        reconnectStrategy: (retries: number) => Math.min((retries + 1) * 100, maxDelay),
      },
      // A command queued while Redis is down would hold its caller until the timeout: refuse it at once instead.
      disableOfflineQueue: true,
      commandOptions: { timeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS },
    }) as RedisClient;
    // Without an 'error' listener node-redis would throw the error into the process.
    this.client.on('error', (error: unknown) => options.outages.failed(options.name, error));
    this.client.on('ready', () => options.outages.ready(options.name));
  }

  /** Whether a command sent now would reach Redis. */
  get ready(): boolean {
    return this.client.isReady;
  }

  /** Connects in the background; a failure is logged by the outage log and retried, never thrown. */
  start(): void {
    this.client.connect().catch((error: unknown) => {
      // close() during the first attempts ends connect() with an error of its own: nothing to report.
      if (!this.#closed) this.options.outages.failed(this.options.name, error);
    });
  }

  /** Drops the connection at once: what is still in flight is abandoned, as a process exit would. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.client.isOpen) this.client.destroy();
  }
}
