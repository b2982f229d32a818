// Checks a transition learner's options and fills in their defaults.
import type { AutoOffOptions, LearnerOptions } from './learning-types.js';

export const DEFAULT_PRIOR_STRENGTH = 8;
export const DEFAULT_LAG_WINDOW = 3;
export const DEFAULT_AUTO_OFF: Readonly<Required<AutoOffOptions>> = {
  window: 20,
  minSamples: 10,
  offBelow: 0.1,
  onAbove: 0.25,
};

/** A learner's options, checked, with every default filled in. */
export interface LearnerSettings {
  priorStrength: number;
  lagWindow: number;
  autoOff: Readonly<Required<AutoOffOptions>>;
  maxOpenWindows: number;
  maxSessions: number;
}

/** The options with their defaults; throws a RangeError for the first one out of range. */
export function learnerSettings(options: LearnerOptions): LearnerSettings {
  const priorStrength = options.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
  if (!(priorStrength > 0 && Number.isFinite(priorStrength)))
    throw new RangeError(`priorStrength must be a positive number, got ${priorStrength}`);
  const lagWindow = positiveInt(options.lagWindow ?? DEFAULT_LAG_WINDOW, 'lagWindow');
  const autoOff = { ...DEFAULT_AUTO_OFF, ...options.autoOff };
  positiveInt(autoOff.window, 'autoOff.window');
  positiveInt(autoOff.minSamples, 'autoOff.minSamples');
  if (autoOff.minSamples > autoOff.window)
    throw new RangeError(
      `autoOff.minSamples (${autoOff.minSamples}) exceeds autoOff.window (${autoOff.window})`,
    );
  if (share(autoOff.offBelow, 'autoOff.offBelow') > share(autoOff.onAbove, 'autoOff.onAbove'))
    throw new RangeError(
      `autoOff.offBelow (${autoOff.offBelow}) exceeds autoOff.onAbove (${autoOff.onAbove})`,
    );
  return {
    priorStrength,
    lagWindow,
    autoOff,
    maxOpenWindows: positiveInt(options.maxOpenWindowsPerSession ?? 64, 'maxOpenWindowsPerSession'),
    maxSessions: positiveInt(options.maxSessions ?? 1024, 'maxSessions'),
  };
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function share(value: number, name: string): number {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be from 0 to 1, got ${value}`);
  return value;
}
