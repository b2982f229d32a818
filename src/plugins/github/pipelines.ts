// get_pipeline on GitHub: the check runs, commit statuses and workflow runs of a branch's or a pull request's head commit.
import { PluginError } from '../../contract/index.js';
import { pullNumber } from './args.js';
import { request } from './failure.js';
import {
  type CommitRuns,
  type GitHubCheckRunJson,
  type GitHubCommitStatusJson,
  type GitHubWorkflowRunJson,
  pipelineFromGitHub,
} from './pipeline-shape.js';
import { allPages } from './paging.js';
import { type ReviewContext } from './review-context.js';
import { shapedResult, str, type ToolHandler } from '../kit/index.js';

/** Check runs (and commit statuses) read per commit: pages of 100. A commit with more is rare; the first 300 are shown. */
const MAX_CHECK_RUN_PAGES = 3;

type Head = Pick<CommitRuns, 'sha' | 'ref' | 'url'>;

export function createPipelineTools(context: ReviewContext) {
  const { client, owner, repo, target } = context;

  async function headOfPull(number: number, signal: AbortSignal): Promise<Head> {
    const { data } = await request(target(`pull request #${number}`), signal, () =>
      client.rest.pulls.get({ owner, repo, pull_number: number, request: { signal } }),
    );
    return { sha: data.head.sha, ref: data.head.ref, url: `${data.html_url}/checks` };
  }

  async function headOfBranch(branch: string | undefined, signal: AbortSignal): Promise<Head> {
    let name = branch;
    if (name === undefined) {
      const { data } = await request(target('the repository'), signal, () =>
        client.rest.repos.get({ owner, repo, request: { signal } }),
      );
      name = data.default_branch;
    }
    const known = name;
    const { data } = await request(target(`branch "${known}"`), signal, () =>
      client.rest.repos.getBranch({ owner, repo, branch: known, request: { signal } }),
    );
    return { sha: data.commit.sha, ref: known };
  }

  async function checkRuns(sha: string, signal: AbortSignal): Promise<GitHubCheckRunJson[]> {
    const { items } = await allPages(
      client,
      target(`the check runs of commit ${sha.slice(0, 7)}`),
      { signal },
      MAX_CHECK_RUN_PAGES,
      () => client.rest.checks.listForRef({ owner, repo, ref: sha, per_page: 100, request: { signal } }),
      (data) => (data as { check_runs: GitHubCheckRunJson[] }).check_runs,
    );
    return items;
  }

  /** The latest status of each context (the combined status): how CI services outside GitHub Apps report. */
  async function commitStatuses(sha: string, signal: AbortSignal): Promise<GitHubCommitStatusJson[]> {
    const { items } = await allPages(
      client,
      target(`the commit statuses of commit ${sha.slice(0, 7)}`),
      { signal },
      MAX_CHECK_RUN_PAGES,
      () =>
        client.rest.repos.getCombinedStatusForRef({
          owner,
          repo,
          ref: sha,
          per_page: 100,
          request: { signal },
        }),
      (data) => (data as { statuses: GitHubCommitStatusJson[] }).statuses,
    );
    return items;
  }

  async function workflowRuns(sha: string, signal: AbortSignal): Promise<GitHubWorkflowRunJson[]> {
    const { data } = await request(target(`the workflow runs of commit ${sha.slice(0, 7)}`), signal, () =>
      client.rest.actions.listWorkflowRunsForRepo({
        owner,
        repo,
        head_sha: sha,
        per_page: 100,
        request: { signal },
      }),
    );
    return data.workflow_runs as GitHubWorkflowRunJson[];
  }

  const getPipeline: ToolHandler = async (args, ctx) => {
    const { signal } = ctx;
    const branch = str(args.branch);
    if (branch !== undefined && args.key !== undefined) {
      throw new PluginError(
        'invalid_input',
        'give "branch" or "key" (a pull request), not both: a pull request runs on its own head commit',
      );
    }
    const head =
      args.key !== undefined
        ? await headOfPull(pullNumber(args), signal)
        : await headOfBranch(branch, signal);
    const [checks, statuses, workflows] = await Promise.all([
      checkRuns(head.sha, signal),
      commitStatuses(head.sha, signal),
      workflowRuns(head.sha, signal),
    ]);
    return shapedResult({
      kind: 'pipeline',
      item: pipelineFromGitHub({ ...head, checkRuns: checks, statuses, workflowRuns: workflows }),
    });
  };

  return { get_pipeline: getPipeline };
}
