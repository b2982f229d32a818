// Assembles one gitlab plugin instance: client, project metadata, the unified tools and their enricher.
import type { PluginContext, PluginProvider, ToolDescriptor } from '../../contract/index.js';
import {
  ISSUE_TOOLS,
  MERGE_REQUEST_TOOLS,
  type ToolHandler,
  createHealthProbe,
  dispatchTo,
  metadataHealth,
  shownUrl,
  inBackground,
} from '../kit/index.js';
import { createGitLabClient } from './client.js';
import { createGitLabEnricher } from './enricher.js';
import { gitlabFailure } from './failure.js';
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

/**
 * With a token, GET /user: it proves the server answers and takes the token. Without one, GitLab refuses /user, so
 * the project itself, which proves the server serves it anonymously. Once, without retries.
 */
function createProbe(settings: GitLabSettings, ctx: PluginContext) {
  const client = createGitLabClient({ ...settings, retries: 0 });
  const anonymous = settings.token === undefined;
  const path = anonymous ? `/projects/${encodeURIComponent(settings.projectName)}` : '/user';
  return createHealthProbe(
    {
      request: `GET ${shownUrl(`${settings.baseUrl}/api/v4${path}`)}`,
      credentials: settings.tokenEnv,
      target: anonymous ? `project ${settings.projectName}` : "the token's user",
      send: async (signal) => {
        const api = client.api(signal);
        await (anonymous ? api.projects.show(settings.projectId) : api.users.showCurrentUser());
      },
      failure: gitlabFailure,
    },
    ctx.logger,
  );
}

export function createGitLabProvider(settings: GitLabSettings, ctx: PluginContext): PluginProvider {
  const client = createGitLabClient(settings, ctx.logger, ctx.rateLimits);
  const metadata = createMetadataStore(client, settings, ctx.logger, ctx.sharedState);
  const probe = createProbe(settings, ctx);
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
    ...inBackground(metadata, probe),
    // Lists do not wait for labels (they follow with list_changed), so their load counts as ready.
    health: () =>
      probe.health(() =>
        metadataHealth(
          metadata,
          `${settings.providerName} project ${settings.projectName}`,
          'labels and milestones',
          'ready',
        ),
      ),
  };
}
