// The [audit] table: one JSON line per tool call, to stderr or to a file.
import { booleanValue, closedTable, nonEmptyString } from './leaf-schemas.js';

export interface AuditConfig {
  /** Whether every tools/call answered, and every call the planner ran ahead, writes an audit line; default false. */
  enabled: boolean;
  /** The file lines are appended to (absolute; `file` resolves against the config file's directory); default stderr. */
  file?: string;
}

export const AuditConfigSchema = closedTable({
  enabled: booleanValue().default(false),
  file: nonEmptyString('a file path').optional(),
}).transform((raw): AuditConfig => ({
  enabled: raw.enabled,
  // Still as written: buildConfig resolves it against the config file's directory.
  ...(raw.file === undefined ? {} : { file: raw.file }),
}));
