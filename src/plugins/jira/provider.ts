// Assembles one jira plugin instance: client, project metadata, the unified tools and their enricher.
import type { PluginContext, PluginProvider, ToolDescriptor } from '../../contract/index.js';
import {
  ISSUE_TOOLS,
  SPRINT_TOOLS,
  TRACKER_METADATA_TOOLS,
  type ToolHandler,
  createHealthProbe,
  dispatchTo,
  metadataHealth,
  shownUrl,
  inBackground,
} from '../kit/index.js';
import { type ClientClock, createJiraClient, createMyselfRequest, credentialsOf } from './client.js';
import { customParams } from './custom-params.js';
import { PROJECT_PARAM } from './enricher-schema.js';
import { createJiraEnricher } from './enricher.js';
import { createIssueReadTools } from './issues.js';
import { createIssueWriteTools } from './issue-writes.js';
import { createLinkIssues } from './links.js';
import { jiraFailure } from './failure.js';
import { createMetadataStore } from './metadata.js';
import type { JiraSettings } from './options.js';
import { createSprintTools } from './sprints.js';
import { createTrackerTools } from './tracker-tools.js';

/** Tools that act on one configured project chosen by the agent (the others name an issue, which names its project). */
const PROJECT_SCOPED = new Set(['get_issues', 'create_issue']);

/** The unified descriptors, named for the site and projects; get_issues and create_issue gain `projectId`. */
function descriptors(settings: JiraSettings): ToolDescriptor[] {
  const unified: ToolDescriptor[] = [
    ...Object.values(ISSUE_TOOLS),
    ...Object.values(TRACKER_METADATA_TOOLS),
    ...Object.values(SPRINT_TOOLS),
  ];
  const where = `${settings.providerName}, project${settings.projects.length > 1 ? 's' : ''} ${settings.projects.join(', ')}.`;
  return unified.map((tool) => {
    const described = { ...tool, description: `${tool.description} ${where}` };
    if (!PROJECT_SCOPED.has(tool.name)) return described;
    const schema = tool.inputSchema as { properties: Record<string, unknown> };
    const projectId = {
      type: 'string',
      description:
        tool.name === 'create_issue'
          ? 'the project key to create the issue in'
          : 'only issues of this project (default: all configured)',
    };
    return {
      ...described,
      inputSchema: { ...tool.inputSchema, properties: { [PROJECT_PARAM]: projectId, ...schema.properties } },
    };
  });
}

/** Seams for tests; each defaults to the real thing. */
export interface JiraSeams {
  /** The client's clock: rate-limit resets and the waits before retries. */
  clock?: ClientClock;
}

export function createJiraProvider(
  settings: JiraSettings,
  ctx: PluginContext,
  seams: JiraSeams = {},
): PluginProvider {
  // Cloud sends "email:token" as HTTP Basic (base64): registered as a credential, the header is redacted wherever
  // Jira echoes it back (messages, tool descriptions built from metadata, logs, `foresight check`).
  if (settings.flavor === 'cloud' && settings.email)
    ctx.secrets?.addBasicCredential(settings.email, settings.token);
  else ctx.secrets?.add(settings.token);
  // Field errors from Jira name a field by id; the agent knows it by its cf_ parameter.
  let fieldLabel = (id: string) => id;
  const client = createJiraClient(settings, (id) => fieldLabel(id), seams.clock, ctx.logger, ctx.rateLimits);
  const metadata = createMetadataStore(client, settings, ctx.logger, ctx.sharedState);
  // The signed-in user: it proves the site answers and takes the credentials, whichever projects they see.
  const probe = createHealthProbe(
    {
      request: `GET ${shownUrl(`${settings.baseUrl}${settings.apiPath}/myself`)}`,
      credentials: credentialsOf(settings),
      target: 'the signed-in user',
      send: createMyselfRequest(settings),
      failure: (error, signal) => jiraFailure(error, signal),
    },
    ctx.logger,
  );
  fieldLabel = (id) => {
    const data = metadata.current();
    const param = data && customParams(data).find((p) => [...p.fields.values()].some((f) => f.id === id));
    return param ? `${param.param} (${id})` : id;
  };
  const deps = { client, settings, metadata };
  const sprints = createSprintTools(deps);
  const handlers: Record<string, ToolHandler | undefined> = {
    ...createIssueReadTools(deps),
    ...createIssueWriteTools(deps, sprints.resolveSprint),
    link_issues: createLinkIssues(deps),
    ...createTrackerTools(deps),
    ...sprints.tools,
  };
  const listed = descriptors(settings);
  const enricher = createJiraEnricher(
    settings,
    metadata,
    new Map(listed.map((t) => [t.name, t.description ?? ''])),
  );
  return {
    tools: () => listed,
    enrichers: () => [enricher],
    callTool: dispatchTo(handlers),
    // Issue types, priorities, fields… load in the background: schemas stay generic until they arrive.
    ...inBackground(metadata, probe),
    // Lists wait for the first load (a few seconds at most), so that they show the projects' own fields.
    health: () =>
      probe.health(() => {
        const failed = [...(metadata.current()?.failed ?? [])];
        const which = failed.map(([key, why]) => `${key} (${why})`).join(', ');
        return metadataHealth(
          metadata,
          `${settings.providerName}: ${settings.projects.join(', ')}`,
          'project metadata',
          'starting',
          failed.length === 0 ? undefined : `no metadata for ${which}; those stay generic`,
        );
      }),
  };
}
