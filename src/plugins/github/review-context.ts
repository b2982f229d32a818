// What every code-review tool of the github plugin shares: the client, the repository, and how failures name their target.
import type { FailureContext } from '../kit/index.js';
import type { GitHubClient } from './client.js';
import type { GitHubSettings } from './options.js';

export interface ReviewContext {
  client: GitHubClient;
  owner: string;
  repo: string;
  /** "owner/name", for messages. */
  fullName: string;
  /** `pull request #45 of octo-org/octo-repo` on GitHub: what a failed request was about. */
  target(what: string): FailureContext;
}

export function createReviewContext(client: GitHubClient, settings: GitHubSettings): ReviewContext {
  const { owner, repo, fullName } = settings;
  return {
    client,
    owner,
    repo,
    fullName,
    target: githubTarget(settings),
  };
}

/** How a failed request names what it was about, for every github tool: `issue #12 of octo-org/octo-repo`. */
export function githubTarget(settings: GitHubSettings): (what: string) => FailureContext {
  return (what) => ({ provider: 'GitHub', target: `${what} of ${settings.fullName}`, token: settings.token });
}
