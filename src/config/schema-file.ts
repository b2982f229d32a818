// The whole foresight.toml: which top-level tables exist and the schema of each.
import * as z from 'zod';
import { durationS, PUBLISHED_TOOL_NAME_PATTERN } from '../contract/index.js';
import {
  booleanValue,
  closedTable,
  listOf,
  nonEmptyString,
  nonNegativeNumber,
  numberBetween,
  positiveInt,
} from './leaf-schemas.js';
import { AuditConfigSchema } from './schema-audit.js';
import { AuthConfigSchema } from './schema-auth.js';
import { ClusterConfigSchema } from './schema-cluster.js';
import { DiscoveryConfigSchema } from './schema-discovery.js';
import { DeclarativeEnrichRuleSchema } from './schema-enrich.js';
import { FormatConfigSchema } from './schema-format.js';
import { PluginNameSchema, PluginSettingsSchema } from './schema-plugin.js';
import { ServerConfigSchema } from './schema-server.js';
import { ToolOverrideSchema } from './schema-tools.js';

export interface PlannerConfig {
  /** Whether the planner runs follow-up calls ahead of the agent; default true. */
  enabled: boolean;
  /** Follow-up links less likely than this are not run ahead; default 0.3. */
  probabilityFloor: number;
  /**
   * Calls run ahead that are expected to go unused, per call expected to be used, at most (over the
   * recent ones); default 2. Infinity (TOML `inf`) turns the budget off, leaving the floor alone.
   */
  maxWastePerHit: number;
  /** Estimated tokens of answers run ahead after one call, at most; default 4000. */
  tokenBudget: number;
  /** Calls run ahead at once, across all sessions and turns (`max_in_flight`, or its other name `max_parallel_prefetches`); default 4. */
  maxInFlight: number;
  /** Calls run ahead at once against one API host; default 2. */
  perHostInFlight: number;
  /** How long an answer run ahead stays servable when its model gives no freshness; default 60 s. */
  defaultTtlS: number;
  /** A call run ahead must start within this many seconds of the call that suggested it; default 30. */
  thinkWindowS: number;
  /** The probability of a `[tools."…"]` follow-up link that gives none; default 0.5. */
  defaultFollowupProbability: number;
  /** Whether the planner counts what the agent really calls after each tool, and keeps it in the state file; default true. */
  learning: boolean;
  /** The state file (absolute; `state_file` resolves against the config file's directory); default: in the user's data directory. */
  stateFile?: string;
}

/** Calls run ahead at once when the file says nothing. */
const DEFAULT_MAX_IN_FLIGHT = 4;
/** A link's probability when it gives none: what the seeds and devboy-tools' pipeline config assume. */
export const DEFAULT_FOLLOWUP_PROBABILITY = 0.5;

const WASTE_BUDGET_EXPECTED = 'a number >= 0, or inf for no budget';

export const PlannerConfigSchema = closedTable({
  enabled: booleanValue().default(true),
  probability_floor: numberBetween(0, 1).default(0.3),
  max_waste_per_hit: z
    .union([nonNegativeNumber(WASTE_BUDGET_EXPECTED), z.literal(Infinity)], {
      error: () => `expected ${WASTE_BUDGET_EXPECTED}`,
    })
    .default(2),
  token_budget: positiveInt('a positive whole number of tokens').default(4000),
  max_in_flight: positiveInt().optional(),
  // The seeds' and devboy-tools' name for the same cap.
  max_parallel_prefetches: positiveInt().optional(),
  per_host_in_flight: positiveInt().default(2),
  default_ttl_s: durationS({ min: 1 }).default(60),
  think_window_s: durationS({ min: 1 }).default(30),
  default_followup_probability: numberBetween(0, 1).default(DEFAULT_FOLLOWUP_PROBABILITY),
  learning: booleanValue().default(true),
  state_file: nonEmptyString('a file path').optional(),
})
  .superRefine((raw, context) => {
    const { max_in_flight: cap, max_parallel_prefetches: alias } = raw;
    if (cap !== undefined && alias !== undefined && cap !== alias)
      context.addIssue({
        code: 'custom',
        path: ['max_parallel_prefetches'],
        message: `is another name for max_in_flight, which says ${cap}: set one of them`,
        input: alias,
      });
  })
  .transform((raw): PlannerConfig => ({
    enabled: raw.enabled,
    probabilityFloor: raw.probability_floor,
    maxWastePerHit: raw.max_waste_per_hit,
    tokenBudget: raw.token_budget,
    maxInFlight: raw.max_in_flight ?? raw.max_parallel_prefetches ?? DEFAULT_MAX_IN_FLIGHT,
    perHostInFlight: raw.per_host_in_flight,
    defaultTtlS: raw.default_ttl_s,
    thinkWindowS: raw.think_window_s,
    defaultFollowupProbability: raw.default_followup_probability,
    learning: raw.learning,
    // Still as written: buildConfig resolves it against the config file's directory.
    ...(raw.state_file === undefined ? {} : { stateFile: raw.state_file }),
  }));

/** A published tool name, or "*" for the block every tool's model starts from. */
const ToolNameSchema = z.string().refine((name) => name === '*' || PUBLISHED_TOOL_NAME_PATTERN.test(name), {
  error: (issue) =>
    `tool name ${JSON.stringify(issue.input)} is not a published tool name (${PUBLISHED_TOOL_NAME_PATTERN.source}) or "*"`,
});

/** A record's own message for a non-table; a bad key keeps the key schema's message. */
const tableOf = (what: string) => ({
  error: (issue: { code?: string }) =>
    issue.code === 'invalid_type' ? `expected a table of ${what}` : undefined,
});

/** The parsed file, tables validated; the loader adds names, lines and paths to make a ForesightConfig. */
export const ConfigFileSchema = closedTable({
  server: ServerConfigSchema.prefault({}),
  auth: AuthConfigSchema.optional(),
  plugins: z.record(PluginNameSchema, PluginSettingsSchema, tableOf('[plugins.<name>] tables')).prefault({}),
  enrich: listOf(DeclarativeEnrichRuleSchema, 'an array of [[enrich]] tables').default([]),
  format: FormatConfigSchema.prefault({}),
  planner: PlannerConfigSchema.prefault({}),
  discovery: DiscoveryConfigSchema.prefault({}),
  tools: z.record(ToolNameSchema, ToolOverrideSchema, tableOf('[tools."<name>"] tables')).prefault({}),
  audit: AuditConfigSchema.prefault({}),
  cluster: ClusterConfigSchema.optional(),
}).superRefine((file, context) => {
  // A retry may land on any process: each must verify the requestState another one signed.
  if (file.cluster !== undefined && file.server.requestStateKeyEnv === undefined)
    context.addIssue({
      code: 'custom',
      path: ['server', 'request_state_key_env'],
      message:
        'missing: [cluster] needs it, so that every process verifies the requestState the others sign (multi round-trip requests retried on another process); name a variable holding at least 32 random bytes, the same for every process',
      input: undefined,
    });
  // Two ways to authenticate the same request would leave one of them silently unused.
  if (file.auth !== undefined && file.server.authTokenEnv !== undefined)
    context.addIssue({
      code: 'custom',
      path: ['server', 'auth_token_env'],
      message:
        'cannot be set together with [auth]: clients authenticate either with the one static token or with OAuth access tokens; remove one of them',
      input: file.server.authTokenEnv,
    });
});

export type ConfigFile = z.output<typeof ConfigFileSchema>;
