// Assembles one github plugin instance: client, repository metadata, issue and code-review tools, their enricher.
import type { PluginContext, PluginProvider, ToolDescriptor } from '../../contract/index.js';
import {
  ISSUE_TOOLS,
  createHealthProbe,
  dispatchTo,
  metadataHealth,
  shownUrl,
  inBackground,
} from '../kit/index.js';
import { type GitHubClient, createGitHubClient } from './client.js';
import { codeReviewDescriptors, createCodeReviewTools } from './code-review.js';
import { createGitHubEnricher } from './enricher.js';
import { createIssueTools } from './issues.js';
import { createMetadataStore } from './metadata.js';
import { createSubIssueTools } from './sub-issues.js';
import { githubFailure } from './failure.js';
import type { GitHubSettings } from './options.js';

/** Every unified issue tool; link_issues only where the instance has sub-issues. */
const ISSUE_TOOL_NAMES = [
  'get_issues',
  'get_issue',
  'get_issue_comments',
  'create_issue',
  'update_issue',
  'add_issue_comment',
  'link_issues',
] as const;

/**
 * The repository itself, once and without retries: it proves the server answers, takes the token (or serves the
 * repository anonymously) and shows the repository, whatever kind of token it is (GET /user refuses app tokens).
 */
function createProbe(client: GitHubClient, settings: GitHubSettings, ctx: PluginContext) {
  const { owner, repo } = settings;
  return createHealthProbe(
    {
      request: `GET ${shownUrl(`${settings.baseUrl}/repos/${owner}/${repo}`)}`,
      credentials: settings.tokenEnv,
      target: `repository ${settings.fullName}`,
      send: async (signal) => {
        const request = { signal, retries: 0, reportsFailures: true };
        await client.rest.repos.get({ owner, repo, request });
      },
      failure: githubFailure,
    },
    ctx.logger,
  );
}

export function createGitHubProvider(settings: GitHubSettings, ctx: PluginContext): PluginProvider {
  const client = createGitHubClient(settings, ctx.logger, ctx.rateLimits);
  const metadata = createMetadataStore(client, settings, ctx.logger, ctx.sharedState);
  const probe = createProbe(client, settings, ctx);
  const subIssues = settings.subIssues ? createSubIssueTools(client, settings) : undefined;
  const handlers = {
    ...createIssueTools({ client, settings, metadata, relationsOf: subIssues?.relationsOf }),
    ...(subIssues ? { link_issues: subIssues.linkIssues } : {}),
    ...createCodeReviewTools(client, settings),
  };
  const listed = ISSUE_TOOL_NAMES.filter((name) => name !== 'link_issues' || subIssues);
  const enricher = createGitHubEnricher(settings, metadata);
  const descriptors: ToolDescriptor[] = [
    ...listed.map((name) => ({
      ...ISSUE_TOOLS[name],
      description: `${ISSUE_TOOLS[name].description} GitHub repository ${settings.fullName}.`,
    })),
    ...codeReviewDescriptors(settings),
  ];
  return {
    tools: () => descriptors,
    enrichers: () => [enricher],
    callTool: dispatchTo(handlers),
    // Labels and milestones load in the background: the tools serve generic schemas until they arrive.
    ...inBackground(metadata, probe),
    // Lists do not wait for labels (they follow with list_changed), so their load counts as ready.
    health: () =>
      probe.health(() =>
        metadataHealth(
          metadata,
          `GitHub repository ${settings.fullName}`,
          'labels and milestones',
          'ready',
          metadata.partialFailure(),
        ),
      ),
  };
}
