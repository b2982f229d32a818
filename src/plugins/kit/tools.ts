// The unified issue and code-review tools every tracker provider publishes: names, input schemas, categories.
// Each provider lists the ones it can serve; its enricher removes the parameters it does not support.
import type { ToolDescriptor } from '../../contract/index.js';
import { DEFAULT_CONTEXT_LINES, DEFAULT_LOG_LINES } from './ci-logs.js';
import { MAX_LOG_LINES } from './log-window.js';

type Schema = Record<string, unknown>;

const text = (description: string): Schema => ({ type: 'string', description });
const names = (description: string): Schema => ({ type: 'array', items: { type: 'string' }, description });
const flag = (description: string): Schema => ({ type: 'boolean', description });

/** Page size and position; `offset` is what the format layer's "call again with offset=N" refers to. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const paging: Record<string, Schema> = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `most items to return (1-${MAX_LIMIT})`,
  },
  offset: { type: 'integer', minimum: 0, default: 0, description: 'items to skip, for the next page' },
};

// Keys are strings ("#12", "PROJ-7"), but an agent often sends a bare number: both are accepted.
const key = (description: string): Schema => ({ type: ['string', 'integer'], description });
const issueKey = key(
  'the issue: "#123" (GitHub, GitLab), "PROJ-7" (Jira), a task id (ClickUp), or a bare number',
);
const mergeRequestKey = key('the pull or merge request: "#45" (GitHub), "!45" (GitLab), or a bare number');

const day = (description: string): Schema => ({ type: 'string', format: 'date', description });

/** Fields some trackers have and others do not: each provider's enricher removes what it lacks. */
const trackerFields = {
  priority: text('priority name'),
  type: text('issue type, e.g. "Bug" or "Task"'),
  status: text('workflow status name, e.g. "In Progress"'),
  components: names('component names'),
  points: { type: 'number', minimum: 0, description: 'story points or estimate' },
  parent: text('key of the parent issue or epic'),
  epic: text('key of the epic, where an epic is not a parent (Jira Server "Epic Link")'),
  sprint: text('sprint name or id'),
  due_date: day('due date, YYYY-MM-DD'),
  customFields: { type: 'object', description: 'custom fields by name', additionalProperties: true },
} satisfies Record<string, Schema>;

/** Filters of get_issues that some trackers have and others do not: removed by the enrichers that lack them. */
const trackerFilters = {
  query: text(
    "a query in the tracker's own language (Jira: JQL), used as given; other filters are added to it",
  ),
  statuses: names('only issues in one of these workflow statuses'),
  created_after: day('only issues created on or after this day, YYYY-MM-DD'),
  created_before: day('only issues created before this day, YYYY-MM-DD'),
  updated_after: day('only issues updated on or after this day, YYYY-MM-DD'),
  due_after: day('only issues due on or after this day, YYYY-MM-DD'),
  due_before: day('only issues due before this day, YYYY-MM-DD'),
} satisfies Record<string, Schema>;

function tool(
  name: string,
  category: 'issue_tracker' | 'git_repository',
  read: boolean,
  description: string,
  properties: Record<string, Schema>,
  required: string[] = [],
): ToolDescriptor {
  return {
    name,
    description,
    category,
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    annotations: read
      ? { readOnlyHint: true, openWorldHint: true }
      : { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  };
}

export const ISSUE_TOOLS = {
  get_issues: tool(
    'get_issues',
    'issue_tracker',
    true,
    'Lists issues, newest first unless sorted otherwise.',
    {
      state: {
        type: 'string',
        enum: ['open', 'closed', 'all'],
        default: 'open',
        description: 'which issues',
      },
      search: text('words to search for in titles and descriptions'),
      labels: names('only issues with all of these labels'),
      assignee: text('only issues assigned to this user'),
      author: text('only issues opened by this user'),
      sort: { type: 'string', enum: ['created', 'updated', 'comments'], default: 'created' },
      order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      priority: trackerFields.priority,
      type: trackerFields.type,
      ...trackerFilters,
      ...paging,
    },
  ),
  get_issue: tool(
    'get_issue',
    'issue_tracker',
    true,
    'One issue in full: description, fields, and optionally its comments and related issues.',
    {
      key: issueKey,
      include_comments: flag('also return the comments (first page)'),
      include_relations: flag('also return linked and child issues'),
    },
    ['key'],
  ),
  get_issue_comments: tool(
    'get_issue_comments',
    'issue_tracker',
    true,
    'The comments of an issue, oldest first.',
    { key: issueKey, ...paging },
    ['key'],
  ),
  create_issue: tool(
    'create_issue',
    'issue_tracker',
    false,
    'Opens a new issue.',
    {
      title: text('one-line summary'),
      body: text('description, in Markdown'),
      labels: names('label names'),
      assignees: names('user names'),
      milestone: text('milestone title'),
      ...trackerFields,
    },
    ['title'],
  ),
  update_issue: tool(
    'update_issue',
    'issue_tracker',
    false,
    'Changes an issue: only the fields given are changed; lists (labels, assignees) are replaced.',
    {
      key: issueKey,
      title: text('new one-line summary'),
      body: text('new description, in Markdown'),
      state: { type: 'string', enum: ['open', 'closed'], description: 'open or close the issue' },
      labels: names('the new full list of label names'),
      assignees: names('the new full list of user names'),
      milestone: text('milestone title; "" to clear it'),
      ...trackerFields,
    },
    ['key'],
  ),
  add_issue_comment: tool(
    'add_issue_comment',
    'issue_tracker',
    false,
    'Adds a comment to an issue.',
    { key: issueKey, body: text('the comment, in Markdown') },
    ['key', 'body'],
  ),
  link_issues: tool(
    'link_issues',
    'issue_tracker',
    false,
    'Links two issues.',
    {
      key: issueKey,
      target_key: key('the other issue, in the same forms as key'),
      link_type: text('how they relate'),
    },
    ['key', 'target_key'],
  ),
} as const satisfies Record<string, ToolDescriptor>;

export const MERGE_REQUEST_TOOLS = {
  get_merge_requests: tool(
    'get_merge_requests',
    'git_repository',
    true,
    'Lists pull / merge requests, newest first.',
    {
      state: {
        type: 'string',
        enum: ['open', 'closed', 'merged', 'all'],
        default: 'open',
        description: 'which requests; "closed" means closed without merging',
      },
      author: text('only requests opened by this user'),
      labels: names('only requests with all of these labels'),
      source_branch: text('only requests from this branch'),
      target_branch: text('only requests into this branch'),
      ...paging,
    },
  ),
  get_merge_request: tool(
    'get_merge_request',
    'git_repository',
    true,
    'One pull / merge request in full.',
    { key: mergeRequestKey },
    ['key'],
  ),
  get_merge_request_discussions: tool(
    'get_merge_request_discussions',
    'git_repository',
    true,
    'Review threads of a pull / merge request, with file and line positions and whether each is resolved.',
    { key: mergeRequestKey, ...paging },
    ['key'],
  ),
  get_merge_request_diffs: tool(
    'get_merge_request_diffs',
    'git_repository',
    true,
    'The changed files of a pull / merge request with their diffs, a page of files at a time.',
    { key: mergeRequestKey, ...paging },
    ['key'],
  ),
  create_merge_request: tool(
    'create_merge_request',
    'git_repository',
    false,
    'Opens a pull / merge request.',
    {
      title: text('one-line summary'),
      source_branch: text('the branch with the changes'),
      target_branch: text('the branch to merge into'),
      body: text('description, in Markdown'),
      draft: flag('open as a draft'),
      labels: names('label names'),
      assignees: names('user names'),
      reviewers: names('user names'),
    },
    ['title', 'source_branch', 'target_branch'],
  ),
  update_merge_request: tool(
    'update_merge_request',
    'git_repository',
    false,
    'Changes a pull / merge request: only the fields given are changed.',
    {
      key: mergeRequestKey,
      title: text('new one-line summary'),
      body: text('new description, in Markdown'),
      state: { type: 'string', enum: ['open', 'closed'], description: 'reopen or close (without merging)' },
      target_branch: text('new branch to merge into'),
      draft: flag('mark as draft or ready'),
      labels: names('the new full list of label names'),
      assignees: names('the new full list of user names'),
      reviewers: names('user names to request reviews from'),
    },
    ['key'],
  ),
  create_merge_request_comment: tool(
    'create_merge_request_comment',
    'git_repository',
    false,
    'Comments on a pull / merge request: in general, or on one line of its diff (file_path and line).',
    {
      key: mergeRequestKey,
      body: text('the comment, in Markdown'),
      file_path: text('for a line comment: the file, as in the diff'),
      line: { type: 'integer', minimum: 1, description: 'for a line comment: the line number in that file' },
      line_type: {
        type: 'string',
        enum: ['new', 'old'],
        default: 'new',
        description: '"new" for a line of the changed file (added or kept), "old" for a removed line',
      },
    },
    ['key', 'body'],
  ),
  get_pipeline: tool(
    'get_pipeline',
    'git_repository',
    true,
    'The latest CI run of a branch or of a pull / merge request, failed jobs first.',
    { branch: text('the branch (default: the default branch)'), key: mergeRequestKey },
  ),
  get_job_logs: tool(
    'get_job_logs',
    'git_repository',
    true,
    'The log of one CI job: the lines around each match of `pattern`, or a page of lines.',
    {
      job_id: key('the job id, as get_pipeline gives it'),
      pattern: text(
        'a regular expression (JavaScript syntax), case-insensitive unless it has an upper-case letter; returns matching lines with context',
      ),
      context_lines: { type: 'integer', minimum: 0, maximum: 50, default: DEFAULT_CONTEXT_LINES },
      offset: { type: 'integer', minimum: 0, default: 0, description: 'first line, for paging' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LOG_LINES,
        default: DEFAULT_LOG_LINES,
        description: 'most lines',
      },
    },
    ['job_id'],
  ),
} as const satisfies Record<string, ToolDescriptor>;

/** Metadata is reloaded every few minutes; this asks for it now, e.g. right after an admin added a field or option. */
const reload = flag(
  'reload the workflows and fields first (they are otherwise reloaded every few minutes); the tool schemas follow',
);

/** What a tracker's workflow and fields look like, for trackers that have them (Jira, ClickUp). */
export const TRACKER_METADATA_TOOLS = {
  get_available_statuses: tool(
    'get_available_statuses',
    'issue_tracker',
    true,
    'The workflow statuses issues can have; with `key`, the statuses that issue can move to now.',
    { key: key('an issue, to list only the statuses it can move to; leave out for all'), refresh: reload },
  ),
  get_custom_fields: tool(
    'get_custom_fields',
    'issue_tracker',
    true,
    'The custom fields issues carry: name, value type, allowed values, and the parameter that sets each.',
    { refresh: reload },
  ),
  get_users: tool('get_users', 'issue_tracker', true, 'Finds users by name or email, for assignees.', {
    search: text('part of a name, username or email'),
    ...paging,
  }),
} as const satisfies Record<string, ToolDescriptor>;

/** Agile sprints, for trackers that have boards (Jira). */
export const SPRINT_TOOLS = {
  get_board_sprints: tool(
    'get_board_sprints',
    'issue_tracker',
    true,
    "A board's sprints: active and future ones unless asked otherwise.",
    {
      board: key("the board's id or name; leave out for the project's board"),
      state: {
        type: 'string',
        enum: ['active', 'future', 'closed', 'open', 'all'],
        default: 'open',
        description: 'which sprints; "open" = active and future',
      },
      ...paging,
    },
  ),
  assign_to_sprint: tool(
    'assign_to_sprint',
    'issue_tracker',
    false,
    'Moves issues into a sprint.',
    {
      sprint: key('the sprint: its id, or its name on the board'),
      keys: { type: 'array', items: { type: ['string', 'integer'] }, minItems: 1, description: 'issue keys' },
    },
    ['sprint', 'keys'],
  ),
} as const satisfies Record<string, ToolDescriptor>;

export type IssueToolName = keyof typeof ISSUE_TOOLS;
export type MergeRequestToolName = keyof typeof MERGE_REQUEST_TOOLS;
export type TrackerMetadataToolName = keyof typeof TRACKER_METADATA_TOOLS;
export type SprintToolName = keyof typeof SPRINT_TOOLS;
export type TrackerToolName = IssueToolName | MergeRequestToolName | TrackerMetadataToolName | SprintToolName;

/** Parameters of the unified schemas that only some trackers have. */
export const TRACKER_ONLY_FIELDS = [...Object.keys(trackerFields), ...Object.keys(trackerFilters)];
