// Entry of the built-in gitlab plugin: one GitLab project's issues, merge requests and CI as the unified tools.
import { definePlugin, errors } from '../../host/index.js';
import { GitLabOptionsSchema, gitlabSettings } from './options.js';
import { createGitLabProvider } from './provider.js';

export { GitLabOptionsSchema, type GitLabOptions } from './options.js';

export default definePlugin({
  id: 'gitlab',
  version: '0.1.0',
  build: (ctx) => {
    const parsed = GitLabOptionsSchema.safeParse(ctx.config ?? {});
    if (!parsed.success) {
      throw errors.configInvalid(
        'gitlab plugin options',
        parsed.error.issues
          .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
          .join('; '),
      );
    }
    return createGitLabProvider(gitlabSettings(parsed.data), ctx);
  },
});
