// The whole foresight.toml: which top-level tables exist and the schema of each.
import * as z from 'zod';
import { PUBLISHED_TOOL_NAME_PATTERN } from '../host/index.js';
import { booleanValue, closedTable, listOf } from './leaf-schemas.js';
import { DeclarativeEnrichRuleSchema } from './schema-enrich.js';
import { FormatConfigSchema } from './schema-format.js';
import { PluginNameSchema, PluginSettingsSchema } from './schema-plugin.js';
import { ServerConfigSchema } from './schema-server.js';
import { ToolOverrideSchema } from './schema-tools.js';

export interface PlannerConfig {
  /** Whether the planner runs follow-up calls ahead of the agent; default true. */
  enabled: boolean;
}

export const PlannerConfigSchema = closedTable({
  enabled: booleanValue().default(true),
});

const ToolNameSchema = z.string().regex(PUBLISHED_TOOL_NAME_PATTERN, {
  error: (issue) =>
    `tool name ${JSON.stringify(issue.input)} is not a published tool name (${PUBLISHED_TOOL_NAME_PATTERN.source})`,
});

/** A record's own message for a non-table; a bad key keeps the key schema's message. */
const tableOf = (what: string) => ({
  error: (issue: { code?: string }) =>
    issue.code === 'invalid_type' ? `expected a table of ${what}` : undefined,
});

/** The parsed file, tables validated; the loader adds names, lines and paths to make a ForesightConfig. */
export const ConfigFileSchema = closedTable({
  server: ServerConfigSchema.prefault({}),
  plugins: z.record(PluginNameSchema, PluginSettingsSchema, tableOf('[plugins.<name>] tables')).prefault({}),
  enrich: listOf(DeclarativeEnrichRuleSchema, 'an array of [[enrich]] tables').default([]),
  format: FormatConfigSchema.prefault({}),
  planner: PlannerConfigSchema.prefault({}),
  tools: z.record(ToolNameSchema, ToolOverrideSchema, tableOf('[tools."<name>"] tables')).prefault({}),
});

export type ConfigFile = z.output<typeof ConfigFileSchema>;
