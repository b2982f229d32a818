// A [plugins.<name>] table: the host's keys (kind, prefix, deadlines, isolation) and the plugin's own options.
import * as z from 'zod';
import { durationMs, isValidPluginId } from '../contract/index.js';
import { booleanValue, closedTable, listOf, nonEmptyString, oneOf, openTable } from './leaf-schemas.js';

export const DEFAULT_CALL_DEADLINE_MS = 30_000;
export const DEFAULT_LIFECYCLE_DEADLINE_MS = 10_000;
/** A tool call that may run as a task holds no client, so it may run longer: 10 minutes. */
export const DEFAULT_TASK_DEADLINE_MS = 600_000;

export const ISOLATIONS = ['inline', 'worker'] as const;
export const CACHE_SCOPES = ['public', 'private'] as const;
export type CacheScope = (typeof CACHE_SCOPES)[number];
/** A day: the longest freshness a client is told it may assume. */
export const MAX_CACHE_TTL_MS = 86_400_000;

/**
 * What a 2026-07-28 client is told about caching this plugin's lists and resource reads: how long they stay
 * fresh, and whether a shared cache may serve them to anyone (`public`) or only to the same caller.
 */
export interface PluginCacheHints {
  /** Default 0: stale at once. */
  ttlMs: number;
  /** Default "private". */
  scope: CacheScope;
}
export type PluginIsolation = (typeof ISOLATIONS)[number];

const NAME_RULE = `^[a-z][a-z0-9_]{0,31}$ without "__"`;

/** Instance names, built-in kinds and prefixes share the plugin id rule. */
const isPluginName = isValidPluginId;

export const PluginNameSchema = z.string().refine(isPluginName, {
  error: (issue) => `plugin instance name ${JSON.stringify(issue.input)} must match ${NAME_RULE}`,
});

const KindSchema = z
  .string({ error: `expected a built-in plugin kind matching ${NAME_RULE}` })
  .refine(isPluginName, { error: `expected a built-in plugin kind matching ${NAME_RULE}` });

const PrefixSchema = z
  .string({ error: `expected "" (no prefix) or a prefix matching ${NAME_RULE}` })
  .refine((prefix) => prefix === '' || isPluginName(prefix), {
    error: `expected "" (no prefix) or a prefix matching ${NAME_RULE}`,
  });

/** Per-method deadlines after defaults: calls fall back to deadline_ms, start/shutdown to 10 s. */
export interface PluginDeadlines {
  callTool: number;
  readResource: number;
  getPrompt: number;
  complete: number;
  start: number;
  shutdown: number;
  /** A tool call that may become a task (see `Deadlines.task`); never shorter than `callTool`. */
  task: number;
}

const DeadlinesSchema = closedTable({
  call_tool: durationMs({ min: 1 }).optional(),
  read_resource: durationMs({ min: 1 }).optional(),
  get_prompt: durationMs({ min: 1 }).optional(),
  complete: durationMs({ min: 1 }).optional(),
  start: durationMs({ min: 1 }).optional(),
  shutdown: durationMs({ min: 1 }).optional(),
  task: durationMs({ min: 1 }).optional(),
});

/**
 * Which of a plugin's tools are published, by globs over the plugin's own tool names (`write_file`, not
 * `fs__write_file`): only those `allow` matches when it is set, and never those `deny` matches (deny wins).
 */
export interface ToolFilter {
  /** Unset = every tool. */
  allow?: string[];
  /** Default none. */
  deny: string[];
}

const globList = (what: string) =>
  listOf(
    nonEmptyString("a glob over the plugin's own tool names"),
    `an array of globs over the plugin's own tool names such as ["write_*"]`,
  ).min(1, { error: `expected at least one glob (${what})` });

const ToolFilterSchema = closedTable({
  allow: globList('to publish none of its tools, set enabled = false').optional(),
  deny: globList('leave deny out to deny nothing').default([]),
}).transform((raw): ToolFilter => (raw.allow === undefined ? { deny: raw.deny } : raw));

/** What a plugin table says, before the loader adds its name, location and resolved module path. */
export interface PluginSettings {
  use?: string;
  module?: string;
  prefix?: string;
  enabled: boolean;
  deadlinesMs: PluginDeadlines;
  isolation: PluginIsolation;
  cache: PluginCacheHints;
  tools: ToolFilter;
  options: Record<string, unknown>;
}

export const PluginSettingsSchema = openTable({
  use: KindSchema.optional(),
  module: nonEmptyString('a path to a plugin module').optional(),
  prefix: PrefixSchema.optional(),
  enabled: booleanValue().default(true),
  deadline_ms: durationMs({ min: 1 }).optional(),
  deadlines_ms: DeadlinesSchema.optional(),
  isolation: oneOf(ISOLATIONS).default('inline'),
  cache_ttl_ms: durationMs({ max: MAX_CACHE_TTL_MS }).default(0),
  cache_scope: oneOf(CACHE_SCOPES).default('private'),
  // A host key, so no plugin's own options may be called `tools` (no built-in plugin has one).
  tools: ToolFilterSchema.prefault({}),
})
  .superRefine((table, ctx) => {
    if (table.use !== undefined && table.module !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['module'],
        message:
          '"use" and "module" are mutually exclusive: set use = "<built-in kind>" or module = "<path>", not both',
      });
    }
  })
  .transform((table): PluginSettings => {
    const {
      use,
      module,
      prefix,
      enabled,
      deadline_ms,
      deadlines_ms,
      isolation,
      cache_ttl_ms,
      cache_scope,
      tools,
      ...options
    } = table;
    const call = deadline_ms ?? DEFAULT_CALL_DEADLINE_MS;
    return {
      ...(use === undefined ? {} : { use }),
      ...(module === undefined ? {} : { module }),
      ...(prefix === undefined ? {} : { prefix }),
      enabled,
      deadlinesMs: {
        callTool: deadlines_ms?.call_tool ?? call,
        readResource: deadlines_ms?.read_resource ?? call,
        getPrompt: deadlines_ms?.get_prompt ?? call,
        complete: deadlines_ms?.complete ?? call,
        start: deadlines_ms?.start ?? DEFAULT_LIFECYCLE_DEADLINE_MS,
        shutdown: deadlines_ms?.shutdown ?? DEFAULT_LIFECYCLE_DEADLINE_MS,
        task: deadlines_ms?.task ?? DEFAULT_TASK_DEADLINE_MS,
      },
      isolation,
      cache: { ttlMs: cache_ttl_ms, scope: cache_scope },
      tools,
      options,
    };
  });
