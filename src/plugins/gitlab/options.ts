// The gitlab plugin's options (its foresight.toml table): which project, which instance, which token and how to send it.
import * as z from 'zod';
import { durationS } from '../../contract/index.js';

/** "group/sub/name": a namespace path of two or more segments. */
const PROJECT_PATH = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;
const NUMERIC_ID = /^[1-9]\d*$/;

export const GitLabOptionsSchema = z.strictObject({
  /** The project: its path ("group/sub/name") or its numeric id. */
  project: z.union([
    z.number().int().positive(),
    z.string().refine((value) => PROJECT_PATH.test(value) || NUMERIC_ID.test(value), {
      error: 'expected a project path such as "group/sub/name", or a numeric project id',
    }),
  ]),
  /** The environment variable holding the token; none reads public projects anonymously. */
  token_env: z.string().min(1).optional(),
  /** How the token is sent: "private_token" (PRIVATE-TOKEN header: personal, project and group access tokens) or "bearer" (OAuth). Default "private_token". */
  auth: z.enum(['private_token', 'bearer']).default('private_token'),
  /** The instance, default https://gitlab.com; a self-managed one as https://gitlab.example.com (a trailing /api/v4 is accepted). */
  base_url: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://gitlab.com' })
    .default('https://gitlab.com'),
  /** Seconds between reloads of the project's labels, milestones and default branch. Default 600. */
  metadata_ttl_s: durationS({ min: 10, max: 86_400 }).default(600),
  /** Retries of a read that failed with a 5xx or a network error, and of a rate-limited request, with growing waits (0.25 s, 1 s, 4 s…). Default 2. */
  retries: z.number().int().min(0).max(5).default(2),
  /** Most characters of one file's diff that get_merge_request_diffs returns; the rest is cut and flagged. Default 20000. */
  max_diff_chars: z.number().int().min(200).max(1_000_000).default(20_000),
  /** Most kilobytes of a job log that get_job_logs reads: the tail is kept, where a failed job says why. Default 4096. */
  max_log_kb: z.number().int().min(1).max(65_536).default(4096),
});
export type GitLabOptions = z.output<typeof GitLabOptionsSchema>;

export interface GitLabSettings {
  /** What the API takes in /projects/:id: the numeric id, or the path (gitbeaker URL-encodes it). */
  projectId: string | number;
  /** The path or id as configured, for messages. */
  projectName: string;
  /** The instance URL without /api/v4, e.g. https://gitlab.com. */
  baseUrl: string;
  /** The instance host, for the planner's per-host caps and for messages. */
  apiHost: string;
  /** "GitLab", or "GitLab (host)" for a self-managed instance: how messages name the provider. */
  providerName: string;
  token: string | undefined;
  /** The variable the token came from, for messages (never the token); undefined when none is configured. */
  tokenEnv?: string;
  auth: 'private_token' | 'bearer';
  metadataTtlMs: number;
  retries: number;
  maxDiffChars: number;
  maxLogBytes: number;
}

/** Reads the token from the variable the config names; the config loader has checked it is set. */
export function gitlabSettings(options: GitLabOptions, env: NodeJS.ProcessEnv = process.env): GitLabSettings {
  const baseUrl = options.base_url.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  const apiHost = new URL(baseUrl).host;
  const project = String(options.project);
  return {
    projectId: NUMERIC_ID.test(project) ? Number(project) : project,
    projectName: project,
    baseUrl,
    apiHost,
    providerName: apiHost === 'gitlab.com' ? 'GitLab' : `GitLab (${apiHost})`,
    token: options.token_env === undefined ? undefined : env[options.token_env],
    ...(options.token_env === undefined ? {} : { tokenEnv: options.token_env }),
    auth: options.auth,
    metadataTtlMs: options.metadata_ttl_s * 1000,
    retries: options.retries,
    maxDiffChars: options.max_diff_chars,
    maxLogBytes: options.max_log_kb * 1024,
  };
}
