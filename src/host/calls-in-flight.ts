// The calls a host has in flight, watched for their deadlines and for shutdown. Calls with the same deadline
// expire in the order they started, so one timer per deadline length serves them all: starting and ending a
// call links and unlinks it, where a timer and a shutdown listener of its own cost several times more.
import { clampDelay } from '../contract/index.js';

/** Why a watched call is being ended. */
export type CallEnd = 'deadline' | 'shutdown';

/** One watched call; `release()` when it settles. */
export class WatchedCall {
  /** Links in its queue, oldest first; undefined once released. */
  prev: WatchedCall | undefined;
  next: WatchedCall | undefined;
  #queue: DeadlineQueue | undefined;

  constructor(
    queue: DeadlineQueue,
    readonly expiresAt: number,
    /** Ends the call; through `expire`, so at most once and never after `release()`. */
    private readonly end: (why: CallEnd) => void,
    /** False for calls that shutdown itself makes (a plugin's own shutdown()): only their deadline ends them. */
    readonly endsOnShutdown: boolean,
  ) {
    this.#queue = queue;
  }

  /** Stops watching the call; a no-op the second time. */
  release(): void {
    const queue = this.#queue;
    if (queue === undefined) return;
    this.#queue = undefined;
    queue.remove(this);
  }

  /** Ends a call still watched, and stops watching it. */
  expire(why: CallEnd): void {
    if (this.#queue === undefined) return;
    this.release();
    this.end(why);
  }
}

/** The calls with one deadline length, oldest (soonest to expire) first, and the one timer for the oldest. */
class DeadlineQueue {
  #head: WatchedCall | undefined;
  #tail: WatchedCall | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Whether the timer keeps the process alive: only while a call is waiting on it. */
  #timerHeld = false;

  constructor(readonly ms: number) {}

  add(end: (why: CallEnd) => void, endsOnShutdown: boolean): WatchedCall {
    const call = new WatchedCall(this, performance.now() + this.ms, end, endsOnShutdown);
    call.prev = this.#tail;
    if (this.#tail) this.#tail.next = call;
    else this.#head = call;
    this.#tail = call;
    // An armed timer is due no later than this call (it is the newest), so it needs no re-arming.
    if (this.#timer === undefined) this.#arm(this.ms);
    else if (!this.#timerHeld) this.#hold(true);
    return call;
  }

  remove(call: WatchedCall): void {
    if (call.prev) call.prev.next = call.next;
    else this.#head = call.next;
    if (call.next) call.next.prev = call.prev;
    else this.#tail = call.prev;
    call.prev = call.next = undefined;
    // The timer stays armed for the next call, but no longer keeps the process alive on its own.
    if (this.#head === undefined && this.#timerHeld) this.#hold(false);
  }

  /** Every call in the queue that shutdown ends, oldest first. */
  endingOnShutdown(): WatchedCall[] {
    const found: WatchedCall[] = [];
    for (let call = this.#head; call; call = call.next) if (call.endsOnShutdown) found.push(call);
    return found;
  }

  #arm(delayMs: number): void {
    // A deadline beyond the timer limit fires early and #expire arms again for what is left.
    this.#timer = setTimeout(() => this.#expire(), clampDelay(Math.max(1, Math.ceil(delayMs))));
    this.#timerHeld = true;
  }

  #hold(held: boolean): void {
    this.#timerHeld = held;
    if (held) this.#timer?.ref();
    else this.#timer?.unref();
  }

  #expire(): void {
    this.#timer = undefined;
    const now = performance.now();
    let call = this.#head;
    while (call !== undefined && call.expiresAt <= now) {
      call.expire('deadline');
      call = this.#head;
    }
    // libuv may fire a little before performance.now() says the oldest call is due: arm for what is left.
    if (call !== undefined) this.#arm(call.expiresAt - now);
  }
}

/** The calls in flight under one shutdown signal. */
export class CallsInFlight {
  readonly #queues = new Map<number, DeadlineQueue>();

  constructor(shutdown: AbortSignal) {
    shutdown.addEventListener('abort', () => this.#shutdown(), { once: true });
  }

  /** Watches a call: `end` runs once `deadlineMs` have passed or, if `endsOnShutdown`, when shutdown starts. */
  watch(deadlineMs: number, end: (why: CallEnd) => void, endsOnShutdown: boolean): WatchedCall {
    let queue = this.#queues.get(deadlineMs);
    if (queue === undefined) {
      queue = new DeadlineQueue(deadlineMs);
      this.#queues.set(deadlineMs, queue);
    }
    return queue.add(end, endsOnShutdown);
  }

  #shutdown(): void {
    // Collected first: ending a call releases it, which changes the queue being walked.
    const ending = [...this.#queues.values()].flatMap((queue) => queue.endingOnShutdown());
    for (const call of ending) call.expire('shutdown');
  }
}
