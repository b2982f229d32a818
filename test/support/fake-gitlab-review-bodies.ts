// GitLab REST v4 bodies of merge requests, discussions, diffs, pipelines and jobs, field by field as GitLab's
// API documentation gives them.
import { type Body, DEFAULT_PROJECT, PROJECT_ID, TIME, WEB, user } from './fake-gitlab-issue-bodies.js';

export function discussion(id: string, notes: Body[]): Body {
  return { id, individual_note: notes.length === 1 && notes[0]?.type === null, notes };
}

export interface MergeRequestFields {
  title: string;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  description: string | null;
  author: string;
  assignees: string[];
  reviewers: string[];
  labels: string[];
  source_branch: string;
  target_branch: string;
  draft: boolean;
  user_notes_count: number;
  project: string;
}

/** The single-merge-request shape (lists leave out diff_refs and a few more; the plugin reads neither there). */
export function mergeRequest(iid: number, fields: Partial<MergeRequestFields> = {}): Body {
  const path = fields.project ?? DEFAULT_PROJECT;
  const state = fields.state ?? 'opened';
  const assignees = (fields.assignees ?? []).map((name) => user(name));
  return {
    id: 2000 + iid,
    iid,
    project_id: PROJECT_ID,
    title: fields.title ?? (fields.draft ? `Draft: Change ${iid}` : `Change ${iid}`),
    description: fields.description === undefined ? null : fields.description,
    state,
    created_at: TIME,
    updated_at: TIME,
    merged_by: state === 'merged' ? user('root', 1) : null,
    merge_user: state === 'merged' ? user('root', 1) : null,
    merged_at: state === 'merged' ? TIME : null,
    closed_by: state === 'closed' ? user('root', 1) : null,
    closed_at: state === 'closed' ? TIME : null,
    target_branch: fields.target_branch ?? 'main',
    source_branch: fields.source_branch ?? `feature-${iid}`,
    user_notes_count: fields.user_notes_count ?? 0,
    upvotes: 0,
    downvotes: 0,
    author: user(fields.author ?? 'root', fields.author ? undefined : 1),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: (fields.reviewers ?? []).map((name) => user(name)),
    source_project_id: PROJECT_ID,
    target_project_id: PROJECT_ID,
    labels: fields.labels ?? [],
    draft: fields.draft ?? false,
    work_in_progress: fields.draft ?? false,
    milestone: null,
    merge_when_pipeline_succeeds: false,
    merge_status: 'can_be_merged',
    detailed_merge_status: 'mergeable',
    sha: 'a'.repeat(40),
    merge_commit_sha: null,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: true,
    reference: `!${iid}`,
    references: { short: `!${iid}`, relative: `!${iid}`, full: `${path}!${iid}` },
    web_url: `${WEB}/${path}/-/merge_requests/${iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: false,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: true,
    subscribed: false,
    changes_count: '1',
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: { base_sha: 'b'.repeat(40), head_sha: 'a'.repeat(40), start_sha: 'c'.repeat(40) },
    merge_error: null,
    user: { can_merge: true },
  };
}

export interface DiffFields {
  old_path: string;
  diff: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
}

export function diff(newPath: string, fields: Partial<DiffFields> = {}): Body {
  return {
    old_path: fields.old_path ?? newPath,
    new_path: newPath,
    a_mode: fields.new_file ? '0' : '100644',
    b_mode: fields.deleted_file ? '0' : '100644',
    diff: fields.diff ?? '@@ -1 +1 @@\n-old\n+new\n',
    new_file: fields.new_file ?? false,
    renamed_file: fields.renamed_file ?? false,
    deleted_file: fields.deleted_file ?? false,
    generated_file: false,
  };
}

export function pipeline(id: number, fields: { status?: string; ref?: string; project?: string } = {}): Body {
  return {
    id,
    iid: id % 1000,
    project_id: PROJECT_ID,
    status: fields.status ?? 'success',
    source: 'push',
    ref: fields.ref ?? 'main',
    sha: 'a'.repeat(40),
    name: 'Build pipeline',
    web_url: `${WEB}/${fields.project ?? DEFAULT_PROJECT}/-/pipelines/${id}`,
    created_at: TIME,
    updated_at: TIME,
  };
}

export function job(
  id: number,
  name: string,
  status: string,
  fields: { stage?: string; pipelineId?: number } = {},
): Body {
  return {
    commit: {
      author_email: 'admin@example.com',
      author_name: 'Administrator',
      created_at: TIME,
      id: 'a'.repeat(40),
      message: 'Test the CI integration.',
      short_id: 'aaaaaaaa',
      title: 'Test the CI integration.',
    },
    coverage: null,
    allow_failure: false,
    created_at: TIME,
    started_at: TIME,
    finished_at: TIME,
    erased_at: null,
    duration: 12.5,
    queued_duration: 0.2,
    artifacts_expire_at: null,
    tag_list: ['docker'],
    id,
    name,
    pipeline: {
      id: fields.pipelineId ?? 1,
      project_id: PROJECT_ID,
      ref: 'main',
      sha: 'a'.repeat(40),
      status,
    },
    ref: 'main',
    artifacts: [],
    runner: null,
    stage: fields.stage ?? 'test',
    status,
    ...(status === 'failed' ? { failure_reason: 'script_failure' } : {}),
    tag: false,
    web_url: `${WEB}/${DEFAULT_PROJECT}/-/jobs/${id}`,
    project: { ci_job_token_scope_enabled: false },
    user: user('root', 1),
  };
}
