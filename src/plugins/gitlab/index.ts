// Entry of the built-in gitlab plugin: one GitLab project's issues, merge requests and CI as the unified tools.
import { definePlugin } from '../../contract/index.js';
import { parsePluginOptions } from '../kit/index.js';
import { GitLabOptionsSchema, gitlabSettings } from './options.js';
import { createGitLabProvider } from './provider.js';

export { GitLabOptionsSchema, type GitLabOptions } from './options.js';

export default definePlugin({
  id: 'gitlab',
  version: '0.1.0',
  build: (ctx) =>
    createGitLabProvider(gitlabSettings(parsePluginOptions(GitLabOptionsSchema, 'gitlab', ctx.config)), ctx),
});
