// Starts speculative calls within their caps: a global limit across sessions and turns, and one per API host.

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
}

/** A submitted job: `cancel()` takes it out of the queue; false once it has started or been dropped. */
export interface DispatchHandle {
  cancel(): boolean;
}

interface Queued {
  job: DispatchJob;
  queuedAtMs: number;
}

/**
 * A queue in submission order. A job starts as soon as both caps allow; a job whose host is full waits
 * without holding back jobs for other hosts. Nothing here ever waits for, or delays, an agent's call:
 * the caps count speculative calls only.
 */
export class Dispatcher {
  private readonly queue: Queued[] = [];
  private readonly handles = new WeakMap<DispatchHandle, Queued>();
  private readonly perHost = new Map<string, number>();
  private running = 0;
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
    for (const { job } of this.queue.splice(0)) job.drop();
  }

  private pump(): void {
    const oldest = this.now() - this.options.thinkWindowMs;
    for (let index = 0; index < this.queue.length && this.running < this.options.maxInFlight;) {
      const queued = this.queue[index];
      if (queued === undefined) break;
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
      this.queue.splice(index, 1);
      this.start(queued.job);
    }
  }

  private start(job: DispatchJob): void {
    this.running += 1;
    if (job.host !== undefined) this.perHost.set(job.host, (this.perHost.get(job.host) ?? 0) + 1);
    const done = () => {
      this.running -= 1;
      if (job.host !== undefined) {
        const left = (this.perHost.get(job.host) ?? 1) - 1;
        if (left === 0) this.perHost.delete(job.host);
        else this.perHost.set(job.host, left);
      }
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
