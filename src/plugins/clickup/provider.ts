// Assembles one clickup plugin instance: client, list metadata, the unified issue tools and their enricher.
import type { PluginContext, PluginHealth, PluginProvider, ToolDescriptor } from '../../contract/index.js';
import {
  ISSUE_TOOLS,
  TRACKER_METADATA_TOOLS,
  type ToolHandler,
  createHealthProbe,
  dispatchTo,
  fetchProbe,
  shownUrl,
  inBackground,
} from '../kit/index.js';
import { createClickUpClient } from './client.js';
import { createClickUpEnricher } from './enricher.js';
import { type MetadataStore, createMetadataStore } from './metadata.js';
import { createMetadataTools } from './metadata-tools.js';
import { createWhoAmI } from './me.js';
import type { ClickUpSettings } from './options.js';
import { createTaskReadTools } from './tasks-read.js';
import { PRIORITY_NUMBER } from './task-fields.js';
import { createTaskWriteTools } from './tasks-write.js';

/** Tools that work on one list at a time: with several lists they take a `list` (create_issue requires it). */
const LIST_SCOPED: Readonly<Record<string, string>> = {
  get_issues: 'the list to read (a name or id); leave out for all configured lists',
  create_issue: 'the list to create the task in (a name or id)',
};

/**
 * Parameters as the tools take them once the enricher has mapped the agent's values, where they differ from the
 * unified tools': the host checks what the enricher hands on against these.
 */
const TAKEN: Readonly<Record<string, Record<string, object>>> = {
  get_issues: {
    assignees: {
      type: 'array',
      items: { type: ['string', 'integer'] },
      description:
        'only tasks assigned to any of these users: ids, names or emails (see get_users), or "me" for the token\'s user',
    },
  },
  create_issue: { priority: PRIORITY_NUMBER },
  update_issue: { priority: PRIORITY_NUMBER },
};

function descriptors(settings: ClickUpSettings): ToolDescriptor[] {
  const several = settings.listIds.length > 1;
  const where = `ClickUp list${several ? 's' : ''} ${settings.listIds.join(', ')}.`;
  return [...Object.values(ISSUE_TOOLS), ...Object.values(TRACKER_METADATA_TOOLS)].map((unified) => {
    const taken = TAKEN[unified.name];
    const tool = taken ? withParams(unified, taken) : unified;
    const described: ToolDescriptor = { ...tool, description: `${tool.description} ${where}` };
    const listText = LIST_SCOPED[tool.name];
    if (!several || listText === undefined) return described;
    const schema = tool.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    const required = tool.name === 'create_issue' ? [...(schema.required ?? []), 'list'] : schema.required;
    return {
      ...described,
      inputSchema: {
        ...tool.inputSchema,
        properties: { list: { type: 'string', description: listText }, ...schema.properties },
        ...(required ? { required } : {}),
      },
    };
  });
}

function withParams(tool: ToolDescriptor, params: Record<string, object>): ToolDescriptor {
  const properties = tool.inputSchema.properties ?? {};
  return { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...properties, ...params } } };
}

export function createClickUpProvider(settings: ClickUpSettings, ctx: PluginContext): PluginProvider {
  const client = createClickUpClient(settings, undefined, ctx.logger, ctx.rateLimits);
  const metadata = createMetadataStore(client, settings, ctx.logger, ctx.sharedState);
  // The token's user: it proves ClickUp answers and takes the token, whichever lists it may see.
  const probe = createHealthProbe(
    {
      request: `GET ${shownUrl(`${settings.baseUrl}/user`)}`,
      credentials: settings.tokenEnv,
      target: "the token's user",
      ...fetchProbe(`${settings.baseUrl}/user`, {
        accept: 'application/json',
        'user-agent': 'foresight-mcp',
        ...(settings.token === undefined ? {} : { authorization: settings.token }),
      }),
    },
    ctx.logger,
  );
  const deps = { client, settings, metadata, whoAmI: createWhoAmI(client) };
  const handlers: Record<string, ToolHandler | undefined> = {
    ...createTaskReadTools(deps),
    ...createTaskWriteTools(deps),
    ...createMetadataTools(deps),
  };
  const listed = descriptors(settings);
  const descriptions = new Map(listed.map((tool) => [tool.name, tool.description ?? '']));
  const enricher = createClickUpEnricher(settings, metadata, descriptions);
  return {
    tools: () => listed,
    enrichers: () => [enricher],
    callTool: dispatchTo(handlers),
    // Statuses, fields and members load in the background: the schemas stay generic until they arrive.
    ...inBackground(metadata, probe),
    health: () => probe.health(() => listsHealth(metadata, settings)),
  };
}

/** What `foresight tools` and `check` show: the lists served, and which metadata is missing and why (never the token). */
function listsHealth(metadata: MetadataStore, settings: ClickUpSettings): PluginHealth {
  const lists = `ClickUp lists ${settings.listIds.join(', ')}`;
  const data = metadata.current();
  if (data === undefined) {
    const failure = metadata.failure();
    return failure === undefined
      ? { state: 'starting', detail: `${lists}: loading their statuses and custom fields` }
      : {
          state: 'degraded',
          detail: `${lists}: metadata could not be loaded (${failure}); tools serve with generic schemas`,
        };
  }
  const failed = data.failedLists ?? [];
  return failed.length
    ? {
        state: 'degraded',
        detail: `${lists}: no metadata for ${failed.map((list) => `${list.id} (${list.reason})`).join(', ')}; those stay generic`,
      }
    : { state: 'ready', detail: `${lists}: ${data.lists.map((list) => list.name).join(', ')}` };
}
