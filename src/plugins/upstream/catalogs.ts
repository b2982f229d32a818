// An upstream server's catalogs: what they hold, and reading them all with the caching hints the server gave.
import type {
  Client,
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client';
import type { CacheHint, CatalogCacheHints, ToolDescriptor } from '../../contract/index.js';
import type { UpstreamTarget } from './options.js';
import { offersTasks, withTaskSupport } from './task-support.js';

/** What the server offered when last asked; empty lists for what it does not serve. */
export interface UpstreamCatalogs {
  tools: ToolDescriptor[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /** The caching hints the server gave each list (a 2026-07-28 server's `ttlMs` / `cacheScope`). */
  hints: CatalogCacheHints;
}

export const EMPTY_CATALOGS: UpstreamCatalogs = {
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  hints: {},
};

/**
 * The caching hints on a result of the server, as the SDK client passes them through (it keeps unknown fields):
 * a 2026-07-28 server's `ttlMs` and `cacheScope`; none from a 2025 server. Checked where they are used.
 */
function cacheHintOf(result: { ttlMs?: unknown; cacheScope?: unknown }): CacheHint {
  return { ttlMs: result.ttlMs, cacheScope: result.cacheScope } as CacheHint;
}

/**
 * The server's tools as the host lists them. The SDK types a schema's property schemas as any JSON value, the
 * host's contract as objects (as JSON Schema has them); the host passes them on unread, so only the type changes.
 */
function asDescriptors(tools: Tool[]): ToolDescriptor[] {
  return tools as ToolDescriptor[];
}

/**
 * The SDK's own request timeout (60 s by default) would cut what the start deadline allows while the catalogs
 * are read; that reading ends through its signal instead. (2^31 − 1 ms, setTimeout's limit.)
 */
export const NO_SDK_TIMEOUT = { timeout: 2_147_483_647 };

/** Reads every catalog the server offers, every page of each (up to the client's `listMaxPages`). */
export async function readCatalogs(
  client: Client,
  target: UpstreamTarget,
  signal?: AbortSignal,
): Promise<UpstreamCatalogs> {
  const caps = client.getServerCapabilities() ?? {};
  // 'refresh': a reading follows a change, so it always asks the server (and re-stores the SDK's copy,
  // which callTool validates structured output against).
  const options = { ...(signal ? { signal } : {}), ...NO_SDK_TIMEOUT, cacheMode: 'refresh' as const };
  // The SDK walks every page (up to the client's listMaxPages) when asked without a cursor.
  const hints: CatalogCacheHints = {};
  /** Keeps the hints the server gave a list, and gives its entries. */
  const entries = <T>(list: keyof CatalogCacheHints, result: object, items: T[]): T[] => {
    hints[list] = cacheHintOf(result);
    return items;
  };
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    caps.tools
      ? client.listTools(undefined, options).then((r) =>
          withTaskSupport(asDescriptors(entries('tools', r, r.tools)), {
            serverOffersTasks: offersTasks(caps),
            ...(target.tasks ? { configured: target.tasks } : {}),
          }),
        )
      : [],
    caps.resources
      ? client.listResources(undefined, options).then((r) => entries('resources', r, r.resources))
      : [],
    caps.resources
      ? client
          .listResourceTemplates(undefined, options)
          .then((r) => entries('resourceTemplates', r, r.resourceTemplates))
      : [],
    caps.prompts ? client.listPrompts(undefined, options).then((r) => entries('prompts', r, r.prompts)) : [],
  ]);
  return { tools, resources, resourceTemplates, prompts, hints };
}
