// get_job_logs on GitHub: downloads one Actions job's log and returns a bounded part of it.
import { isForesightError, PluginError } from '../../contract/index.js';
import { jobIdArg, logLines, logQuery, renderJobLog, type ToolHandler } from '../kit/index.js';
import { request } from './failure.js';
import type { ReviewContext } from './review-context.js';

/** GitHub Actions starts every line with an ISO timestamp. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/gm;

export function createJobLogTools(context: ReviewContext) {
  const { client, owner, repo, fullName, target } = context;

  /**
   * GitHub answers with a redirect to short-lived storage. It is followed here, without the token: the
   * signed link is all that storage needs, and the token must not travel to another host.
   */
  async function downloadLog(jobId: number, signal: AbortSignal): Promise<string> {
    const about = target(`the log of job ${jobId}`);
    let response;
    try {
      response = await request(about, signal, () =>
        client.rest.actions.downloadJobLogsForWorkflowRun({
          owner,
          repo,
          job_id: jobId,
          request: { signal, redirect: 'manual' },
        }),
      );
    } catch (error) {
      if (isForesightError(error) && error.kind === 'not_found') {
        throw new PluginError(
          'not_found',
          `${error.message}; only GitHub Actions jobs have logs here (not other apps' checks), and GitHub deletes old ones`,
          { cause: error },
        );
      }
      throw error;
    }
    const data: unknown = response.data;
    const location = (response.headers as Record<string, string | undefined>).location;
    if (location === undefined) {
      if (typeof data === 'string') return data;
      if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
      throw new PluginError('internal', `GitHub gave no log for job ${jobId} of ${fullName}`);
    }
    const where = `the log of job ${jobId} of ${fullName}`;
    let stored: Response;
    try {
      stored = await fetch(new URL(location, response.url), { signal });
    } catch (error) {
      if (signal.aborted) throw new PluginError('timeout', `GitHub did not answer in time for ${where}`);
      const code = (error as { cause?: { code?: string } }).cause?.code;
      // The signed link is left out of every message: it grants access until it expires.
      throw new PluginError(
        'unavailable',
        `cannot download ${where} from GitHub's log storage${code ? ` (${code})` : ''}`,
      );
    }
    if (!stored.ok) {
      throw new PluginError(
        'unavailable',
        `GitHub's log storage answered ${stored.status} for ${where}; the download link may have expired, try again`,
      );
    }
    return stored.text();
  }

  const getJobLogs: ToolHandler = async (args, ctx) => {
    const jobId = jobIdArg(args.job_id);
    // Read before the download, so a bad pattern costs nothing.
    const query = logQuery(args);
    const lines = logLines(await downloadLog(jobId, ctx.signal), [TIMESTAMP]);
    return { content: [{ type: 'text', text: renderJobLog(lines, query, { label: `job ${jobId}` }) }] };
  };

  return { get_job_logs: getJobLogs };
}
