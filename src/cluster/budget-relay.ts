// Relays this process's waste budget changes to the other processes of a cluster, a turn's changes summed into one
// message, and hands theirs to the listeners.
import type { WasteBudgetChange } from '../planner/index.js';

export class BudgetRelay {
  readonly #listeners: ((change: WasteBudgetChange) => void)[] = [];
  /** This process's changes not told yet (told at the end of the turn that made them). */
  #pending: WasteBudgetChange | undefined;

  /** `publish` sends one turn's summed change to the other processes. */
  constructor(private readonly publish: (change: WasteBudgetChange) => void) {}

  /** Adds a change of this process's own to the turn's message. */
  share(change: WasteBudgetChange): void {
    const pending = this.#pending;
    if (pending !== undefined) {
      pending.decisions += change.decisions;
      pending.hits += change.hits;
      pending.waste += change.waste;
      return;
    }
    this.#pending = { ...change };
    // Told at the end of this turn: a plan admits its calls in one turn, and the message then leaves in the same
    // write to Redis as the claims of the calls it admitted.
    queueMicrotask(() => {
      const told = this.#pending;
      this.#pending = undefined;
      if (told === undefined) return;
      this.publish(told);
    });
  }

  listen(listener: (change: WasteBudgetChange) => void): void {
    this.#listeners.push(listener);
  }

  /** Another process's change, as it arrived. */
  heard(change: WasteBudgetChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}
