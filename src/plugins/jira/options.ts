// The jira plugin's options (its foresight.toml table): which site, which flavor of the API, which projects, which credentials.
import * as z from 'zod';
import { durationS } from '../../contract/index.js';

/** A project key as Jira writes it: a letter, then letters, digits or underscores ("PROJ", "WEB2"). */
const PROJECT_KEY = /^[A-Za-z][A-Za-z0-9_]{0,254}$/;

export const JiraOptionsSchema = z
  .strictObject({
    /** The site, e.g. https://acme.atlassian.net (Cloud) or https://jira.example.com (Server / Data Center). */
    base_url: z.url({
      protocol: /^https?$/,
      error: 'expected an http(s) URL such as https://acme.atlassian.net',
    }),
    /**
     * "cloud" (REST v3, descriptions in ADF, basic auth with email + API token) or "server" (Server / Data Center:
     * REST v2, wiki text, a personal access token as bearer). Default: "cloud" for *.atlassian.net, else "server".
     */
    flavor: z.enum(['cloud', 'server']).optional(),
    /** Cloud: the environment variable holding the account's email (the user half of basic auth). */
    email_env: z.string().min(1).optional(),
    /** The environment variable holding the API token (Cloud) or personal access token (Server / Data Center). */
    token_env: z.string().min(1),
    /** The projects the tools serve, by key; with several, create_issue asks which one. */
    projects: z
      .array(
        z.string().refine((key) => PROJECT_KEY.test(key), {
          error: 'expected a project key such as "PROJ"',
        }),
      )
      .min(1),
    /** The agile board of get_board_sprints and of sprint names; default: the first board of the first configured project. */
    board: z.number().int().positive().optional(),
    /** Seconds between reloads of the projects' issue types, priorities, components, statuses and fields. Default 600. */
    metadata_ttl_s: durationS({ min: 10, max: 86_400 }).default(600),
    /**
     * Retries of a GET, PUT or DELETE that failed with a 5xx or a lost connection (a POST is never repeated), and of
     * any request refused with 429 whose wait (Retry-After, else backoff) is at most 10 s and fits the call. Default 2.
     */
    retries: z.number().int().min(0).max(5).default(2),
  })
  .refine((options) => (options.flavor ?? flavorOf(options.base_url)) !== 'cloud' || options.email_env, {
    error:
      'Jira Cloud signs in with an email and an API token: set email_env to the variable holding the email',
    path: ['email_env'],
  });
export type JiraOptions = z.output<typeof JiraOptionsSchema>;

export type JiraFlavor = 'cloud' | 'server';

function flavorOf(baseUrl: string): JiraFlavor {
  return new URL(baseUrl).hostname.endsWith('.atlassian.net') ? 'cloud' : 'server';
}

export interface JiraSettings {
  /** The site without a trailing slash. */
  baseUrl: string;
  /** The site's host, for the planner's per-host caps and for messages. */
  apiHost: string;
  flavor: JiraFlavor;
  /** "/rest/api/3" (Cloud) or "/rest/api/2" (Server / Data Center). */
  apiPath: string;
  /** "Jira Cloud (acme.atlassian.net)" or "Jira (jira.example.com)": how messages name the provider. */
  providerName: string;
  /** Upper case, in the configured order. */
  projects: string[];
  board: number | undefined;
  email: string | undefined;
  token: string;
  /** The variables the config names for the email (Cloud) and the token: what a 401 tells the user to check. */
  emailEnv: string | undefined;
  tokenEnv: string;
  metadataTtlMs: number;
  retries: number;
}

/** Reads the credentials from the variables the config names; the config loader has checked they are set. */
export function jiraSettings(options: JiraOptions, env: NodeJS.ProcessEnv = process.env): JiraSettings {
  const baseUrl = options.base_url.replace(/\/+$/, '');
  const apiHost = new URL(baseUrl).host;
  const flavor = options.flavor ?? flavorOf(baseUrl);
  return {
    baseUrl,
    apiHost,
    flavor,
    apiPath: flavor === 'cloud' ? '/rest/api/3' : '/rest/api/2',
    providerName: flavor === 'cloud' ? `Jira Cloud (${apiHost})` : `Jira (${apiHost})`,
    projects: [...new Set(options.projects.map((key) => key.toUpperCase()))],
    board: options.board,
    email: options.email_env === undefined ? undefined : env[options.email_env],
    token: env[options.token_env] ?? '',
    emailEnv: options.email_env,
    tokenEnv: options.token_env,
    metadataTtlMs: options.metadata_ttl_s * 1000,
    retries: options.retries,
  };
}
