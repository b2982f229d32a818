// Small zod building blocks whose error message states what is allowed; problems.ts appends what was given.
import * as z from 'zod';

/** A message for every issue a leaf schema raises: "expected <what>". */
const expecting = (what: string) => ({ error: `expected ${what}` });

export const stringValue = (what = 'a string') => z.string(expecting(what));

export const nonEmptyString = (what = 'a non-empty string') =>
  z.string(expecting(what)).min(1, expecting(what));

export const booleanValue = () => z.boolean(expecting('true or false'));

export const positiveInt = (what = 'a positive integer') => z.int(expecting(what)).positive(expecting(what));

export const intBetween = (min: number, max: number) => {
  const message = expecting(`an integer from ${min} to ${max}`);
  return z.int(message).min(min, message).max(max, message);
};

export const nonNegativeNumber = (what = 'a number >= 0') =>
  z.number(expecting(what)).min(0, expecting(what));

export const numberBetween = (min: number, max: number) => {
  const message = expecting(`a number from ${min} to ${max}`);
  return z.number(message).min(min, message).max(max, message);
};

export const matching = (pattern: RegExp, what: string) =>
  z.string(expecting(what)).regex(pattern, expecting(what));

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, expecting(`one of ${values.map((value) => JSON.stringify(value)).join(', ')}`));

export const listOf = <T extends z.ZodType>(item: T, what: string) => z.array(item, expecting(what));

/** Any TOML table, values unchecked (plugin options, pinned argument values). */
export const anyTable = (what = 'a table') => z.record(z.string(), z.unknown(), expecting(what));

/** A table whose keys are all known; problems.ts reports each unknown key with the allowed ones. */
export function closedTable<S extends z.ZodRawShape>(shape: S, what = 'a table') {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? undefined : `expected ${what}`),
  });
}

/** A table with known keys plus free ones (a plugin table: host keys plus the plugin's options). */
export function openTable<S extends z.ZodRawShape>(shape: S, what = 'a table') {
  return z.looseObject(shape, expecting(what));
}

/** Copies an object without its undefined members, so field-by-field merges keep earlier values. */
export function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
