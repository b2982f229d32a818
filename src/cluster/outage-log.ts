// Says once that Redis went away and once that it came back, however many connections and commands noticed.
import type { Logger } from '../contract/index.js';

/**
 * Tracks which connections are down. The first one to fail logs a warning; the last one to come back logs that
 * sharing resumed. Every failed command and reconnect attempt in between stays quiet (debug), so an outage of an
 * hour is two lines, not thousands.
 */
export class OutageLog {
  readonly #down = new Set<string>();
  #outage = false;

  constructor(
    private readonly logger: Logger,
    /** Where Redis is, as logs may say it (no credentials). */
    private readonly endpoint: string,
  ) {}

  /** Whether some connection is down now. */
  get outage(): boolean {
    return this.#outage;
  }

  failed(connection: string, error: unknown): void {
    this.#down.add(connection);
    const detail = error instanceof Error ? error.message : String(error);
    if (this.#outage) {
      this.logger.debug({ redis: this.endpoint, connection, error: detail }, 'redis still unreachable');
      return;
    }
    this.#outage = true;
    this.logger.warn(
      { redis: this.endpoint, connection, error: detail },
      'redis unreachable: serving from local state (change events reach this process only) until it returns',
    );
  }

  ready(connection: string): void {
    this.#down.delete(connection);
    if (!this.#outage || this.#down.size > 0) return;
    this.#outage = false;
    this.logger.info({ redis: this.endpoint }, 'redis reachable again: sharing resumed');
  }
}
