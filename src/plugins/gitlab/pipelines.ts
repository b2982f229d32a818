// The CI tools of the gitlab plugin: the latest pipeline of a branch or merge request, and one job's log.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext } from '../../contract/index.js';
import {
  type Args,
  type ToolHandler,
  MAX_PAGES_PER_CALL,
  jobIdArg,
  logLines,
  logQuery,
  renderJobLog,
  shapedResult,
  str,
} from '../kit/index.js';
import { listPage } from './client.js';
import { request } from './failure.js';
import { SECTION_MARKER, readTail } from './job-log.js';
import { mergeRequestNumber } from './merge-requests.js';
import { type GitLabJobJson, type GitLabPipelineJson, pipelineFromGitLab } from './review-shapes.js';
import { type ToolDeps, apiFor, targetOf } from './tool-io.js';

export function createPipelineTools(deps: ToolDeps) {
  const { settings, metadata } = deps;
  const { projectId } = settings;
  const target = targetOf(settings);

  async function defaultBranch(ctx: RequestContext): Promise<string> {
    const known = metadata.current()?.defaultBranch;
    if (known !== undefined) return known;
    const project = (await request(target('the project'), ctx.signal, () =>
      apiFor(deps, ctx).projects.show(projectId),
    )) as unknown as { default_branch?: string | null };
    if (!project.default_branch) {
      throw new PluginError(
        'not_found',
        `${settings.projectName} has no default branch (an empty repository?)`,
      );
    }
    return project.default_branch;
  }

  /** The newest pipeline of a merge request (GitLab lists them newest first) or of a branch. */
  async function latestPipeline(args: Args, ctx: RequestContext): Promise<GitLabPipelineJson> {
    const api = apiFor(deps, ctx);
    const firstPage = { page: 1, perPage: 1, showExpanded: true };
    if (args.key !== undefined) {
      const iid = mergeRequestNumber(args.key);
      const result = await request(target(`pipelines of merge request !${iid}`), ctx.signal, () =>
        listPage<GitLabPipelineJson>(api.mergeRequests.allPipelines(projectId, iid, firstPage)),
      );
      const pipeline = result.items[0];
      if (pipeline === undefined) throw new PluginError('not_found', `!${iid} has no pipeline yet`);
      return pipeline;
    }
    const branch = str(args.branch) ?? (await defaultBranch(ctx));
    const result = await request(target(`pipelines of branch ${branch}`), ctx.signal, () =>
      listPage<GitLabPipelineJson>(
        api.pipelines.all(projectId, { ref: branch, orderBy: 'id', sort: 'desc', ...firstPage }),
      ),
    );
    const pipeline = result.items[0];
    if (pipeline === undefined) {
      throw new PluginError(
        'not_found',
        `no pipeline has run for branch "${branch}" of ${settings.projectName}`,
      );
    }
    return pipeline;
  }

  async function getPipeline(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    if (args.key !== undefined && str(args.branch) !== undefined) {
      throw new PluginError('invalid_input', 'give "branch" or "key" (a merge request), not both');
    }
    const pipeline = await latestPipeline(args, ctx);
    const api = apiFor(deps, ctx);
    const jobs: GitLabJobJson[] = [];
    for (let page = 1; page <= MAX_PAGES_PER_CALL; page++) {
      const result = await request(target(`jobs of pipeline ${pipeline.id}`), ctx.signal, () =>
        listPage<GitLabJobJson>(
          api.jobs.all(projectId, { pipelineId: pipeline.id, perPage: 100, page, showExpanded: true }),
        ),
      );
      jobs.push(...result.items);
      if (!result.hasNext) break;
    }
    return shapedResult({ kind: 'pipeline', item: pipelineFromGitLab(pipeline, jobs) });
  }

  async function getJobLogs(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const jobId = jobIdArg(args.job_id);
    // Read before the download, so a bad pattern costs nothing.
    const query = logQuery(args);
    // gitbeaker's GET helper hands back the body unread when asked (its showLog typing leaves that out),
    // so a log of hundreds of megabytes streams through readTail and only the capped tail is kept.
    const asStream = { asStream: true } as { sudo?: undefined };
    const stream = (await request(target(`the log of job ${jobId}`), ctx.signal, () =>
      apiFor(deps, ctx).jobs.showLog(projectId, jobId, asStream),
    )) as unknown as ReadableStream<Uint8Array> | null;
    const tail = stream
      ? await request(target(`the log of job ${jobId}`), ctx.signal, () =>
          readTail(stream, settings.maxLogBytes),
        )
      : { text: '', skippedBytes: 0 };
    // Without an offset a page holds the last lines (the gitlab enricher's `offset` says so): a failed job says why there.
    const text = renderJobLog(logLines(tail.text, [SECTION_MARKER]), query, {
      label: `job ${jobId}`,
      unpaged: 'tail',
      skippedBytes: tail.skippedBytes,
    });
    return { content: [{ type: 'text', text }] };
  }

  return { get_pipeline: getPipeline, get_job_logs: getJobLogs } satisfies Record<string, ToolHandler>;
}
