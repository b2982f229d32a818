// The agent calls waiting on another process's claimed call, by claim id: each told once, when the claim settles,
// fails or lapses, or when sharing goes down.
type Waiter = (settled: boolean) => void;

export class ClaimWaiters {
  readonly #waiters = new Map<string, Set<Waiter>>();

  /**
   * Waits until `id`'s claim is told (true: settled, false: failed or sharing went down) or `deadlineMs` passes
   * (true: the holder may have stored it with its message lost, so one more look is worth it). An abort ends the
   * wait with false.
   */
  wait(id: string, deadlineMs: number, signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const waiters = this.#waiters.get(id) ?? new Set<Waiter>();
      this.#waiters.set(id, waiters);
      const done = (value: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(waiter);
        if (waiters.size === 0 && this.#waiters.get(id) === waiters) this.#waiters.delete(id);
        resolve(value);
      };
      const waiter: Waiter = done;
      const onAbort = () => {
        done(false);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => done(true), Math.max(0, deadlineMs - Date.now()));
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.add(waiter);
    });
  }

  /** Tells the waiters of `id` whether its call settled (stored) or failed. */
  tell(id: string, settled: boolean): void {
    const waiters = this.#waiters.get(id);
    if (waiters === undefined) return;
    for (const waiter of [...waiters]) waiter(settled);
  }

  /** Tells every waiter the call failed: cut off, no holder's message can arrive. */
  releaseAll(): void {
    for (const waiters of [...this.#waiters.values()]) for (const waiter of [...waiters]) waiter(false);
  }
}
