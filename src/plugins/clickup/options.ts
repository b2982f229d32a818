// The clickup plugin's options (its foresight.toml table): which lists, which token, how often metadata reloads.
import * as z from 'zod';
import { durationS } from '../../contract/index.js';

/** ClickUp list ids are numeric strings ("901234567"); a number is accepted too. */
const LIST_ID = /^[1-9]\d*$/;

const listId = z
  .union([z.number().int().positive(), z.string().trim()])
  .transform(String)
  .refine((value) => LIST_ID.test(value), {
    error: 'expected a ClickUp list id such as "901234567" (the number in the list\'s URL)',
  });

export const ClickUpOptionsSchema = z
  .strictObject({
    /** The lists (scopes) whose tasks the tools serve: one or several list ids. */
    lists: z.array(listId).min(1, { error: 'give at least one list id' }),
    /** The environment variable holding the personal token (pk_…), sent as the Authorization header. */
    token_env: z.string().min(1),
    /** The workspace (team) id; needed only for custom task ids ("DEV-42"). */
    team_id: z.union([z.number().int().positive(), z.string().regex(LIST_ID)]).optional(),
    /** Accept the workspace's custom task ids as keys (needs team_id). Default false. */
    custom_task_ids: z.boolean().default(false),
    /** The API, default https://api.clickup.com/api/v2 (overridable for tests and proxies). */
    base_url: z
      .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://api.clickup.com/api/v2' })
      .default('https://api.clickup.com/api/v2'),
    /** Seconds between reloads of the lists' statuses, custom fields and members. Default 600. */
    metadata_ttl_s: durationS({ min: 10, max: 86_400 }).default(600),
    /**
     * Retries of a GET, PUT or DELETE after a 5xx or a network error (never a POST, which could create twice),
     * and of any request after a 429 whose reset fits the call's deadline. Default 2.
     */
    retries: z.number().int().min(0).max(5).default(2),
  })
  .refine((options) => !options.custom_task_ids || options.team_id !== undefined, {
    error: 'custom_task_ids = true needs team_id (the workspace id, the first number in ClickUp URLs)',
    path: ['team_id'],
  });
export type ClickUpOptions = z.output<typeof ClickUpOptionsSchema>;

export interface ClickUpSettings {
  listIds: string[];
  teamId: string | undefined;
  customTaskIds: boolean;
  /** Without a trailing slash, e.g. https://api.clickup.com/api/v2. */
  baseUrl: string;
  /** The API host, for the planner's per-host caps. */
  apiHost: string;
  token: string | undefined;
  /** The variable the token came from, for messages (never the token). */
  tokenEnv: string;
  metadataTtlMs: number;
  retries: number;
}

/** Reads the token from the variable the config names; the config loader has checked it is set. */
export function clickupSettings(
  options: ClickUpOptions,
  env: NodeJS.ProcessEnv = process.env,
): ClickUpSettings {
  const baseUrl = options.base_url.replace(/\/+$/, '');
  return {
    listIds: [...new Set(options.lists)],
    teamId: options.team_id === undefined ? undefined : String(options.team_id),
    customTaskIds: options.custom_task_ids,
    baseUrl,
    apiHost: new URL(baseUrl).host,
    token: env[options.token_env],
    tokenEnv: options.token_env,
    metadataTtlMs: options.metadata_ttl_s * 1000,
    retries: options.retries,
  };
}
