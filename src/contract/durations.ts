// The longest delay a timer can wait, the option schemas that keep configured durations within it, and the clamp
// for delays computed from data (a server's Retry-After, a backoff that doubles).
import * as z from 'zod';

/**
 * Node keeps a timer's delay in a signed 32-bit count of milliseconds: a longer one is replaced by 1 ms with a
 * TimeoutOverflowWarning, so a huge deadline fires at once, again and again. 2,147,483,647 ms is about 24.8 days.
 */
export const MAX_DELAY_MS = 2 ** 31 - 1;
/** The same limit in whole seconds, for keys that count seconds. */
export const MAX_DELAY_S = Math.floor(MAX_DELAY_MS / 1000);

/** `ms` as a delay a timer honours: 0 to MAX_DELAY_MS (a NaN, which would mean "at once" to Node, is 0). */
export function clampDelay(ms: number): number {
  return Number.isNaN(ms) ? 0 : Math.min(Math.max(ms, 0), MAX_DELAY_MS);
}

export interface DurationBounds {
  /** Default 0. */
  min?: number;
  /** Default the timer limit (MAX_DELAY_MS or MAX_DELAY_S); a larger one is lowered to it. */
  max?: number;
  /** Allow fractions (a cost estimate, a freshness); default whole numbers only. */
  fractional?: boolean;
}

function duration(unit: 'milliseconds' | 'seconds', limit: number, bounds: DurationBounds) {
  const min = bounds.min ?? 0;
  const max = Math.min(bounds.max ?? limit, limit);
  const range = `from ${min} to ${max}${max === limit ? ' (the timer limit, about 24.8 days)' : ''}`;
  // "expected …": the config's problem report appends what was given.
  const error = `expected ${bounds.fractional ? 'a number' : 'a whole number'} of ${unit} ${range}`;
  const base = bounds.fractional ? z.number({ error }) : z.int({ error });
  return base.min(min, { error }).max(max, { error });
}

/** A configured duration in milliseconds, never beyond the timer limit: every `*_ms` key uses it. */
export const durationMs = (bounds: DurationBounds = {}) => duration('milliseconds', MAX_DELAY_MS, bounds);

/** A configured duration in seconds, never beyond the timer limit: every `*_s` key uses it. */
export const durationS = (bounds: DurationBounds = {}) => duration('seconds', MAX_DELAY_S, bounds);
