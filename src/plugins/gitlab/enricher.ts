// The gitlab plugin's enricher: fits the unified tools to GitLab and to the project's labels and milestones.
import type { ToolEnricher, ToolSchema } from '../../contract/index.js';
import {
  TRACKER_ONLY_FIELDS,
  canonicalizeKey,
  projectFailedJobs,
  siblingTool,
  trackerValueModel,
} from '../kit/index.js';
import { LINK_TYPES } from './issue-links.js';
import type { MetadataStore } from './metadata.js';
import type { GitLabSettings } from './options.js';
import { LINE_FIELD } from './reviews.js';

/** Tools whose `labels` take the project's label names. */
const LABELLED = new Set([
  'get_issues',
  'create_issue',
  'update_issue',
  'get_merge_requests',
  'create_merge_request',
  'update_merge_request',
]);

/** How people write a link type, mapped to GitLab's. */
const LINK_TYPE_WORDS: Readonly<Record<string, (typeof LINK_TYPES)[number]>> = {
  relates_to: 'relates_to',
  relates: 'relates_to',
  related: 'relates_to',
  related_to: 'relates_to',
  blocks: 'blocks',
  is_blocked_by: 'is_blocked_by',
  blocked_by: 'is_blocked_by',
};

function fitToProject(schema: ToolSchema, metadata: MetadataStore, toolName: string): void {
  const data = metadata.current();
  if (!data) return;
  if (LABELLED.has(toolName) && data.labels.length && schema.param('labels')) {
    schema.setEnum('labels', data.labels);
  }
  if (schema.param('milestone')) {
    const titles = [...data.milestones.keys()];
    // "" clears the milestone of an existing issue; a new issue simply leaves it out.
    const values = toolName === 'update_issue' ? [...titles, ''] : titles;
    if (values.length) schema.setEnum('milestone', values);
  }
}

function fitToGitLab(schema: ToolSchema, toolName: string): void {
  switch (toolName) {
    case 'get_issues':
      // GitLab orders issues by dates, title, priority…, but not by comment count.
      schema.setEnum('sort', ['created', 'updated']);
      break;
    case 'link_issues':
      schema.setEnum('link_type', [...LINK_TYPES]);
      schema.setDefault('link_type', 'relates_to');
      schema.setParamDescription(
        'link_type',
        'how the issue relates to target_key: relates_to, blocks, or is_blocked_by (the last two need GitLab Premium)',
      );
      schema.setParamDescription(
        'target_key',
        'the other issue: "#12", or "group/project#12" in another project',
      );
      break;
    case 'create_merge_request_comment':
      // The agent chooses a side with line_type; the plugin receives GitLab's position field instead.
      schema.removeParams([LINE_FIELD]);
      break;
    case 'get_job_logs':
      schema.addParam('offset', {
        type: 'integer',
        minimum: 0,
        description:
          'lines to skip, for paging; leave out for the last `limit` lines, where a failed job says why',
      });
      break;
  }
}

export function createGitLabEnricher(settings: GitLabSettings, metadata: MetadataStore): ToolEnricher {
  return {
    name: 'gitlab',
    supportedCategories: () => ['issue_tracker', 'git_repository'],
    enrichSchema(tool, schema) {
      // Weight, epics and iterations exist in some GitLab tiers; the unified tools do not map them yet.
      schema.removeParams(TRACKER_ONLY_FIELDS);
      fitToGitLab(schema, tool.name);
      fitToProject(schema, metadata, tool.name);
    },
    transformArgs(tool, args) {
      canonicalizeKey(tool.name, args, '!');
      if (tool.name === 'link_issues' && typeof args.link_type === 'string') {
        const word = args.link_type
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_');
        args.link_type = LINK_TYPE_WORDS[word] ?? args.link_type;
      }
      if (tool.name === 'create_merge_request_comment') {
        // line_type "new" / "old" → GitLab's position field; the host validates it against the plugin's enum.
        if (args.file_path !== undefined || args.line !== undefined) {
          args[LINE_FIELD] = args.line_type === 'old' ? 'old_line' : 'new_line';
        }
        delete args.line_type;
      }
    },
    valueModel: (tool) => trackerValueModel(tool, settings.apiHost),
    rateLimitHost: () => settings.apiHost,
    projectArgs(prev, prevResult, link) {
      // Only failed jobs' logs are worth reading ahead; a generic projection would take every job.
      if (prev.name === 'get_pipeline' && link.tool === siblingTool(prev, 'get_job_logs')) {
        return projectFailedJobs(prevResult);
      }
      return undefined;
    },
    watch: (changed) => metadata.onChange(changed),
  };
}
