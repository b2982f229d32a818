// GitHub REST bodies of check runs, workflow runs and branches, as the plugin's pipeline tools read them.
// Field names and order follow GitHub's REST reference; `satisfies Fields<…>` refuses a field GitHub lacks.
import {
  API_ORIGIN,
  type Body,
  DEFAULT_LOGIN,
  DEFAULT_REPO,
  DEFAULT_SHA,
  DEFAULT_TIME,
  type Fields,
  type Rest,
  idFor,
  nodeId,
  repository,
  user,
} from './fake-github-bodies.js';

export interface CheckRunFields {
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  conclusion:
    'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | null;
  head_sha: string;
  started_at: string | null;
  completed_at: string | null;
  /** The check suite, which a workflow run names as its check_suite_id (default 1). */
  check_suite: number;
  /** The workflow run of an Actions job, for its html_url (default 1). */
  run: number;
}

/** A check run ("check-run"); GitHub Actions makes one per job, with the job's id. */
export function checkRun(id: number, fields: Partial<CheckRunFields> = {}, repo = DEFAULT_REPO): Body {
  const status = fields.status ?? 'completed';
  const html = `https://github.com/${repo}/actions/runs/${fields.run ?? 1}/job/${id}`;
  const api = `${API_ORIGIN}/repos/${repo}/check-runs/${id}`;
  return {
    id,
    name: fields.name ?? `job ${id}`,
    node_id: nodeId('CheckRun', id),
    head_sha: fields.head_sha ?? DEFAULT_SHA,
    external_id: `${id}`,
    url: api,
    html_url: html,
    details_url: html,
    status,
    conclusion:
      fields.conclusion !== undefined ? fields.conclusion : status === 'completed' ? 'success' : null,
    started_at: fields.started_at !== undefined ? fields.started_at : DEFAULT_TIME,
    completed_at:
      fields.completed_at !== undefined ? fields.completed_at : status === 'completed' ? DEFAULT_TIME : null,
    output: {
      title: null,
      summary: null,
      text: null,
      annotations_count: 0,
      annotations_url: `${api}/annotations`,
    },
    check_suite: { id: fields.check_suite ?? 1 },
    app: { id: 15368, slug: 'github-actions', node_id: 'MDM6QXBwMTUzNjg=', name: 'GitHub Actions' },
    pull_requests: [],
  } satisfies Fields<Rest['checks']['get']['response']['data']>;
}

/** checks.listForRef's answer. */
export function checkRunList(runs: Body[], total = runs.length): Body {
  return { total_count: total, check_runs: runs };
}

export interface WorkflowRunFields {
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  conclusion: string | null;
  head_branch: string;
  head_sha: string;
  check_suite_id: number;
  created_at: string;
  event: string;
}

/** A GitHub Actions workflow run ("workflow-run"). */
export function workflowRun(id: number, fields: Partial<WorkflowRunFields> = {}, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}/actions/runs/${id}`;
  const status = fields.status ?? 'completed';
  const suite = fields.check_suite_id ?? 1;
  const createdAt = fields.created_at ?? DEFAULT_TIME;
  return {
    id,
    name: fields.name ?? 'CI',
    node_id: nodeId('WorkflowRun', id),
    head_branch: fields.head_branch ?? 'main',
    head_sha: fields.head_sha ?? DEFAULT_SHA,
    path: '.github/workflows/ci.yml',
    display_title: fields.name ?? 'CI',
    run_number: id,
    event: fields.event ?? 'push',
    status,
    conclusion:
      fields.conclusion !== undefined ? fields.conclusion : status === 'completed' ? 'success' : null,
    workflow_id: 159038,
    check_suite_id: suite,
    check_suite_node_id: nodeId('CheckSuite', suite),
    url: api,
    html_url: `https://github.com/${repo}/actions/runs/${id}`,
    pull_requests: [],
    created_at: createdAt,
    updated_at: createdAt,
    actor: user(DEFAULT_LOGIN),
    run_attempt: 1,
    run_started_at: createdAt,
    triggering_actor: user(DEFAULT_LOGIN),
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    check_suite_url: `${API_ORIGIN}/repos/${repo}/check-suites/${suite}`,
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${API_ORIGIN}/repos/${repo}/actions/workflows/159038`,
    head_commit: null,
    repository: repository(repo),
    head_repository: repository(repo),
  } satisfies Fields<Rest['actions']['getWorkflowRun']['response']['data']>;
}

/** actions.listWorkflowRunsForRepo's answer. */
export function workflowRunList(runs: Body[], total = runs.length): Body {
  return { total_count: total, workflow_runs: runs };
}

/** A branch ("branch-with-protection") whose head commit is `sha`. */
export function branch(name: string, sha = DEFAULT_SHA, repo = DEFAULT_REPO): Body {
  const api = `${API_ORIGIN}/repos/${repo}`;
  return {
    name,
    commit: {
      sha,
      node_id: nodeId('Commit', idFor(sha)),
      url: `${api}/commits/${sha}`,
      html_url: `https://github.com/${repo}/commit/${sha}`,
      comments_url: `${api}/commits/${sha}/comments`,
      commit: {
        url: `${api}/git/commits/${sha}`,
        author: { name: 'Monalisa Octocat', email: 'octocat@github.com', date: DEFAULT_TIME },
        committer: { name: 'Monalisa Octocat', email: 'octocat@github.com', date: DEFAULT_TIME },
        message: 'Fix all the bugs',
        comment_count: 0,
        tree: { sha: '9c48853fa3dc5c1c3d6f1f1cd1f2743e72652840', url: `${api}/git/trees/9c48853` },
      },
      author: user(DEFAULT_LOGIN),
      committer: user(DEFAULT_LOGIN),
      parents: [],
    },
    _links: { html: `https://github.com/${repo}/tree/${name}`, self: `${api}/branches/${name}` },
    protected: false,
    protection: { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [] } },
    protection_url: `${api}/branches/${name}/protection`,
  } satisfies Fields<Rest['repos']['getBranch']['response']['data']>;
}

export interface CommitStatusFields {
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description: string | null;
  target_url: string | null;
  created_at: string;
}

/** One context's status on a commit ("status"), as another CI service reports it through the statuses API. */
export function commitStatus(
  id: number,
  fields: Partial<CommitStatusFields> = {},
  repo = DEFAULT_REPO,
): Body {
  const createdAt = fields.created_at ?? DEFAULT_TIME;
  return {
    url: `${API_ORIGIN}/repos/${repo}/statuses/${DEFAULT_SHA}`,
    avatar_url: null,
    id,
    node_id: nodeId('StatusContext', id),
    state: fields.state ?? 'success',
    description: fields.description ?? null,
    target_url: fields.target_url ?? null,
    context: fields.context ?? 'default',
    created_at: createdAt,
    updated_at: createdAt,
    creator: user(DEFAULT_LOGIN),
  } satisfies Fields<Rest['repos']['createCommitStatus']['response']['data']>;
}

/**
 * repos.getCombinedStatusForRef's answer: the latest status of each context. GitHub says "pending" for a
 * commit without any.
 */
export function combinedStatus(statuses: Body[], sha = DEFAULT_SHA, repo = DEFAULT_REPO): Body {
  const states = statuses.map((status) => status.state);
  const state = states.some((s) => s === 'failure' || s === 'error')
    ? 'failure'
    : states.length > 0 && states.every((s) => s === 'success')
      ? 'success'
      : 'pending';
  const api = `${API_ORIGIN}/repos/${repo}`;
  return {
    state,
    statuses,
    sha,
    total_count: statuses.length,
    repository: repository(repo),
    commit_url: `${api}/commits/${sha}`,
    url: `${api}/commits/${sha}/status`,
  } satisfies Fields<Rest['repos']['getCombinedStatusForRef']['response']['data']>;
}
