// Lets a long synchronous scan give the event loop a turn, so the call's deadline and other requests are served.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest stretch of work between turns: short enough that pings and other sessions' calls barely notice. */
const SLICE_MS = 10;
/** Steps between clock reads; a step is one line of at most MAX_MATCH_CHARS, so a few ms of work at worst. */
const STEPS_PER_CHECK = 128;

export interface TimeSlice {
  /** Counts one step of work; true when the slice is spent and the caller should `await yieldTurn()`. */
  spent(): boolean;
  /**
   * Gives the event loop a turn, then throws the signal's reason if the call was aborted meanwhile. The deadline
   * is a timer, and a timer cannot fire while a synchronous loop holds the thread: this is where it gets its turn.
   */
  yieldTurn(): Promise<void>;
}

export function createTimeSlice(signal: AbortSignal, sliceMs = SLICE_MS): TimeSlice {
  let steps = 0;
  let sliceStart = performance.now();
  return {
    spent() {
      if (++steps % STEPS_PER_CHECK !== 0) return false;
      return performance.now() - sliceStart >= sliceMs;
    },
    async yieldTurn() {
      await nextTurn();
      signal.throwIfAborted();
      sliceStart = performance.now();
    },
  };
}
