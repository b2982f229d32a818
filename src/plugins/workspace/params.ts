// Argument schemas several workspace tools share, so they read and default the same way everywhere.
import * as z from 'zod';
import { MAX_RESULTS_LIMIT } from './options.js';

const MAX_PATH_CHARS = 4096;

export function pathParam(description: string) {
  return z
    .string()
    .max(MAX_PATH_CHARS)
    .default('.')
    .describe(`${description}; "." (the default) is the workspace root`);
}

export function requiredPathParam(description: string) {
  return z.string().min(1).max(MAX_PATH_CHARS).describe(description);
}

export function maxResultsParam(defaultValue: number, what: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(MAX_RESULTS_LIMIT)
    .default(defaultValue)
    .describe(`${what} (default ${defaultValue}, at most ${MAX_RESULTS_LIMIT})`);
}
