// Waits for the first catalogs of plugins that load them in the background (an upstream server connecting), each
// wait bounded by its plugin's start deadline, so the first listing a client sees already holds them.
import { readHealth } from './catalog.js';
import { describeThrown, errors, isForesightError } from '../contract/index.js';
import { invokePlugin } from './invoke.js';
import type { Mount } from './mount.js';

/**
 * How often a plugin that says `starting` but has no `catalogsSettled()` is asked its health again. `health()` is
 * a pull with no change event, so only polling can tell; plugins with the hook (the upstream plugin) never pay it.
 */
const HEALTH_POLL_MS = 25;

export class FirstCatalogs {
  readonly #waits: Promise<void>[] = [];
  #all: Promise<void> | undefined;
  #settled = false;

  constructor(private readonly shutdown: AbortSignal) {}

  /** True once every watched plugin has its first catalogs or ran out of time: listings then wait for nothing. */
  get settled(): boolean {
    return this.#settled;
  }

  /** Begins the wait for one plugin; call it right after its `start()` returned, as its deadline counts from there. */
  watch(mount: Mount): void {
    const provider = mount.provider;
    if (provider.catalogsSettled) this.#waits.push(this.#hook(mount));
    else if (readHealth(provider)?.state === 'starting') this.#waits.push(this.#poll(mount));
  }

  /** Every plugin is watched: from now, `settled` turns true once their waits end. */
  seal(): void {
    // Nothing to wait for (the usual case): settled now, so not even the first listing makes a promise.
    if (this.#waits.length === 0 && !this.#all) this.#settled = true;
    this.#all ??= Promise.all(this.#waits).then(() => {
      this.#settled = true;
    });
    this.#waits.length = 0;
  }

  /** Resolves when `settled` turns true; at once before `seal()` (nothing is being waited for yet). */
  wait(): Promise<void> {
    return this.#all ?? Promise.resolve();
  }

  /** The plugin's own promise, under its start deadline and in its scope; a failure or the deadline ends the wait. */
  async #hook(mount: Mount): Promise<void> {
    try {
      await invokePlugin(
        {
          mount,
          method: 'start',
          target: `catalogsSettled() of plugin ${mount.label}`,
          shutdown: this.shutdown,
        },
        () => mount.provider.catalogsSettled?.(),
      );
    } catch (error) {
      this.#gaveUp(mount, error);
    }
  }

  async #poll(mount: Mount): Promise<void> {
    const until = Date.now() + mount.deadlines.start;
    while (!this.shutdown.aborted && readHealth(mount.provider)?.state === 'starting') {
      if (Date.now() >= until)
        return this.#gaveUp(mount, errors.deadline(`start of plugin ${mount.label}`, mount.deadlines.start));
      await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
    }
  }

  #gaveUp(mount: Mount, error: unknown): void {
    if (this.shutdown.aborted) return;
    const timedOut = isForesightError(error) && error.code === errors.deadline.code;
    mount.logger.warn(
      { err: describeThrown(error) },
      timedOut
        ? 'still starting at its start deadline: lists answer without its catalogs, which follow with list_changed'
        : 'catalogsSettled() failed: lists answer with its catalogs as they are',
    );
  }
}
