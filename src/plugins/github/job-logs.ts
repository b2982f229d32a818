// get_job_logs on GitHub: downloads one Actions job's log and returns a bounded part of it.
import { PluginError, isForesightError } from '../../host/index.js';
import { int, str } from './args.js';
import { request } from './failure.js';
import { compilePattern, logLines, logMatches, logPage } from './log-window.js';
import type { ReviewContext, ToolHandler } from './review-context.js';

/** The kit's default page of log lines. */
const DEFAULT_LOG_LINES = 200;
const DEFAULT_CONTEXT_LINES = 5;

function jobNumber(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (/^\d{1,18}$/.test(text) && Number(text) > 0) return Number(text);
  throw new PluginError(
    'invalid_input',
    `parameter "job_id" is ${JSON.stringify(value)}; a GitHub job id is a number, as get_pipeline lists it`,
  );
}

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
    const jobId = jobNumber(args.job_id);
    const pattern = str(args.pattern);
    // Checked before the download, so a bad pattern costs nothing.
    const regex = pattern === undefined ? undefined : compilePattern(pattern);
    const lines = logLines(await downloadLog(jobId, ctx.signal));
    const label = `job ${jobId}`;
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LOG_LINES);
    const text = regex
      ? logMatches(lines, label, regex, {
          offset,
          limit,
          contextLines: int(args.context_lines, DEFAULT_CONTEXT_LINES),
        })
      : logPage(lines, label, { offset, limit });
    return { content: [{ type: 'text', text }] };
  };

  return { get_job_logs: getJobLogs };
}
