// Entry of the built-in workspace plugin: read-only access to the files under one root directory.
import { definePlugin } from '../../contract/index.js';
import { parseWorkspaceOptions } from './options.js';
import { createWorkspaceProvider } from './provider.js';

export { WorkspaceOptionsSchema, type WorkspaceOptions } from './options.js';

export default definePlugin({
  id: 'workspace',
  version: '0.1.0',
  build: async (ctx) => createWorkspaceProvider(parseWorkspaceOptions(ctx.config)),
});
