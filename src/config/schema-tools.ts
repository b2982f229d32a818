// A [tools."<published name>"] table: the user's value-model overrides for one tool, merged field by field.
import { durationMs, durationS, type FollowUpLink, type ToolValueModel } from '../contract/index.js';
import {
  booleanValue,
  closedTable,
  dropUndefined,
  listOf,
  nonEmptyString,
  nonNegativeNumber,
  numberBetween,
  oneOf,
} from './leaf-schemas.js';

export const VALUE_CLASSES = [
  'critical',
  'supporting',
  'optional',
  'audit_only',
] as const satisfies readonly ToolValueModel['valueClass'][];
export const SIDE_EFFECTS = [
  'pure',
  'read_only',
  'mutates_local',
  'mutates_external',
  'indeterminate',
] as const satisfies readonly ToolValueModel['sideEffect'][];

/** A follow-up link as the file gives it: the probability may be left to `[planner] default_followup_probability`. */
export type FileFollowUpLink = Omit<FollowUpLink, 'probability'> & { probability?: number };

/** A block as the file gives it; buildConfig fills in the probabilities its links leave out. */
export type FileToolOverride = Omit<ToolOverride, 'followUp'> & { followUp?: FileFollowUpLink[] };

/** Only the fields the file sets are present, so a merge over built-in models keeps the rest. */
export interface ToolOverride {
  valueClass?: ToolValueModel['valueClass'];
  sideEffect?: ToolValueModel['sideEffect'];
  typicalKb?: number;
  latencyMsP50?: number;
  freshnessTtlS?: number;
  followUp?: FollowUpLink[];
  invalidates?: string[];
  invalidateBy?: string[];
  rateLimitHost?: string;
  speculate?: boolean;
}

const FollowUpLinkSchema = closedTable(
  {
    tool: nonEmptyString('a published tool name'),
    probability: numberBetween(0, 1).optional(),
    projection: nonEmptyString('a field name or a path into the result').optional(),
    projection_arg: nonEmptyString('an argument name of the follow-up tool').optional(),
  },
  'a table { tool = "...", projection = "...", projection_arg = "..." }',
).transform((raw): FileFollowUpLink =>
  dropUndefined({
    tool: raw.tool,
    probability: raw.probability,
    projection: raw.projection,
    projectionArg: raw.projection_arg,
  }),
);

export const ToolOverrideSchema = closedTable({
  value_class: oneOf(VALUE_CLASSES).optional(),
  side_effect: oneOf(SIDE_EFFECTS).optional(),
  typical_kb: nonNegativeNumber().optional(),
  latency_ms_p50: durationMs({ fractional: true }).optional(),
  freshness_ttl_s: durationS({ fractional: true }).optional(),
  follow_up: listOf(FollowUpLinkSchema, 'an array of { tool, projection, projection_arg } tables').optional(),
  invalidates: listOf(nonEmptyString('a published tool name'), 'an array of published tool names').optional(),
  invalidate_by: listOf(
    nonEmptyString('a parameter name of this tool'),
    'an array of parameter names of this tool',
  ).optional(),
  rate_limit_host: nonEmptyString('a host name').optional(),
  speculate: booleanValue().optional(),
}).transform((raw): FileToolOverride =>
  dropUndefined({
    valueClass: raw.value_class,
    sideEffect: raw.side_effect,
    typicalKb: raw.typical_kb,
    latencyMsP50: raw.latency_ms_p50,
    freshnessTtlS: raw.freshness_ttl_s,
    followUp: raw.follow_up,
    invalidates: raw.invalidates,
    invalidateBy: raw.invalidate_by,
    rateLimitHost: raw.rate_limit_host,
    speculate: raw.speculate,
  }),
);

/** The block with each link that gives no probability at `probability`. */
export function withLinkProbabilities(block: FileToolOverride, probability: number): ToolOverride {
  const { followUp, ...rest } = block;
  if (followUp === undefined) return rest;
  return {
    ...rest,
    followUp: followUp.map((link) => ({ ...link, probability: link.probability ?? probability })),
  };
}
