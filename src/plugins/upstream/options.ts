// The upstream plugin's options (its foresight.toml table): which MCP server to mount, and how to reach it.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';
import * as z from 'zod';
import { durationMs } from '../../contract/index.js';
import { TOOL_TASK_SUPPORT, type ToolTaskSupport } from './task-support.js';

/** What `protocol` may say: see the option. */
export const UPSTREAM_PROTOCOLS = ['auto', '2025-11-25', '2026-07-28'] as const;
export type UpstreamProtocol = (typeof UPSTREAM_PROTOCOLS)[number];

export const UpstreamOptionsSchema = z
  .strictObject({
    /** A command Foresight spawns and speaks to over stdio: the program, then its arguments. */
    command: z
      .array(z.string().min(1), { error: 'expected a list of strings: the program, then its arguments' })
      .min(1, { error: 'expected at least the program' })
      .optional(),
    /** Extra environment variables of the spawned command (on top of a minimal safe set). */
    env: z.record(z.string(), z.string()).optional(),
    /**
     * Secrets for the spawned command: its variable → the variable of Foresight's environment holding the
     * value (`{ GITHUB_PERSONAL_ACCESS_TOKEN = "GITHUB_TOKEN" }`), so the value never sits in the file.
     */
    secret_env: z.record(z.string(), z.string().min(1)).optional(),
    /** Working directory of the spawned command; default the current one. */
    cwd: z.string().min(1).optional(),
    /** A Streamable HTTP endpoint, e.g. http://127.0.0.1:3001/mcp. */
    url: z
      .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as http://127.0.0.1:3001/mcp' })
      .optional(),
    /** The environment variable holding a bearer token for `url`. */
    token_env: z.string().min(1).optional(),
    /**
     * Directories to answer the server's `roots/list` with, whoever asks. Without it the calling agent's roots
     * are passed on during a call, and none outside one.
     */
    roots: z.array(z.string().min(1), { error: 'expected a list of directory paths' }).optional(),
    /** Wait before the first restart of a server that exited or could not be reached; doubles each time. */
    restart_delay_ms: durationMs().optional(),
    /** The longest wait between restarts. */
    max_restart_delay_ms: durationMs().optional(),
    /**
     * The revision to speak: "auto" (default) asks `server/discover` first and falls back to `initialize`;
     * "2025-11-25" goes straight to `initialize` (for a server that cannot bear an unknown request first);
     * "2026-07-28" insists on the stateless revision.
     */
    protocol: z
      .enum(UPSTREAM_PROTOCOLS, {
        error: `expected one of ${UPSTREAM_PROTOCOLS.map((p) => `"${p}"`).join(', ')}`,
      })
      .optional(),
    /**
     * Task support of the server's tools (by the server's name): "optional" lets Foresight run a long call as a
     * task of its own, "required" only for a client with the tasks extension, "forbidden" never; `"*"` for every
     * tool not named. Default: what the server lists, else "optional" for every tool of a server that declares
     * the tasks extension (2026-07-28 lists no task support), else none.
     */
    tasks: z
      .record(
        z.string().min(1),
        z.enum(TOOL_TASK_SUPPORT, {
          error: `expected one of ${TOOL_TASK_SUPPORT.map((s) => `"${s}"`).join(', ')}`,
        }),
      )
      .optional(),
  })
  .superRefine((options, ctx) => {
    if ((options.command === undefined) === (options.url === undefined))
      ctx.addIssue({
        code: 'custom',
        message: 'give either command (stdio) or url (Streamable HTTP), not both',
      });
    if (options.url === undefined && options.token_env !== undefined)
      ctx.addIssue({ code: 'custom', path: ['token_env'], message: 'token_env goes with url' });
    const commandOnly = (['env', 'secret_env', 'cwd'] as const).find((key) => options[key] !== undefined);
    if (options.command === undefined && commandOnly !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [commandOnly],
        message: 'env, secret_env and cwd go with command',
      });
  });
export type UpstreamOptions = z.output<typeof UpstreamOptionsSchema>;

/** Restart delays: the first retry after `initialMs`, doubling up to `maxMs`. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000 };

export function restartBackoff(options: UpstreamOptions): Backoff {
  const initialMs = options.restart_delay_ms ?? DEFAULT_BACKOFF.initialMs;
  return { initialMs, maxMs: Math.max(initialMs, options.max_restart_delay_ms ?? DEFAULT_BACKOFF.maxMs) };
}

/**
 * How to reach the server, with the token read from the variable the config names. `secrets`: the values of
 * `secret_env`, cut from what the server writes to stderr before Foresight keeps or logs any of it.
 */
export type UpstreamTarget = (
  | {
      kind: 'stdio';
      command: string;
      args: string[];
      env?: Record<string, string>;
      secrets?: string[];
      cwd?: string;
    }
  | { kind: 'http'; url: URL; token?: string; tokenEnv?: string }
) & {
  /** The revision to speak (the `protocol` option); "auto" when not said. */
  protocol?: UpstreamProtocol;
  /** The `tasks` option: the task support of tools the server's listing does not say. */
  tasks?: Readonly<Record<string, ToolTaskSupport>>;
};

/** The configured roots as `roots/list` gives them (file URIs), or undefined to pass the agent's on. */
export function configuredRoots(options: UpstreamOptions): Root[] | undefined {
  return options.roots?.map((path) => ({ uri: pathToFileURL(path).href, name: basename(path) || path }));
}

export function upstreamTarget(
  options: UpstreamOptions,
  env: NodeJS.ProcessEnv = process.env,
): UpstreamTarget {
  if (options.command) {
    const [command = '', ...args] = options.command;
    // The config check has made sure each named variable is set (and registered its value for redaction).
    const secrets = Object.entries(options.secret_env ?? {}).flatMap(([name, variable]) => {
      const value = env[variable];
      return value === undefined ? [] : [[name, value] as const];
    });
    const childEnv = { ...options.env, ...Object.fromEntries(secrets) };
    return {
      kind: 'stdio',
      command,
      args,
      ...(Object.keys(childEnv).length > 0 ? { env: childEnv } : {}),
      ...(secrets.length > 0 ? { secrets: secrets.map(([, value]) => value) } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      ...(options.tasks ? { tasks: options.tasks } : {}),
    };
  }
  const token = options.token_env === undefined ? undefined : env[options.token_env];
  return {
    kind: 'http',
    url: new URL(options.url ?? ''),
    ...(token ? { token } : {}),
    ...(options.token_env ? { tokenEnv: options.token_env } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    ...(options.tasks ? { tasks: options.tasks } : {}),
  };
}

/** Where the server is, for messages and logs: never the token. */
export function describeTarget(target: UpstreamTarget): string {
  return target.kind === 'stdio' ? [target.command, ...target.args].join(' ') : target.url.href;
}
