// Maps the check runs and workflow runs of one commit to the shared PipelineShape, failed jobs first.
import type { JobShape, PipelineShape } from '../../enrich/index.js';

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

export interface CommitRuns {
  sha: string;
  ref?: string;
  /** Where a person sees all of them: a pull request's checks tab. */
  url?: string;
  checkRuns: GitHubCheckRunJson[];
  workflowRuns: GitHubWorkflowRunJson[];
}

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
 * Pure. The pipeline's id is the latest workflow run's (the sha when only other apps' checks ran); each
 * job's stage is the name of the workflow it belongs to.
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
  // A stable sort: within a rank, GitHub's order stays.
  jobs.sort((a, b) => rank(a.status) - rank(b.status));
  const latest = workflows[0];
  const statuses = [
    ...jobs.map((job) => job.status),
    ...workflows.map((run) => runStatus(run.status, run.conclusion)),
  ];
  const starts = [
    ...workflows.map((run) => run.created_at),
    ...runs.checkRuns.map((check) => check.started_at),
  ].filter((at): at is string => typeof at === 'string' && at !== '');
  const url = runs.url ?? latest?.html_url;
  const createdAt = starts.sort()[0];
  return {
    id: latest ? String(latest.id) : runs.sha,
    status: overallStatus(statuses),
    ...(runs.ref ? { ref: runs.ref } : {}),
    sha: runs.sha,
    ...(url ? { url } : {}),
    ...(createdAt ? { createdAt } : {}),
    jobs,
  };
}
