// The github plugin's enricher: fits the unified issue and code-review tools to GitHub and to the repository's labels and milestones.
import { PluginError, type ToolEnricher, type ToolSchema } from '../../contract/index.js';
import {
  TRACKER_ONLY_FIELDS,
  canonicalizeKey,
  projectFailedJobs,
  siblingTool,
  trackerValueModel,
} from '../kit/index.js';
import { SIDE_PARAM } from './code-review.js';
import type { MetadataStore } from './metadata.js';
import { COMMIT_STATUS_STAGE } from './pipeline-shape.js';
import { GITHUB_LINK_TYPES } from './sub-issues.js';
import type { GitHubSettings } from './options.js';

/** Parameters of the unified tools that GitHub has no counterpart for, besides the tracker-only fields. */
function unsupported(toolName: string, settings: GitHubSettings): readonly string[] {
  // Relations are sub-issues: an instance without them has none to show.
  return toolName === 'get_issue' && !settings.subIssues ? ['include_relations'] : [];
}

function fitToRepository(schema: ToolSchema, metadata: MetadataStore, toolName: string): void {
  const data = metadata.current();
  if (!data) return;
  if (data.labels?.length && schema.param('labels')) schema.setEnum('labels', data.labels);
  if (data.milestones && schema.param('milestone')) {
    const titles = [...data.milestones.keys()];
    // "" clears the milestone of an existing issue; a new issue simply leaves it out.
    const values = toolName === 'update_issue' ? [...titles, ''] : titles;
    if (values.length) schema.setEnum('milestone', values);
  }
}

/**
 * create_merge_request_comment: the agent says `line_type` ("new" / "old"), GitHub wants `side` (RIGHT /
 * LEFT). The host checks what this hands on against the plugin's declared schema, `side`'s enum included.
 */
function lineTypeToSide(args: Record<string, unknown>): void {
  if (SIDE_PARAM in args) {
    throw new PluginError(
      'invalid_input',
      `parameter "${SIDE_PARAM}" is not one of this tool's; say line_type "new" (RIGHT) or "old" (LEFT)`,
    );
  }
  const lineType = args.line_type;
  // Anything but "new" or "old" stays, for the schema check to refuse with the allowed values.
  if (lineType !== undefined && lineType !== 'new' && lineType !== 'old') return;
  if (args.line !== undefined) args[SIDE_PARAM] = lineType === 'old' ? 'LEFT' : 'RIGHT';
  delete args.line_type;
}

export function createGitHubEnricher(settings: GitHubSettings, metadata: MetadataStore): ToolEnricher {
  return {
    name: 'github',
    supportedCategories: () => ['issue_tracker', 'git_repository'],
    enrichSchema(tool, schema) {
      schema.removeParams([...TRACKER_ONLY_FIELDS, ...unsupported(tool.name, settings)]);
      if (tool.name === 'create_merge_request_comment') schema.removeParams([SIDE_PARAM]);
      if (tool.name === 'link_issues') {
        schema.setEnum('link_type', [...GITHUB_LINK_TYPES]);
        schema.setDefault('link_type', 'parent_of');
        schema.setParamDescription(
          'link_type',
          '"parent_of": target_key becomes a sub-issue of key; "child_of": key becomes a sub-issue of target_key',
        );
      }
      if (tool.name === 'get_issue' && settings.subIssues)
        schema.setParamDescription('include_relations', 'also return the parent issue and the sub-issues');
      fitToRepository(schema, metadata, tool.name);
    },
    // GitHub takes the other unified arguments as they are; the tools map them to the REST API.
    transformArgs(tool, args) {
      canonicalizeKey(tool.name, args, '#');
      if (tool.name === 'create_merge_request_comment') lineTypeToSide(args);
    },
    valueModel: (tool) => trackerValueModel(tool, settings.apiHost),
    // Only failed jobs' logs are worth reading ahead (a generic projection would take every job), and only
    // check runs have one: a commit status is a line another service wrote.
    projectArgs: (prev, result, link) =>
      prev.name === 'get_pipeline' && link.tool === siblingTool(prev, 'get_job_logs')
        ? projectFailedJobs(result, (job) => job.stage !== COMMIT_STATUS_STAGE)
        : undefined,
    rateLimitHost: () => settings.apiHost,
    watch: (changed) => metadata.onChange(changed),
  };
}
