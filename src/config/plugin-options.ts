// Validates a plugin entry's own options with the plugin's zod schema, reporting problems like the loader does.
import type * as z from 'zod';
import { entrySource } from './entry-problems.js';
import { configProblemsError, problemsFromIssues } from './problems.js';
import type { PluginEntry } from './types.js';

/**
 * `entry.options` parsed by `schema`. Throws E_CONFIG_INVALID naming `plugins.<name>.<key>`, the file
 * and the key's line (or "(embedded default)"). A strict object schema makes unknown keys errors too.
 */
export function validatePluginOptions<T>(entry: PluginEntry, schema: z.ZodType<T>): T {
  const result = schema.safeParse(entry.options, { reportInput: true });
  if (result.success) return result.data;
  const problems = problemsFromIssues(result.error.issues, schema, ['plugins', entry.name]);
  throw configProblemsError(entrySource(entry), problems);
}
