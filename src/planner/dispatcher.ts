// Starts speculative calls within their caps: a global limit across sessions and turns, and one per API host
// (held across the processes of a cluster when shared slots are given).
import type { SharedSlots, SlotToken } from './shared-slots.js';

export interface DispatchJob {
  /** The API host the call goes to, for the per-host cap; undefined = only the global cap applies. */
  host: string | undefined;
  /** Runs the call; settles when it is done (its errors are its own to handle: a rejection is ignored). */
  run(): Promise<void>;
  /** Told when the job will never run: its think window passed in the queue, or the dispatcher closed. */
  drop(): void;
}

export interface DispatcherOptions {
  maxInFlight: number;
  perHostInFlight: number;
  /** A queued job older than this is dropped: the agent has most likely moved on. */
  thinkWindowMs: number;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
  /**
   * The per-host cap held across processes: a job with a host also needs a shared slot, asked for off any agent's
   * call. Default none: this process's own count alone.
   */
  slots?: SharedSlots;
  /** How long a host whose shared slots are all held waits before asking again. Default 25 ms. */
  fullRetryMs?: number;
}

export const DEFAULT_FULL_RETRY_MS = 25;

/** A submitted job: `cancel()` takes it out of the queue; false once it has started or been dropped. */
export interface DispatchHandle {
  cancel(): boolean;
}

interface Queued {
  job: DispatchJob;
  queuedAtMs: number;
  /** A shared slot is being asked for: the job keeps its place (and can be cancelled) but is not started twice. */
  acquiring?: boolean;
}

/**
 * A queue in submission order. A job starts as soon as both caps allow; a job whose host is full waits
 * without holding back jobs for other hosts. Nothing here ever waits for, or delays, an agent's call:
 * the caps count speculative calls only.
 */
export class Dispatcher {
  private readonly queue: Queued[] = [];
  private readonly handles = new WeakMap<DispatchHandle, Queued>();
  /** Jobs started or asking for a shared slot, per host: the local cap counts both. */
  private readonly perHost = new Map<string, number>();
  /** Hosts whose shared slots were all held, and when to ask again. */
  private readonly fullHosts = new Map<string, number>();
  private running = 0;
  /** Jobs asking for a shared slot: they count against the global cap too. */
  private acquiring = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: DispatcherOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Speculative calls running now. */
  get inFlight(): number {
    return this.running;
  }

  /** Jobs waiting for a free slot. */
  get queued(): number {
    return this.queue.length;
  }

  /**
   * Queues the job and starts what the caps allow. `cancel()` takes it out of the queue without telling
   * it (the agent made the call itself); it returns false once the job has started or been dropped.
   */
  submit(job: DispatchJob): DispatchHandle {
    const queued: Queued = { job, queuedAtMs: this.now() };
    const handle: DispatchHandle = {
      cancel: () => {
        const index = this.queue.indexOf(queued);
        if (index < 0) return false;
        this.queue.splice(index, 1);
        return true;
      },
    };
    this.handles.set(handle, queued);
    if (this.closed) {
      job.drop();
      return handle;
    }
    this.queue.push(queued);
    this.pump();
    return handle;
  }

  /** True while the job waits for a slot. */
  isQueued(handle: DispatchHandle): boolean {
    const queued = this.handles.get(handle);
    return queued !== undefined && this.queue.includes(queued);
  }

  /** Drops every queued job; running ones finish on their own (the host aborts them on shutdown). */
  close(): void {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    for (const { job } of this.queue.splice(0)) job.drop();
  }

  private pump(): void {
    const nowMs = this.now();
    const oldest = nowMs - this.options.thinkWindowMs;
    for (
      let index = 0;
      index < this.queue.length && this.running + this.acquiring < this.options.maxInFlight;
    ) {
      const queued = this.queue[index];
      if (queued === undefined) break;
      if (queued.acquiring === true) {
        index += 1;
        continue;
      }
      if (queued.queuedAtMs < oldest) {
        this.queue.splice(index, 1);
        queued.job.drop();
        continue;
      }
      const host = queued.job.host;
      if (host !== undefined && (this.perHost.get(host) ?? 0) >= this.options.perHostInFlight) {
        index += 1;
        continue;
      }
      if (host !== undefined && this.options.slots !== undefined) {
        if ((this.fullHosts.get(host) ?? 0) > nowMs) {
          index += 1;
          continue;
        }
        this.fullHosts.delete(host);
        this.acquire(queued, host, this.options.slots);
        index += 1;
        continue;
      }
      this.queue.splice(index, 1);
      this.take(host);
      this.start(queued.job, undefined);
    }
  }

  private take(host: string | undefined): void {
    if (host !== undefined) this.perHost.set(host, (this.perHost.get(host) ?? 0) + 1);
  }

  private give(host: string | undefined): void {
    if (host === undefined) return;
    const left = (this.perHost.get(host) ?? 1) - 1;
    if (left === 0) this.perHost.delete(host);
    else this.perHost.set(host, left);
  }

  /**
   * Asks for a shared slot while the job keeps its place in the queue, so that the agent's own call can still
   * cancel it: Redis is never waited on by an agent's call. Holding the local slot meanwhile keeps the local cap.
   */
  private acquire(queued: Queued, host: string, slots: SharedSlots): void {
    queued.acquiring = true;
    this.acquiring += 1;
    this.take(host);
    const settle = (answer: SlotToken | 'full' | 'unavailable') => {
      queued.acquiring = false;
      this.acquiring -= 1;
      const index = this.queue.indexOf(queued);
      // Cancelled, dropped or closed while asking: the slot goes back unused.
      if (index < 0 || this.closed || answer === 'full') {
        if (typeof answer === 'object') slots.release(answer);
        this.give(host);
        if (answer === 'full' && index >= 0 && !this.closed) this.retryLater(host);
        if (!this.closed) this.pump();
        return;
      }
      this.queue.splice(index, 1);
      // 'unavailable': Redis is down or slow, and this process's own cap (already counted) is what holds.
      this.start(queued.job, typeof answer === 'object' ? answer : undefined, slots);
      this.pump();
    };
    slots.acquire(host, this.options.perHostInFlight).then(settle, () => settle('unavailable'));
  }

  /** Every shared slot of `host` is held, by other processes too: ask again shortly (no process tells us). */
  private retryLater(host: string): void {
    const retryMs = this.options.fullRetryMs ?? DEFAULT_FULL_RETRY_MS;
    this.fullHosts.set(host, this.now() + retryMs);
    if (this.retryTimer !== undefined) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      // Whatever the clock says (tests may hold it still), every full host is asked again now.
      this.fullHosts.clear();
      if (!this.closed) this.pump();
    }, retryMs);
    this.retryTimer.unref?.();
  }

  /** Runs a job whose local slot is already counted in `perHost`; `token` is its shared slot, if any. */
  private start(job: DispatchJob, token: SlotToken | undefined, slots?: SharedSlots): void {
    this.running += 1;
    const done = () => {
      this.running -= 1;
      if (token !== undefined) slots?.release(token);
      this.give(job.host);
      this.pump();
    };
    let running: Promise<void>;
    try {
      running = job.run();
    } catch {
      running = Promise.resolve();
    }
    running.then(done, done);
  }
}
