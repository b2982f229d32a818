// The shared result shapes: what tracker and code-review tools put in `structuredContent` for the format layer to render.
// Providers fill these from their APIs; every field but the identifying ones is optional, so a provider
// leaves out what it does not have rather than inventing it.

/** One issue, ticket or task, whatever the tracker calls it. */
export interface IssueShape {
  /** The key people use: "#123" (GitHub, GitLab), "PROJ-7" (Jira), the task id (ClickUp). */
  key: string;
  title: string;
  /** The tracker's own state or status name: "open", "closed", "In Progress". */
  state: string;
  url?: string;
  /** Login or display name. */
  author?: string;
  assignees?: string[];
  labels?: string[];
  priority?: string;
  type?: string;
  milestone?: string;
  /** Key of the parent issue or epic. */
  parent?: string;
  /** ISO 8601 timestamps. */
  createdAt?: string;
  updatedAt?: string;
  closedAt?: string;
  commentCount?: number;
  /** Markdown. */
  body?: string;
  /** Custom fields by their display name. */
  customFields?: Record<string, unknown>;
  /** Related issues: sub-issues, the parent, links such as "blocks" (get_issue with include_relations). */
  links?: IssueLinkShape[];
}

/** One related issue, seen from the issue that holds the link. */
export interface IssueLinkShape {
  key: string;
  /** In the tracker's words, from this issue's side: "sub-issue", "parent", "blocks", "is blocked by", "relates to". */
  relation: string;
  title?: string;
  state?: string;
  url?: string;
}

/** A comment on an issue or a review thread note. */
export interface CommentShape {
  id: string;
  author?: string;
  createdAt?: string;
  updatedAt?: string;
  body: string;
  url?: string;
  /** Review comments: where in the diff. */
  path?: string;
  line?: number;
  /** Review threads: whether the thread is resolved. */
  resolved?: boolean;
}

/** A pull request (GitHub) or merge request (GitLab). */
export interface MergeRequestShape {
  /** "#45" (GitHub) or "!45" (GitLab). */
  key: string;
  title: string;
  /** "open", "closed", "merged", or the provider's own word. */
  state: string;
  url?: string;
  author?: string;
  assignees?: string[];
  reviewers?: string[];
  labels?: string[];
  sourceBranch?: string;
  targetBranch?: string;
  draft?: boolean;
  createdAt?: string;
  updatedAt?: string;
  mergedAt?: string;
  closedAt?: string;
  commentCount?: number;
  body?: string;
}

/** One changed file of a merge request. */
export interface DiffFileShape {
  path: string;
  /** Set when the file was renamed. */
  oldPath?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  additions?: number;
  deletions?: number;
  /** Unified diff text of this file; may be cut by the provider's size cap. */
  diff?: string;
  /** True when the provider cut `diff`. */
  truncated?: boolean;
}

/** One job (GitLab) or check run (GitHub) of a pipeline. */
export interface JobShape {
  id: string;
  name: string;
  /** "failed", "success", "running", … */
  status: string;
  stage?: string;
  url?: string;
  durationS?: number;
}

/** A CI pipeline (GitLab) or the check and workflow runs of a commit (GitHub). */
export interface PipelineShape {
  id: string;
  status: string;
  ref?: string;
  sha?: string;
  url?: string;
  createdAt?: string;
  /** Failed jobs first. */
  jobs: JobShape[];
}

/** A workflow status an issue can be in, or move to. */
export interface StatusShape {
  name: string;
  /** What the status means for work: "todo", "in_progress", "done" (or the tracker's own category word). */
  category?: string;
  /** Where the status applies when not everywhere: Jira issue types, a ClickUp list. */
  scope?: string;
  /** For one issue's reachable statuses: the workflow transition that leads there (Jira). */
  transition?: string;
}

/** A custom field issues can carry, as the enriched tools take it. */
export interface FieldShape {
  /** The tracker's id: "customfield_10010" (Jira), a UUID (ClickUp). */
  id: string;
  name: string;
  /** The value type the agent passes: "option", "options", "labels", "number", "date", "text", "user", "checkbox", "url", "email", … */
  type: string;
  /** The parameter of the enriched create/update tools that sets it: "cf_severity". */
  param?: string;
  /** Allowed values of option-like fields, by name. */
  options?: string[];
  required?: boolean;
  /** Where the field applies when not everywhere: a Jira project and issue types, a ClickUp list. */
  scope?: string;
}

/** A user, for assignees. */
export interface UserShape {
  /** What the tracker's API takes: Jira accountId (Cloud) or name (Server), ClickUp user id. */
  id: string;
  name: string;
  username?: string;
  email?: string;
  active?: boolean;
}

/** A sprint of an agile board. */
export interface SprintShape {
  id: string;
  name: string;
  /** "active", "future", "closed". */
  state: string;
  board?: string;
  /** ISO 8601 timestamps. */
  startAt?: string;
  endAt?: string;
  completeAt?: string;
  goal?: string;
}

/** Where a list sits in the whole result set, so a trimmed list can say how to get the rest. */
export interface PageInfo {
  /** Index of the first item in the whole result set. */
  offset: number;
  /** The page size asked for. */
  limit?: number;
  /** Size of the whole result set, when the provider knows it. */
  total?: number;
  /** The tool parameter that moves through the set; default "offset". */
  offsetParam?: string;
}

/** The `structuredContent` of a formatted result: a `kind` that names the shape, and the data. */
export type ShapedResult =
  | { kind: 'issue_list'; items: IssueShape[]; page?: PageInfo }
  | { kind: 'issue'; item: IssueShape; comments?: CommentShape[] }
  | { kind: 'comment_list'; items: CommentShape[]; page?: PageInfo }
  | { kind: 'merge_request_list'; items: MergeRequestShape[]; page?: PageInfo }
  | { kind: 'merge_request'; item: MergeRequestShape; comments?: CommentShape[] }
  | { kind: 'diff_list'; items: DiffFileShape[]; page?: PageInfo }
  | { kind: 'pipeline'; item: PipelineShape }
  | { kind: 'status_list'; items: StatusShape[]; page?: PageInfo }
  | { kind: 'field_list'; items: FieldShape[]; page?: PageInfo }
  | { kind: 'user_list'; items: UserShape[]; page?: PageInfo }
  | { kind: 'sprint_list'; items: SprintShape[]; page?: PageInfo };

export type ShapedResultKind = ShapedResult['kind'];

export const SHAPED_RESULT_KINDS = [
  'issue_list',
  'issue',
  'comment_list',
  'merge_request_list',
  'merge_request',
  'diff_list',
  'pipeline',
  'status_list',
  'field_list',
  'user_list',
  'sprint_list',
] as const satisfies readonly ShapedResultKind[];
