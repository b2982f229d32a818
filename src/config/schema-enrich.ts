// An [[enrich]] table: a declarative enricher (pin, default, hide, re-describe, annotate) for tools matching globs.
import {
  anyTable,
  booleanValue,
  closedTable,
  dropUndefined,
  listOf,
  nonEmptyString,
  stringValue,
} from './leaf-schemas.js';

export interface ToolAnnotationsOverride {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

const AnnotationsSchema = closedTable({
  title: stringValue().optional(),
  readOnlyHint: booleanValue().optional(),
  destructiveHint: booleanValue().optional(),
  idempotentHint: booleanValue().optional(),
  openWorldHint: booleanValue().optional(),
}).transform((raw): ToolAnnotationsOverride => dropUndefined(raw));

export interface DeclarativeEnrichRule {
  /** Globs over published tool names (picomatch); at least one. */
  tools: string[];
  /** Parameters fixed to a value: removed from the schema, set on every call. Default none. */
  pin: Record<string, unknown>;
  /** Parameter defaults, applied when the agent leaves the parameter out. Default none. */
  default: Record<string, unknown>;
  /** Parameters removed from the schema. Default none. */
  hide: string[];
  /** Replaces the tool's description. */
  description?: string;
  annotations?: ToolAnnotationsOverride;
  /** Line of this rule's [[enrich]] header (0 when not from a file). */
  line: number;
}

export type DeclarativeEnrichSettings = Omit<DeclarativeEnrichRule, 'line'>;

export const DeclarativeEnrichRuleSchema = closedTable({
  tools: listOf(
    nonEmptyString('a glob over published tool names'),
    'an array of tool-name globs such as ["gh__*"]',
  ).min(1, { error: 'expected at least one tool-name glob' }),
  pin: anyTable('a table of parameter = value').default({}),
  default: anyTable('a table of parameter = value').default({}),
  hide: listOf(nonEmptyString('a parameter name'), 'an array of parameter names').default([]),
  description: stringValue().optional(),
  annotations: AnnotationsSchema.optional(),
}).transform((raw): DeclarativeEnrichSettings => ({
  tools: raw.tools,
  pin: raw.pin,
  default: raw.default,
  hide: raw.hide,
  ...(raw.description === undefined ? {} : { description: raw.description }),
  ...(raw.annotations === undefined ? {} : { annotations: raw.annotations }),
}));
