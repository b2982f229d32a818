// Assembles one gitlab plugin instance: client, project metadata, the unified tools and their enricher.
import type { PluginContext, PluginProvider, ToolDescriptor } from '../../host/index.js';
import { ISSUE_TOOLS, MERGE_REQUEST_TOOLS, type ToolHandler, dispatchTo } from '../kit/index.js';
import { createGitLabClient } from './client.js';
import { createGitLabEnricher } from './enricher.js';
import { createIssueTools } from './issues.js';
import { createMergeRequestTools } from './merge-requests.js';
import { createMetadataStore } from './metadata.js';
import type { GitLabSettings } from './options.js';
import { createPipelineTools } from './pipelines.js';
import { LINE_FIELD, createReviewTools } from './reviews.js';
import { createUserDirectory } from './users.js';

/**
 * The unified descriptors, named for the project. create_merge_request_comment gains the provider-only
 * parameter the enricher fills from line_type and hides from the agent.
 */
function descriptors(settings: GitLabSettings): ToolDescriptor[] {
  const unified: ToolDescriptor[] = [...Object.values(ISSUE_TOOLS), ...Object.values(MERGE_REQUEST_TOOLS)];
  return unified.map((tool) => {
    const described = { ...tool, description: `${tool.description} GitLab project ${settings.projectName}.` };
    if (tool.name !== 'create_merge_request_comment') return described;
    const schema = tool.inputSchema as { properties: Record<string, unknown> };
    return {
      ...described,
      inputSchema: {
        ...tool.inputSchema,
        properties: {
          ...schema.properties,
          [LINE_FIELD]: {
            type: 'string',
            enum: ['new_line', 'old_line'],
            description: 'GitLab position field that carries `line` (set from line_type)',
          },
        },
      },
    };
  });
}

export function createGitLabProvider(settings: GitLabSettings, ctx: PluginContext): PluginProvider {
  const client = createGitLabClient(settings);
  const metadata = createMetadataStore(client, settings, ctx.logger);
  const deps = { client, settings, metadata, users: createUserDirectory(client, settings) };
  const handlers: Record<string, ToolHandler | undefined> = {
    ...createIssueTools(deps),
    ...createMergeRequestTools(deps),
    ...createReviewTools(deps),
    ...createPipelineTools(deps),
  };
  const enricher = createGitLabEnricher(settings, metadata);
  const listed = descriptors(settings);
  return {
    tools: () => listed,
    enrichers: () => [enricher],
    callTool: dispatchTo(handlers),
    // Labels, milestones and the default branch load in the background: schemas stay generic until they arrive.
    start: async () => metadata.start(),
    shutdown: async () => metadata.stop(),
  };
}
