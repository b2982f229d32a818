// Maps the check runs, commit statuses and workflow runs of one commit to the shared PipelineShape, failed jobs first.
import type { JobShape, PipelineShape } from '../../contract/index.js';

/** One check run (checks.listForRef); a GitHub Actions job is a check run with the job's id. */
export interface GitHubCheckRunJson {
  id: number;
  name: string;
  status: string;
  conclusion?: string | null;
  html_url?: string | null;
  details_url?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
  check_suite?: { id: number } | null;
}

/** One workflow run (actions.listWorkflowRunsForRepo). */
export interface GitHubWorkflowRunJson {
  id: number;
  name?: string | null;
  status: string | null;
  conclusion: string | null;
  html_url?: string;
  created_at?: string;
  check_suite_id?: number;
}

/** One context's latest status (repos.getCombinedStatusForRef): what CI services report through the statuses API. */
export interface GitHubCommitStatusJson {
  id: number;
  /** error, failure, pending or success. */
  state: string;
  context: string;
  description?: string | null;
  target_url?: string | null;
  created_at?: string;
}

export interface CommitRuns {
  sha: string;
  ref?: string;
  /** Where a person sees all of them: a pull request's checks tab. */
  url?: string;
  checkRuns: GitHubCheckRunJson[];
  /** The latest status of each context; none when the commit has none. */
  statuses?: GitHubCommitStatusJson[];
  workflowRuns: GitHubWorkflowRunJson[];
}

/** The stage of a job that came from a commit status, not a check run: it has no log to read here. */
export const COMMIT_STATUS_STAGE = 'commit status';

/**
 * GitHub's words for how a run went, in the shared vocabulary: a conclusion when it is done, else its
 * status. Every way of failing (timed out, startup failure) is "failed", which is what follow-ups look for.
 */
export function runStatus(status: string | null | undefined, conclusion: string | null | undefined): string {
  switch (conclusion ?? status) {
    case 'failure':
    case 'timed_out':
    case 'startup_failure':
      return 'failed';
    case 'in_progress':
      return 'running';
    case 'queued':
    case 'waiting':
    case 'requested':
    case 'pending':
      return 'pending';
    default:
      return conclusion ?? status ?? 'unknown';
  }
}

/** A commit status's state in the shared vocabulary: "error" (the service broke) fails as "failure" does. */
function commitStatusState(state: string): string {
  return state === 'failure' || state === 'error' ? 'failed' : state;
}

/**
 * A commit status as a job. Its id is not a number, so it is never taken for an Actions job whose log can be
 * read; the stage says where it came from.
 */
function jobFromStatus(status: GitHubCommitStatusJson): JobShape {
  return {
    id: `status-${status.id}`,
    name: status.context,
    status: commitStatusState(status.state),
    stage: COMMIT_STATUS_STAGE,
    ...(status.target_url ? { url: status.target_url } : {}),
  };
}

/** Failed first, then what is still going, then what needs a person, then the rest. */
const RANK: Readonly<Record<string, number>> = {
  failed: 0,
  running: 1,
  pending: 2,
  action_required: 3,
  cancelled: 4,
};
const rank = (status: string) => RANK[status] ?? 5;

function seconds(from: string | null | undefined, to: string | null | undefined): number | undefined {
  if (!from || !to) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 1000) : undefined;
}

/** The status of the whole: failed if anything failed, else the least finished state, else success. */
export function overallStatus(statuses: string[]): string {
  if (statuses.length === 0) return 'none';
  const best = Math.min(...statuses.map(rank));
  if (best < 5) return Object.keys(RANK).find((status) => RANK[status] === best) ?? 'unknown';
  return statuses.every((s) => s === 'success' || s === 'skipped' || s === 'neutral')
    ? 'success'
    : (statuses[0] ?? 'unknown');
}

/**
 * Pure. The pipeline's id is the latest workflow run's (the sha when only other apps' checks or statuses
 * ran); a check run's stage is the name of the workflow it belongs to, a commit status's COMMIT_STATUS_STAGE.
 */
export function pipelineFromGitHub(runs: CommitRuns): PipelineShape {
  const workflows = [...runs.workflowRuns].sort((a, b) =>
    (b.created_at ?? '').localeCompare(a.created_at ?? ''),
  );
  const workflowBySuite = new Map(workflows.map((run) => [run.check_suite_id, run.name ?? undefined]));
  const jobs = runs.checkRuns.map((check): JobShape => {
    const job: JobShape = {
      id: String(check.id),
      name: check.name,
      status: runStatus(check.status, check.conclusion),
    };
    const stage = check.check_suite ? workflowBySuite.get(check.check_suite.id) : undefined;
    if (stage) job.stage = stage;
    const url = check.html_url ?? check.details_url;
    if (url) job.url = url;
    const durationS = seconds(check.started_at, check.completed_at);
    if (durationS !== undefined) job.durationS = durationS;
    return job;
  });
  // Some services report both ways, under one name: the check run, which has a duration and maybe a log, stays.
  const checkNames = new Set(runs.checkRuns.map((check) => check.name));
  const statuses = (runs.statuses ?? []).filter((status) => !checkNames.has(status.context));
  jobs.push(...statuses.map(jobFromStatus));
  // A stable sort: within a rank, GitHub's order stays.
  jobs.sort((a, b) => rank(a.status) - rank(b.status));
  const latest = workflows[0];
  const states = [
    ...jobs.map((job) => job.status),
    ...workflows.map((run) => runStatus(run.status, run.conclusion)),
  ];
  const starts = [
    ...workflows.map((run) => run.created_at),
    ...runs.checkRuns.map((check) => check.started_at),
    ...statuses.map((status) => status.created_at),
  ].filter((at): at is string => typeof at === 'string' && at !== '');
  const url = runs.url ?? latest?.html_url;
  const createdAt = starts.sort()[0];
  return {
    id: latest ? String(latest.id) : runs.sha,
    status: overallStatus(states),
    ...(runs.ref ? { ref: runs.ref } : {}),
    sha: runs.sha,
    ...(url ? { url } : {}),
    ...(createdAt ? { createdAt } : {}),
    jobs,
  };
}
