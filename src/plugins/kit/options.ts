// Reading a plugin's own table of foresight.toml: every problem named by its key, in one error.
import type { ZodType } from 'zod';
import { errors } from '../../contract/index.js';

/** The parsed options, or the config error listing each problem as "key: message" (a table-wide one bare). */
export function parsePluginOptions<T>(schema: ZodType<T>, plugin: string, config: unknown): T {
  const parsed = schema.safeParse(config ?? {});
  if (parsed.success) return parsed.data;
  throw errors.configInvalid(
    `${plugin} plugin options`,
    parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; '),
  );
}
