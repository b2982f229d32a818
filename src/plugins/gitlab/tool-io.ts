// What every gitlab tool shares: its dependencies, the call's API client, and how failures name their target.
import type { RequestContext } from '../../contract/index.js';
import type { GitLabTarget } from './failure.js';
import type { GitLabApi, GitLabClient } from './client.js';
import type { MetadataStore } from './metadata.js';
import type { GitLabSettings } from './options.js';
import type { UserDirectory } from './users.js';

/** What the tool modules are built from. */
export interface ToolDeps {
  client: GitLabClient;
  settings: GitLabSettings;
  metadata: MetadataStore;
  users: UserDirectory;
}

/** How failures name what was asked for: `issue #12 of group/project`. */
export function targetOf(settings: GitLabSettings) {
  return (what: string): GitLabTarget => ({
    provider: settings.providerName,
    target: `${what} of ${settings.projectName}`,
    project: settings.projectName,
    token: settings.token,
  });
}

/** The call's resources: requests abort with the call. */
export const apiFor = (deps: ToolDeps, ctx: RequestContext): GitLabApi => deps.client.api(ctx.signal);

/** Page size for a window of `limit` items: whole pages of at least 20, at most GitLab's 100. */
export const perPageFor = (limit: number): number => Math.min(100, Math.max(limit, 20));
