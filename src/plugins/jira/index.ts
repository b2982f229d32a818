// Entry of the built-in jira plugin: Jira Cloud or Server / Data Center projects as the unified issue tracker tools.
import { definePlugin } from '../../contract/index.js';
import { parsePluginOptions } from '../kit/index.js';
import { JiraOptionsSchema, jiraSettings } from './options.js';
import { createJiraProvider } from './provider.js';

export { JiraOptionsSchema, type JiraOptions } from './options.js';

export default definePlugin({
  id: 'jira',
  version: '0.1.0',
  build: (ctx) =>
    createJiraProvider(jiraSettings(parsePluginOptions(JiraOptionsSchema, 'jira', ctx.config)), ctx),
});
