// The github plugin's options (its foresight.toml table): which repository, where the API is, which token.
import * as z from 'zod';
import { durationS } from '../../contract/index.js';

const REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

export const GitHubOptionsSchema = z.strictObject({
  /** "owner/name". */
  repo: z.string().regex(REPO, { error: 'expected "owner/name", e.g. "octo-org/octo-repo"' }),
  /** The environment variable holding the token; none reads public repositories anonymously. */
  token_env: z.string().min(1).optional(),
  /** Default https://api.github.com; GitHub Enterprise Server: https://HOST/api/v3. */
  base_url: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://api.github.com' })
    .default('https://api.github.com'),
  /** Seconds between reloads of the repository's labels and milestones (the enums in the schemas). Default 600. */
  metadata_ttl_s: durationS({ min: 10, max: 86_400 }).default(600),
  /** Retries of a request that failed with a 5xx or a network error, with growing waits (1 s, 4 s). Default 2. */
  retries: z.number().int().min(0).max(5).default(2),
  /** Space writes 1 s and searches 2 s apart, as GitHub asks of integrations. Default true. */
  throttle: z.boolean().default(true),
  /** Serve link_issues and get_issue's relations on sub-issues. Default: true on api.github.com, false on GitHub Enterprise Server, whose older versions lack the API. */
  sub_issues: z.boolean().optional(),
});
export type GitHubOptions = z.output<typeof GitHubOptionsSchema>;

export interface GitHubSettings {
  owner: string;
  repo: string;
  /** "owner/name", for messages. */
  fullName: string;
  baseUrl: string;
  /** The API host, for the planner's per-host caps: api.github.com or the Enterprise host. */
  apiHost: string;
  token: string | undefined;
  /** Named in messages instead of the token. */
  tokenEnv: string | undefined;
  metadataTtlMs: number;
  retries: number;
  throttle: boolean;
  subIssues: boolean;
}

/** Reads the token from the variable the config names; the config loader has checked it is set. */
export function githubSettings(options: GitHubOptions, env: NodeJS.ProcessEnv = process.env): GitHubSettings {
  const [owner = '', repo = ''] = options.repo.split('/');
  const baseUrl = options.base_url.replace(/\/+$/, '');
  return {
    owner,
    repo,
    fullName: options.repo,
    baseUrl,
    apiHost: new URL(baseUrl).host,
    token: options.token_env === undefined ? undefined : env[options.token_env],
    tokenEnv: options.token_env,
    metadataTtlMs: options.metadata_ttl_s * 1000,
    retries: options.retries,
    throttle: options.throttle,
    subIssues: options.sub_issues ?? new URL(baseUrl).host === 'api.github.com',
  };
}
