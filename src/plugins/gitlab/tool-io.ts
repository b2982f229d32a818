// What every gitlab tool shares: reading its (already validated) arguments and writing a shaped result.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ShapedResult } from '../../enrich/index.js';
import type { RequestContext } from '../../host/index.js';
import type { FailureContext } from '../kit/index.js';
import type { GitLabApi, GitLabClient } from './client.js';
import type { MetadataStore } from './metadata.js';
import type { GitLabSettings } from './options.js';
import type { UserDirectory } from './users.js';

export type Args = Record<string, unknown>;
export type ToolHandler = (args: Args, ctx: RequestContext) => Promise<CallToolResult>;

/** What the tool modules are built from. */
export interface ToolDeps {
  client: GitLabClient;
  settings: GitLabSettings;
  metadata: MetadataStore;
  users: UserDirectory;
}

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
export const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
export const int = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isInteger(value) ? value : fallback;

/** Structured data for the format layer, with a summary (writes) or the same data as JSON text (reads). */
export function shaped(data: ShapedResult, summary?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: summary ?? JSON.stringify(data) }],
    structuredContent: data as unknown as Record<string, unknown>,
  };
}

/** How failures name what was asked for: `issue #12 of group/project`. */
export function targetOf(settings: GitLabSettings) {
  return (what: string): FailureContext => ({
    provider: settings.providerName,
    target: `${what} of ${settings.projectName}`,
  });
}

/** The call's resources: requests abort with the call. */
export const apiFor = (deps: ToolDeps, ctx: RequestContext): GitLabApi => deps.client.api(ctx.signal);

/** Page size for a window of `limit` items: whole pages of at least 20, at most GitLab's 100. */
export const perPageFor = (limit: number): number => Math.min(100, Math.max(limit, 20));
