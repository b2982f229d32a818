// An [[enrich]] table: a declarative enricher (hide, pin, default, rename, re-describe, annotate) for tools matching globs.
import * as z from 'zod';
import {
  anyTable,
  booleanValue,
  closedTable,
  dropUndefined,
  listOf,
  matching,
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

/** What common clients accept as a property name of a tool's input schema. */
export const PARAMETER_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export interface DeclarativeEnrichRule {
  /** Globs over published tool names (picomatch); at least one. */
  tools: string[];
  /** Parameters fixed to a value: removed from the schema, set on every call, refused from the agent. Default none. */
  pin: Record<string, unknown>;
  /** Parameter defaults: shown in the schema, applied when the agent leaves the parameter out. Default none. */
  defaults: Record<string, unknown>;
  /** Parameters removed from the schema and refused from the agent. Default none. */
  hide: string[];
  /** Parameters shown under another name: { tool's name = "name shown" }. Default none. */
  rename: Record<string, string>;
  /** Replaces the tool's description. */
  description?: string;
  annotations?: ToolAnnotationsOverride;
  /** Line of this rule's [[enrich]] header (0 when not from a file). */
  line: number;
}

export type DeclarativeEnrichSettings = Omit<DeclarativeEnrichRule, 'line'>;

/** Keys of one rule that name the same parameter in ways that cannot both hold. */
function conflicts(rule: DeclarativeEnrichSettings): { path: (string | number)[]; message: string }[] {
  const found: { path: (string | number)[]; message: string }[] = [];
  for (const name of Object.keys(rule.pin)) {
    if (rule.hide.includes(name))
      found.push({
        path: ['hide'],
        message: `"${name}" is pinned, which already hides it; drop it from hide`,
      });
    if (Object.hasOwn(rule.defaults, name))
      found.push({ path: ['defaults', name], message: `"${name}" is pinned; a default would never apply` });
  }
  for (const [from, to] of Object.entries(rule.rename)) {
    if (Object.hasOwn(rule.pin, from) || rule.hide.includes(from))
      found.push({
        path: ['rename', from],
        message: `"${from}" is pinned or hidden, so it has no name to show`,
      });
    const twice = Object.entries(rule.rename).find(([other, target]) => other < from && target === to);
    if (twice) found.push({ path: ['rename', from], message: `"${twice[0]}" is already shown as "${to}"` });
  }
  return found;
}

export const DeclarativeEnrichRuleSchema = closedTable({
  tools: listOf(
    nonEmptyString('a glob over published tool names'),
    'an array of tool-name globs such as ["gh__*"]',
  ).min(1, { error: 'expected at least one tool-name glob' }),
  pin: anyTable('a table of parameter = value').default({}),
  defaults: anyTable('a table of parameter = value').default({}),
  hide: listOf(nonEmptyString('a parameter name'), 'an array of parameter names').default([]),
  rename: z
    .record(
      z.string(),
      matching(PARAMETER_NAME_PATTERN, `a parameter name (${PARAMETER_NAME_PATTERN.source})`),
      { error: 'expected a table of parameter = "name shown"' },
    )
    .default({}),
  description: stringValue().optional(),
  annotations: AnnotationsSchema.optional(),
})
  .transform((raw): DeclarativeEnrichSettings => ({
    tools: raw.tools,
    pin: raw.pin,
    defaults: raw.defaults,
    hide: raw.hide,
    rename: raw.rename,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    ...(raw.annotations === undefined ? {} : { annotations: raw.annotations }),
  }))
  .superRefine((rule, context) => {
    for (const { path, message } of conflicts(rule)) context.addIssue({ code: 'custom', path, message });
  });
