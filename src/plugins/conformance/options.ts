// The conformance plugin's options (its table in foresight.toml): schema, defaults and validation.
import * as z from 'zod';
import { durationMs, errors } from '../../contract/index.js';

export const ConformanceOptionsSchema = z.strictObject({
  /** How often test://watched-resource changes and its subscribers are told; 0 turns it off. Default 3000. */
  watch_interval_ms: durationMs()
    .default(3000)
    .describe('milliseconds between changes of test://watched-resource; 0 turns them off'),
});
export type ConformanceOptions = z.output<typeof ConformanceOptionsSchema>;

/** A missing table means all defaults. */
export function parseConformanceOptions(config: unknown): ConformanceOptions {
  const parsed = ConformanceOptionsSchema.safeParse(config ?? {});
  if (!parsed.success)
    throw errors.configInvalid('conformance plugin options', z.prettifyError(parsed.error));
  return parsed.data;
}
