// Reading the code-review tools' arguments, which the pipeline has already validated against their schemas.
import { parseNumberedKey } from '../kit/index.js';
import type { Args } from './review-context.js';

/** A non-empty string, else undefined. */
export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The strings of an array argument, else undefined. */
export const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;

export const int = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : fallback;

/** The pull request number of `args.key`: "#45", 45, "!45" or the pull request's URL. */
export const pullNumber = (args: Args): number => parseNumberedKey(args.key, 'merge_request');
