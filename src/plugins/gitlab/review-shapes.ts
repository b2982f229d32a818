// Maps GitLab's merge request, diff, pipeline and job JSON to the shared review and CI shapes.
import type { DiffFileShape, JobShape, MergeRequestShape, PipelineShape } from '../../contract/index.js';
import { type GitLabUserJson, nonEmpty, unifiedState, withOptional } from './issue-shape.js';

export interface GitLabMergeRequestJson {
  iid: number;
  title: string;
  /** "opened", "closed", "merged" or "locked". */
  state: string;
  description?: string | null;
  web_url?: string;
  author?: GitLabUserJson | null;
  assignees?: GitLabUserJson[] | null;
  reviewers?: GitLabUserJson[] | null;
  labels?: (string | { name?: string })[];
  source_branch?: string;
  target_branch?: string;
  draft?: boolean;
  work_in_progress?: boolean;
  created_at?: string;
  updated_at?: string;
  merged_at?: string | null;
  closed_at?: string | null;
  user_notes_count?: number;
  /** The SHAs a diff position refers to (single merge request only). */
  diff_refs?: { base_sha: string; head_sha: string; start_sha: string } | null;
}

export interface GitLabDiffJson {
  old_path: string;
  new_path: string;
  diff?: string | null;
  new_file?: boolean;
  renamed_file?: boolean;
  deleted_file?: boolean;
  /** Set by GitLab when it left the diff out (over its own limits). */
  too_large?: boolean;
  collapsed?: boolean;
}

export interface GitLabPipelineJson {
  id: number;
  status: string;
  ref?: string;
  sha?: string;
  web_url?: string;
  created_at?: string;
}

export interface GitLabJobJson {
  id: number;
  name: string;
  status: string;
  stage?: string;
  web_url?: string;
  duration?: number | null;
  allow_failure?: boolean;
}

export function mergeRequestFromGitLab(raw: GitLabMergeRequestJson): MergeRequestShape {
  const users = (list: GitLabUserJson[] | null | undefined) => nonEmpty((list ?? []).map((u) => u.username));
  return withOptional<MergeRequestShape>(
    { key: `!${raw.iid}`, title: raw.title, state: unifiedState(raw.state) },
    {
      url: raw.web_url,
      author: raw.author?.username,
      assignees: users(raw.assignees),
      reviewers: users(raw.reviewers),
      labels: nonEmpty((raw.labels ?? []).map((label) => (typeof label === 'string' ? label : label.name))),
      sourceBranch: raw.source_branch,
      targetBranch: raw.target_branch,
      draft: raw.draft === true || raw.work_in_progress === true ? true : undefined,
      createdAt: raw.created_at,
      updatedAt: raw.updated_at,
      mergedAt: raw.merged_at ?? undefined,
      closedAt: raw.closed_at ?? undefined,
      commentCount: raw.user_notes_count,
      body: raw.description ?? undefined,
    },
  );
}

function diffStatus(raw: GitLabDiffJson): DiffFileShape['status'] {
  if (raw.new_file) return 'added';
  if (raw.deleted_file) return 'deleted';
  if (raw.renamed_file) return 'renamed';
  return 'modified';
}

/** Counts the +/- lines of a unified diff, hunk headers and "\ No newline" markers aside. */
function lineCounts(diff: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) additions++;
    else if (line.startsWith('-') && !line.startsWith('---')) deletions++;
  }
  return { additions, deletions };
}

/** One changed file; a diff longer than `maxChars` is cut at a line end and flagged, with how to see the rest. */
export function diffFileFromGitLab(raw: GitLabDiffJson, maxChars: number, webUrl?: string): DiffFileShape {
  const full = raw.diff ?? '';
  const omitted = full === '' && (raw.too_large === true || raw.collapsed === true);
  const cut = full.length > maxChars;
  let diff = full;
  if (cut) {
    const end = full.lastIndexOf('\n', maxChars);
    diff = full.slice(0, end > 0 ? end : maxChars);
    const where = webUrl ? `; the whole diff is at ${webUrl}/diffs` : '';
    diff += `\n… ${full.length - diff.length} more characters of this file's diff not shown${where}`;
  }
  return withOptional<DiffFileShape>(
    { path: raw.new_path, status: diffStatus(raw) },
    {
      oldPath: raw.old_path !== raw.new_path ? raw.old_path : undefined,
      ...(full === '' ? {} : lineCounts(full)),
      diff: omitted ? `GitLab left this diff out (too large)${webUrl ? `; see ${webUrl}/diffs` : ''}` : diff,
      truncated: cut || omitted ? true : undefined,
    },
  );
}

export function jobFromGitLab(raw: GitLabJobJson): JobShape {
  return withOptional<JobShape>(
    { id: String(raw.id), name: raw.name, status: raw.status },
    {
      stage: raw.stage,
      url: raw.web_url,
      durationS: typeof raw.duration === 'number' ? Math.round(raw.duration) : undefined,
    },
  );
}

/** The pipeline with its jobs, failed ones first, the rest in the order they ran (by id). */
export function pipelineFromGitLab(raw: GitLabPipelineJson, jobs: GitLabJobJson[]): PipelineShape {
  const ordered = [...jobs].sort(
    (a, b) => Number(b.status === 'failed') - Number(a.status === 'failed') || a.id - b.id,
  );
  return withOptional<PipelineShape>(
    { id: String(raw.id), status: raw.status, jobs: ordered.map(jobFromGitLab) },
    { ref: raw.ref, sha: raw.sha, url: raw.web_url, createdAt: raw.created_at },
  );
}
