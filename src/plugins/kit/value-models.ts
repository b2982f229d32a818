// What the planner needs to know of each unified tool: cost, side effects, what it makes stale, what usually follows.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FollowUpLink, ToolRef, ToolValueModel } from '../../contract/index.js';
import type { TrackerToolName } from './tools.js';

interface ModelSpec {
  read: boolean;
  valueClass: ToolValueModel['valueClass'];
  typicalKb: number;
  /** Local names; published under the caller's prefix. */
  invalidates?: TrackerToolName[];
  /** The call's parameters that name the one object it changes; unset = it may change any. */
  invalidateBy?: string[];
  followUp?: (Omit<FollowUpLink, 'tool'> & { tool: TrackerToolName })[];
  freshnessTtlS?: number;
}

// Probabilities are priors for the planner to adapt; projections follow the shapes in src/enrich/shapes.ts.
const SPECS: Readonly<Record<TrackerToolName, ModelSpec>> = {
  get_issues: {
    read: true,
    valueClass: 'critical',
    typicalKb: 8,
    freshnessTtlS: 60,
    followUp: [
      { tool: 'get_issue', probability: 0.4, projection: 'items[*].key', projectionArg: 'key' },
      { tool: 'get_issue_comments', probability: 0.25, projection: 'items[*].key', projectionArg: 'key' },
    ],
  },
  get_issue: {
    read: true,
    valueClass: 'critical',
    typicalKb: 4,
    freshnessTtlS: 60,
    followUp: [
      { tool: 'get_issue_comments', probability: 0.35, projection: 'item.key', projectionArg: 'key' },
    ],
  },
  get_issue_comments: { read: true, valueClass: 'supporting', typicalKb: 6, freshnessTtlS: 60 },
  // A new issue may be a parent's sub-issue, which that parent's detail lists: every detail goes.
  create_issue: {
    read: false,
    valueClass: 'critical',
    typicalKb: 1,
    invalidates: ['get_issues', 'get_issue'],
  },
  update_issue: {
    read: false,
    valueClass: 'critical',
    typicalKb: 1,
    invalidates: ['get_issue', 'get_issues'],
    invalidateBy: ['key'],
  },
  add_issue_comment: {
    read: false,
    valueClass: 'supporting',
    typicalKb: 1,
    invalidates: ['get_issue', 'get_issue_comments', 'get_issues'],
    invalidateBy: ['key'],
  },
  link_issues: { read: false, valueClass: 'supporting', typicalKb: 1, invalidates: ['get_issue'] },
  get_merge_requests: {
    read: true,
    valueClass: 'critical',
    typicalKb: 8,
    freshnessTtlS: 60,
    followUp: [
      {
        tool: 'get_merge_request_discussions',
        probability: 0.3,
        projection: 'items[*].key',
        projectionArg: 'key',
      },
      { tool: 'get_merge_request_diffs', probability: 0.3, projection: 'items[*].key', projectionArg: 'key' },
    ],
  },
  get_merge_request: {
    read: true,
    valueClass: 'critical',
    typicalKb: 4,
    freshnessTtlS: 60,
    followUp: [
      { tool: 'get_merge_request_diffs', probability: 0.45, projection: 'item.key', projectionArg: 'key' },
      {
        tool: 'get_merge_request_discussions',
        probability: 0.35,
        projection: 'item.key',
        projectionArg: 'key',
      },
      { tool: 'get_pipeline', probability: 0.2, projection: 'item.key', projectionArg: 'key' },
    ],
  },
  get_merge_request_discussions: { read: true, valueClass: 'supporting', typicalKb: 10, freshnessTtlS: 60 },
  get_merge_request_diffs: { read: true, valueClass: 'supporting', typicalKb: 40, freshnessTtlS: 300 },
  create_merge_request: {
    read: false,
    valueClass: 'critical',
    typicalKb: 1,
    invalidates: ['get_merge_requests'],
  },
  update_merge_request: {
    read: false,
    valueClass: 'critical',
    typicalKb: 1,
    invalidates: ['get_merge_request', 'get_merge_requests'],
    invalidateBy: ['key'],
  },
  create_merge_request_comment: {
    read: false,
    valueClass: 'supporting',
    typicalKb: 1,
    invalidates: ['get_merge_request_discussions', 'get_merge_request', 'get_merge_requests'],
    invalidateBy: ['key'],
  },
  get_pipeline: {
    read: true,
    valueClass: 'critical',
    typicalKb: 3,
    freshnessTtlS: 20,
    // Only failed jobs are worth a log: projectPipelineFollowUps picks them, a generic projection cannot.
    followUp: [
      { tool: 'get_job_logs', probability: 0.5, projection: 'item.jobs[*].id', projectionArg: 'job_id' },
    ],
  },
  get_job_logs: { read: true, valueClass: 'supporting', typicalKb: 16, freshnessTtlS: 3600 },
  // Workflows, fields and people change rarely: a listing stays good for minutes.
  get_available_statuses: { read: true, valueClass: 'supporting', typicalKb: 1, freshnessTtlS: 300 },
  get_custom_fields: { read: true, valueClass: 'supporting', typicalKb: 3, freshnessTtlS: 600 },
  get_users: { read: true, valueClass: 'supporting', typicalKb: 2, freshnessTtlS: 600 },
  get_board_sprints: { read: true, valueClass: 'supporting', typicalKb: 2, freshnessTtlS: 120 },
  // Which sprint an issue is in shows in its detail and in listings filtered by sprint.
  assign_to_sprint: {
    read: false,
    valueClass: 'supporting',
    typicalKb: 1,
    invalidates: ['get_issue', 'get_issues', 'get_board_sprints'],
  },
};

/** The published name of a sibling tool: same prefix as `tool`. */
export function siblingTool(tool: ToolRef, local: string): string {
  return `${tool.published.slice(0, tool.published.length - tool.name.length)}${local}`;
}

/** The value model of a unified tool, follow-ups and invalidations under the caller's prefix; undefined for other tools. */
export function trackerValueModel(tool: ToolRef, rateLimitHost?: string): ToolValueModel | undefined {
  const spec = (SPECS as Record<string, ModelSpec | undefined>)[tool.name];
  if (!spec) return undefined;
  return {
    valueClass: spec.valueClass,
    sideEffect: spec.read ? 'read_only' : 'mutates_external',
    cost: {
      typicalKb: spec.typicalKb,
      ...(spec.freshnessTtlS === undefined ? {} : { freshnessTtlS: spec.freshnessTtlS }),
    },
    followUp: (spec.followUp ?? []).map((link) => ({ ...link, tool: siblingTool(tool, link.tool) })),
    invalidates: (spec.invalidates ?? []).map((local) => siblingTool(tool, local)),
    ...(spec.invalidateBy === undefined ? {} : { invalidateBy: spec.invalidateBy }),
    // One token for every client session: what one session reads, another would read too.
    sessionIndependent: true,
    ...(rateLimitHost === undefined ? {} : { rateLimitHost }),
  };
}

/**
 * get_pipeline → get_job_logs: one argument set per failed job (at most 3), from a `pipeline` result.
 * `hasLog` leaves out jobs the provider keeps no log of (GitHub's commit statuses); default every job.
 */
export function projectFailedJobs(
  result: CallToolResult,
  hasLog: (job: { id: string; stage?: unknown }) => boolean = () => true,
): Record<string, unknown>[] | undefined {
  const data = result.structuredContent as { kind?: unknown; item?: { jobs?: unknown } } | undefined;
  if (data?.kind !== 'pipeline' || !Array.isArray(data.item?.jobs)) return undefined;
  return (data.item.jobs as { id?: unknown; status?: unknown; stage?: unknown }[])
    .filter(
      (job): job is { id: string; status: unknown; stage?: unknown } =>
        job.status === 'failed' && typeof job.id === 'string',
    )
    .filter(hasLog)
    .slice(0, 3)
    .map((job) => ({ job_id: job.id }));
}
