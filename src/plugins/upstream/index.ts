// Entry of the built-in upstream plugin: mounts an existing MCP server (spawned over stdio, or over Streamable HTTP).
import { definePlugin } from '../../contract/index.js';
import { parsePluginOptions } from '../kit/index.js';
import { UpstreamOptionsSchema, configuredRoots, restartBackoff, upstreamTarget } from './options.js';
import { createUpstreamProvider } from './provider.js';

export { UpstreamOptionsSchema, type UpstreamOptions } from './options.js';

export default definePlugin({
  id: 'upstream',
  version: '0.1.0',
  build: (ctx) => {
    const options = parsePluginOptions(UpstreamOptionsSchema, 'upstream', ctx.config);
    const roots = configuredRoots(options);
    return createUpstreamProvider(upstreamTarget(options), ctx, {
      backoff: restartBackoff(options),
      ...(roots ? { roots } : {}),
    });
  },
});
