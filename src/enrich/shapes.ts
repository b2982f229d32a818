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
  | { kind: 'pipeline'; item: PipelineShape };

export type ShapedResultKind = ShapedResult['kind'];

export const SHAPED_RESULT_KINDS = [
  'issue_list',
  'issue',
  'comment_list',
  'merge_request_list',
  'merge_request',
  'diff_list',
  'pipeline',
] as const satisfies readonly ShapedResultKind[];
