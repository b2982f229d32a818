// Entry of the built-in upstream plugin: mounts an existing MCP server (spawned over stdio, or over Streamable HTTP).
import { definePlugin, errors } from '../../host/index.js';
import { UpstreamOptionsSchema, upstreamTarget } from './options.js';
import { createUpstreamProvider } from './provider.js';

export { UpstreamOptionsSchema, type UpstreamOptions } from './options.js';

export default definePlugin({
  id: 'upstream',
  version: '0.1.0',
  build: (ctx) => {
    const parsed = UpstreamOptionsSchema.safeParse(ctx.config ?? {});
    if (!parsed.success) {
      throw errors.configInvalid(
        'upstream plugin options',
        parsed.error.issues.map((i) => `${i.path.join('.') || '(table)'}: ${i.message}`).join('; '),
      );
    }
    return createUpstreamProvider(upstreamTarget(parsed.data), ctx);
  },
});
