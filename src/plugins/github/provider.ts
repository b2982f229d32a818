// Assembles one github plugin instance: client, repository metadata, issue and code-review tools, their enricher.
import type { PluginContext, PluginProvider, ToolDescriptor } from '../../host/index.js';
import { errors } from '../../host/index.js';
import { ISSUE_TOOLS } from '../kit/index.js';
import { createGitHubClient } from './client.js';
import { codeReviewDescriptors, createCodeReviewTools } from './code-review.js';
import { createGitHubEnricher } from './enricher.js';
import { createIssueTools } from './issues.js';
import { createMetadataStore } from './metadata.js';
import type { GitHubSettings } from './options.js';

/** The issue tools GitHub serves today (link_issues, on sub-issues, comes next); all code-review tools are served. */
const LISTED = [
  'get_issues',
  'get_issue',
  'get_issue_comments',
  'create_issue',
  'update_issue',
  'add_issue_comment',
] as const;

export function createGitHubProvider(settings: GitHubSettings, ctx: PluginContext): PluginProvider {
  const client = createGitHubClient(settings, ctx.logger);
  const metadata = createMetadataStore(client, settings, ctx.logger);
  const handlers = {
    ...createIssueTools({ client, settings, metadata }),
    ...createCodeReviewTools(client, settings),
  };
  const enricher = createGitHubEnricher(settings, metadata);
  const descriptors: ToolDescriptor[] = [
    ...LISTED.map((name) => ({
      ...ISSUE_TOOLS[name],
      description: `${ISSUE_TOOLS[name].description} GitHub repository ${settings.fullName}.`,
    })),
    ...codeReviewDescriptors(settings),
  ];
  return {
    tools: () => descriptors,
    enrichers: () => [enricher],
    async callTool(name, args, rc) {
      const handler = (handlers as Record<string, (typeof handlers)[keyof typeof handlers] | undefined>)[
        name
      ];
      if (!handler) throw errors.toolNotFound(name);
      return handler(args, rc);
    },
    // Labels and milestones load in the background: the tools serve generic schemas until they arrive.
    start: async () => metadata.start(),
    shutdown: async () => metadata.stop(),
  };
}
