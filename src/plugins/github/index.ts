// Entry of the built-in github plugin: GitHub issues of one repository as the unified issue_tracker tools.
import { definePlugin, errors } from '../../host/index.js';
import { GitHubOptionsSchema, githubSettings } from './options.js';
import { createGitHubProvider } from './provider.js';

export { GitHubOptionsSchema, type GitHubOptions } from './options.js';

export default definePlugin({
  id: 'github',
  version: '0.1.0',
  build: (ctx) => {
    const parsed = GitHubOptionsSchema.safeParse(ctx.config ?? {});
    if (!parsed.success) {
      throw errors.configInvalid(
        'github plugin options',
        parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
    }
    return createGitHubProvider(githubSettings(parsed.data), ctx);
  },
});
