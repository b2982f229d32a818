// The git_repository tools of the github plugin: the unified code-review tools on GitHub's REST and GraphQL APIs.
import type { ToolDescriptor } from '../../contract/index.js';
import { MERGE_REQUEST_TOOLS, type MergeRequestToolName, type ToolHandler } from '../kit/index.js';
import type { GitHubClient } from './client.js';
import { createDiffTools } from './diffs.js';
import { createDiscussionTools } from './discussions.js';
import { createJobLogTools } from './job-logs.js';
import type { GitHubSettings } from './options.js';
import { createPipelineTools } from './pipelines.js';
import { createPullRequestComments } from './pr-comments.js';
import { createPullRequestWrites } from './pr-writes.js';
import { createPullRequestReads } from './pull-requests.js';
import { createReviewContext } from './review-context.js';

/** GitHub's own parameter, hidden from the agent by the GitHub enricher, which fills it from `line_type`. */
export const SIDE_PARAM = 'side';

type Schema = Record<string, unknown>;

/** The kit's descriptor with `extra` parameters added and parameter descriptions replaced. */
function fitted(
  name: MergeRequestToolName,
  fullName: string,
  extra: Record<string, Schema> = {},
  descriptions: Record<string, string> = {},
): ToolDescriptor {
  const base = MERGE_REQUEST_TOOLS[name];
  const properties: Record<string, Schema> = {};
  for (const [param, schema] of Object.entries(base.inputSchema.properties as Record<string, Schema>)) {
    properties[param] = descriptions[param] ? { ...schema, description: descriptions[param] } : { ...schema };
  }
  return {
    ...base,
    description: `${base.description} GitHub repository ${fullName}.`,
    inputSchema: { ...base.inputSchema, properties: { ...properties, ...extra } },
  };
}

export function codeReviewDescriptors(settings: GitHubSettings): ToolDescriptor[] {
  const { fullName } = settings;
  return (Object.keys(MERGE_REQUEST_TOOLS) as MergeRequestToolName[]).map((name) => {
    switch (name) {
      case 'create_merge_request_comment':
        return fitted(name, fullName, {
          [SIDE_PARAM]: {
            type: 'string',
            enum: ['LEFT', 'RIGHT'],
            description: 'the side of the diff: LEFT for the old file, RIGHT for the new one',
          },
        });
      case 'get_job_logs':
        return fitted(name, fullName, undefined, {
          offset: 'lines to skip: the answer starts after line `offset`, for paging',
        });
      case 'get_pipeline':
        return fitted(name, fullName, undefined, {
          key: 'the pull request ("#45", 45 or its URL): the checks of its head commit; leave out for a branch',
        });
      default:
        return fitted(name, fullName);
    }
  });
}

export function createCodeReviewTools(client: GitHubClient, settings: GitHubSettings) {
  const context = createReviewContext(client, settings);
  return {
    ...createPullRequestReads(context),
    ...createPullRequestWrites(context),
    ...createPullRequestComments(context),
    ...createDiscussionTools(context),
    ...createDiffTools(context),
    ...createPipelineTools(context),
    ...createJobLogTools(context),
  } satisfies Record<MergeRequestToolName, ToolHandler>;
}
