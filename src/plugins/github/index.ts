// Entry of the built-in github plugin: GitHub issues of one repository as the unified issue_tracker tools.
import { definePlugin } from '../../contract/index.js';
import { parsePluginOptions } from '../kit/index.js';
import { GitHubOptionsSchema, githubSettings } from './options.js';
import { createGitHubProvider } from './provider.js';

export { GitHubOptionsSchema, type GitHubOptions } from './options.js';

export default definePlugin({
  id: 'github',
  version: '0.1.0',
  build: (ctx) =>
    createGitHubProvider(githubSettings(parsePluginOptions(GitHubOptionsSchema, 'github', ctx.config)), ctx),
});
