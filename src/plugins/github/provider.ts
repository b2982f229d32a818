// Assembles one github plugin instance: client, repository metadata, issue and code-review tools, their enricher.
import type { PluginContext, PluginProvider, ToolDescriptor } from '../../host/index.js';
import { ISSUE_TOOLS, dispatchTo } from '../kit/index.js';
import { createGitHubClient } from './client.js';
import { codeReviewDescriptors, createCodeReviewTools } from './code-review.js';
import { createGitHubEnricher } from './enricher.js';
import { createIssueTools } from './issues.js';
import { createMetadataStore } from './metadata.js';
import { createSubIssueTools } from './sub-issues.js';
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

export function createGitHubProvider(settings: GitHubSettings, ctx: PluginContext): PluginProvider {
  const client = createGitHubClient(settings, ctx.logger);
  const metadata = createMetadataStore(client, settings, ctx.logger);
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
    start: async () => metadata.start(),
    shutdown: async () => metadata.stop(),
  };
}
