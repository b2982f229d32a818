// Turns validation issues into one E_CONFIG_INVALID error: a line per problem with file, line, key path and what is allowed.
import type * as z from 'zod';
import { errors, type ForesightError } from '../contract/index.js';
import { formatKeyPath, lineOfKeyPath, type KeyLines, type KeyPath } from './key-path.js';
import { redactSecrets } from './redact.js';
import { allowedKeysAt } from './schema-keys.js';
import { closestKey } from './suggest.js';

/** How messages name the built-in configuration used when there is no file. */
export const EMBEDDED_DEFAULT = '(embedded default)';
/** Problems listed in one error; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 20;

export interface ConfigProblem {
  path: KeyPath;
  detail: string;
}

/** Where the problems were found: the file (undefined for the embedded default) and a line for each key path. */
export interface ProblemSource {
  file: string | undefined;
  lineOf(path: KeyPath): number | undefined;
}

/** A source whose lines come from a located file's key lines. */
export function fileSource(file: string | undefined, keyLines: KeyLines): ProblemSource {
  return { file, lineOf: (path) => lineOfKeyPath(keyLines, path) };
}

/**
 * One problem per issue, and per key for unknown keys. `schema` is the one that raised the issues (it
 * tells which keys are allowed); `base` is where its input sits in the file.
 */
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  schema: z.core.$ZodType,
  base: KeyPath = [],
): ConfigProblem[] {
  return issues.flatMap((issue): ConfigProblem[] => {
    const path = [...base, ...issue.path];
    switch (issue.code) {
      case 'unrecognized_keys': {
        const allowed = allowedKeysAt(schema, issue.path) ?? [];
        return issue.keys.map((key) => ({ path: [...path, key], detail: unknownKey(key, allowed) }));
      }
      case 'invalid_key':
        return problemsFromIssues(issue.issues, schema, path);
      default:
        return [{ path, detail: detailOf(issue) }];
    }
  });
}

/** The error for a non-empty list of problems, sorted by line, one per line of the message. */
export function configProblemsError(
  source: ProblemSource,
  problems: readonly ConfigProblem[],
): ForesightError {
  const label = source.file ?? EMBEDDED_DEFAULT;
  const located = problems
    .map(({ path, detail }) => {
      const line = source.lineOf(path);
      return {
        line,
        where: line ? `${label}:${line}` : label,
        what: redactSecrets(`${formatKeyPath(path) || '(top level)'}: ${detail}`),
      };
    })
    .sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  const [first] = located;
  if (located.length === 1 && first) return errors.configInvalid(first.where, first.what);
  const lines = [...new Set(located.map(({ where, what }) => `${where}: ${what}`))];
  const listed = lines.slice(0, MAX_LISTED_PROBLEMS);
  if (lines.length > listed.length) listed.push(`… and ${lines.length - listed.length} more`);
  return errors.configInvalid(label, `${lines.length} problems:\n  ${listed.join('\n  ')}`);
}

/** devboy-tools' pipeline config keys, and what says the same here. */
const DEVBOY_KEYS: Readonly<Record<string, string>> = {
  schema_version: 'foresight.toml has no schema version',
  enrichment: 'its settings are [planner] keys here',
  side_effect_class: 'it is side_effect here',
  cost_model: 'its keys are typical_kb, latency_ms_p50 and freshness_ttl_s of the tool block here',
};

function unknownKey(key: string, allowed: readonly string[]): string {
  const suggestion = closestKey(key, allowed);
  const devboy = Object.hasOwn(DEVBOY_KEYS, key) ? DEVBOY_KEYS[key] : undefined;
  const hint =
    devboy !== undefined
      ? ` (a devboy-tools pipeline config key: ${devboy}; \`foresight import-devboy FILE\` maps such a file)`
      : suggestion === undefined
        ? ''
        : ` (did you mean ${JSON.stringify(suggestion)}?)`;
  return `unknown key ${JSON.stringify(key)}${hint}${allowed.length > 0 ? `; allowed: ${allowed.join(', ')}` : ''}`;
}

/** The issue's message, plus what was given: our schemas say "expected …", plugins' may keep zod's wording. */
function detailOf(issue: z.core.$ZodIssue): string {
  const message =
    issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')
      ? `expected ${describeExpected(issue.expected)}`
      : issue.message;
  if (issue.input === undefined)
    return issue.code === 'invalid_type' ? `required but missing; ${message}` : message;
  const saysGiven = message.includes(', got ') || message.includes('received');
  if (saysGiven || (issue.code === 'custom' && !message.startsWith('expected '))) return message;
  return `${message}, got ${describeValue(issue.input)}`;
}

function describeExpected(expected: string): string {
  const names: Readonly<Record<string, string>> = {
    string: 'a string',
    number: 'a number',
    int: 'an integer',
    boolean: 'true or false',
    array: 'an array',
    object: 'a table',
    record: 'a table',
    date: 'a date',
  };
  return Object.hasOwn(names, expected) ? (names[expected] ?? expected) : expected;
}

/** A short spelling of a TOML value for messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (value instanceof Date) return 'a date';
  if (value === null || value === undefined) return 'nothing';
  return typeof value === 'object' ? 'a table' : typeof value;
}
