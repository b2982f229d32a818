// Entry of the built-in clickup plugin: the tasks of one or several ClickUp lists as the unified issue tools.
import { definePlugin } from '../../contract/index.js';
import { parsePluginOptions } from '../kit/index.js';
import { ClickUpOptionsSchema, clickupSettings } from './options.js';
import { createClickUpProvider } from './provider.js';

export { ClickUpOptionsSchema, type ClickUpOptions } from './options.js';

export default definePlugin({
  id: 'clickup',
  version: '0.1.0',
  build: (ctx) =>
    createClickUpProvider(
      clickupSettings(parsePluginOptions(ClickUpOptionsSchema, 'clickup', ctx.config)),
      ctx,
    ),
});
