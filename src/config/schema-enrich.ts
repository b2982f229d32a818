// An [[enrich]] table: a declarative enricher (drop or rename a tool; hide, pin, default, rename, re-describe, annotate
// its parameters) for tools matching globs.
import picomatch from 'picomatch';
import * as z from 'zod';
import { PUBLISHED_TOOL_NAME_PATTERN } from '../contract/index.js';
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
  /** The matched tools are not published: not listed, and a call to one is an unknown tool. Default false. */
  drop: boolean;
  /**
   * Publishes the one tool `tools` names under this name instead, behind its plugin's prefix (`name = "read"` on
   * `fs__read_text_file` publishes `fs__read`). Unset = the plugin's own name.
   */
  name?: string;
  /** Line of this rule's [[enrich]] header (0 when not from a file). */
  line: number;
}

export type DeclarativeEnrichSettings = Omit<DeclarativeEnrichRule, 'line'>;

/** The keys a rule sets that act on a tool's parameters, description or annotations: a dropped tool has none. */
function schemaKeysSet(rule: DeclarativeEnrichSettings): string[] {
  const set = {
    pin: Object.keys(rule.pin).length > 0,
    defaults: Object.keys(rule.defaults).length > 0,
    hide: rule.hide.length > 0,
    rename: Object.keys(rule.rename).length > 0,
    description: rule.description !== undefined,
    annotations: rule.annotations !== undefined,
  };
  return Object.entries(set)
    .filter(([, isSet]) => isSet)
    .map(([key]) => key);
}

type Conflict = { path: (string | number)[]; message: string };

/** `drop` and `name` act on whole tools: what they may be combined with, and which tools a rename may name. */
function toolConflicts(rule: DeclarativeEnrichSettings): Conflict[] {
  const found: Conflict[] = [];
  if (rule.drop) {
    if (rule.name !== undefined)
      found.push({ path: ['name'], message: 'a dropped tool is not published, so it cannot be renamed' });
    for (const key of schemaKeysSet(rule))
      found.push({
        path: [key],
        message: `a dropped tool is not published, so ${key} would act on nothing; put it in a block without drop`,
      });
  }
  if (rule.name !== undefined) {
    const [only, ...more] = rule.tools;
    // Checked here, not once tools are known: a glob that matches one tool today may match two tomorrow.
    if (only === undefined || more.length > 0 || picomatch.scan(only).isGlob)
      found.push({
        path: ['name'],
        message: `name renames one tool: tools must hold exactly one tool name without glob characters, got ${JSON.stringify(rule.tools)}`,
      });
  }
  return found;
}

/** Keys of one rule that name the same parameter in ways that cannot both hold. */
function conflicts(rule: DeclarativeEnrichSettings): Conflict[] {
  const found: Conflict[] = toolConflicts(rule);
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
  drop: booleanValue().default(false),
  name: matching(
    PUBLISHED_TOOL_NAME_PATTERN,
    `a tool name (${PUBLISHED_TOOL_NAME_PATTERN.source}), published behind the plugin's prefix`,
  ).optional(),
})
  .transform((raw): DeclarativeEnrichSettings => ({
    tools: raw.tools,
    pin: raw.pin,
    defaults: raw.defaults,
    hide: raw.hide,
    rename: raw.rename,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    ...(raw.annotations === undefined ? {} : { annotations: raw.annotations }),
    drop: raw.drop,
    ...(raw.name === undefined ? {} : { name: raw.name }),
  }))
  .superRefine((rule, context) => {
    for (const { path, message } of conflicts(rule)) context.addIssue({ code: 'custom', path, message });
  });
