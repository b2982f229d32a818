// The jira plugin's HTTP client: jira.js clients for the REST API (v3 Cloud, v2 Server) and the Agile API, each request
// bound to its call's signal, retried where safe, 429 waited out within the call's deadline, failures made readable.
import { AgileClient, type Config, Version2Client, Version3Client } from 'jira.js';
import { type Logger, logRetry, PluginError, type SharedRateLimits } from '../../contract/index.js';
import { abortableSleep, providerError, rateLimitKey } from '../kit/index.js';
import { jiraFailure, refusalOf, retryAfterMs } from './failure.js';
import type { JiraSettings } from './options.js';

/** What a request runs under: the tool call's signal and deadline (a RequestContext is one as it is), or the metadata loader's signal. */
export interface CallScope {
  signal: AbortSignal;
  /** Milliseconds until the call's deadline; without it, waits are bounded by MAX_WAIT_MS alone. */
  timeLeftMs?(): number;
}

export interface JiraRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the REST API ("/issue/PROJ-7") or under /rest/agile/1.0 ("/board/3/sprint"). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

export interface JiraClient {
  /** A REST API request (v3 on Cloud, v2 on Server); `target` names what it is about in errors ("issue PROJ-7"). */
  api<T>(target: string, scope: CallScope, request: JiraRequest): Promise<T>;
  /** An Agile API request (/rest/agile/1.0, the same on both flavors). */
  agile<T>(target: string, scope: CallScope, request: JiraRequest): Promise<T>;
}

/** Longest rate-limit wait worth holding a call for; beyond it the call fails and says when to retry. */
const MAX_WAIT_MS = 10_000;
/** Time a retried request needs after its wait, so a wait never eats the whole deadline. */
const DEADLINE_MARGIN_MS = 1_000;
const RETRY_BASE_MS = 250;
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

/** Seams for tests: the clock that dates a rate limit's reset, and the wait before a retry. */
export interface ClientClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const REAL_CLOCK: ClientClock = { now: () => Date.now(), sleep: abortableSleep };

function jiraConfig(settings: JiraSettings): Config {
  const base = { host: settings.baseUrl, baseRequestConfig: { headers: { 'User-Agent': 'foresight-mcp' } } };
  if (settings.flavor === 'cloud') {
    return {
      ...base,
      authentication: { basic: { email: settings.email ?? '', apiToken: settings.token } },
    };
  }
  // Server / Data Center personal access tokens go as a bearer header, which jira.js has no option for.
  return {
    ...base,
    baseRequestConfig: {
      headers: { ...base.baseRequestConfig.headers, Authorization: `Bearer ${settings.token}` },
    },
  };
}

/** Where the credentials come from, as a 401 tells the user to check them: the variables, never their values. */
export function credentialsOf(settings: JiraSettings): string {
  return settings.flavor === 'cloud'
    ? `the email in ${settings.emailEnv ?? 'email_env'} and the API token in ${settings.tokenEnv}`
    : `the personal access token in ${settings.tokenEnv}`;
}

/**
 * One GET of the signed-in user (`/myself`), without retries, rejecting with what jira.js threw (read it with
 * jiraFailure): the health probe's request.
 */
export function createMyselfRequest(settings: JiraSettings): (signal: AbortSignal) => Promise<void> {
  const config = jiraConfig(settings);
  const rest = settings.flavor === 'cloud' ? new Version3Client(config) : new Version2Client(config);
  return async (signal) => {
    await rest.sendRequest({ method: 'GET', url: `${settings.apiPath}/myself`, signal }, undefined as never);
  };
}

/**
 * `fieldLabel` names a field id the way the agent knows it, for Jira's field errors; `clock` defaults to real time;
 * `logger` is told of each retry; `rateLimits` (a cluster's, `ctx.rateLimits`) shares the account's rate limit.
 */
export function createJiraClient(
  settings: JiraSettings,
  fieldLabel: (fieldId: string) => string = (id) => id,
  clock: ClientClock = REAL_CLOCK,
  logger?: Logger,
  rateLimits?: SharedRateLimits,
): JiraClient {
  const limitKey = rateLimitKey('jira', settings.baseUrl, `${settings.email ?? ''}:${settings.token}`);
  const config = jiraConfig(settings);
  const rest = settings.flavor === 'cloud' ? new Version3Client(config) : new Version2Client(config);
  const agileClient = new AgileClient(config);

  // The credentials never reach a message, even when Jira echoes them back (the email is Cloud's basic-auth user).
  const secrets = [settings.token, settings.email].filter((secret): secret is string => !!secret);
  const redact = (text: string) => secrets.reduce((t, secret) => t.replaceAll(secret, '[redacted]'), text);
  const credentials = credentialsOf(settings);

  const refused = (error: unknown, target: string, signal: AbortSignal): PluginError => {
    const raw = jiraFailure(error, signal, fieldLabel, clock.now());
    const failure = {
      ...raw,
      ...(raw.apiMessage === undefined ? {} : { apiMessage: redact(raw.apiMessage) }),
      ...(raw.details ? { details: raw.details.map(redact) } : {}),
    };
    const words = [failure.apiMessage, ...(failure.details ?? [])].filter(Boolean).join('; ');
    const said = words ? `: ${words}` : '';
    // Name the variables the config reads the credentials from, never their values.
    if (failure.status === 401) {
      return new PluginError(
        'invalid_input',
        `${settings.providerName} refused the credentials for ${target} (401); check ${credentials}${said}`,
      );
    }
    // Jira answers 403 for project permissions far more often than for a token's scope: say so.
    if (failure.status === 403) {
      return new PluginError(
        'invalid_input',
        `${settings.providerName} denied access to ${target} (403); check the account's permissions in the project and the token${said}`,
      );
    }
    const mapped = providerError(failure, { provider: settings.providerName, target });
    // A 400 keeps what it was about (never Jira's words), for callers that act on a refused field.
    return failure.status === 400
      ? new PluginError(mapped.kind, mapped.message, { cause: refusalOf(error) })
      : mapped;
  };

  async function send<T>(
    client: Version3Client | Version2Client | AgileClient,
    prefix: string,
    target: string,
    scope: CallScope,
    request: JiraRequest,
  ): Promise<T> {
    const method = request.method ?? 'GET';
    for (let attempt = 0; ; attempt++) {
      const until = rateLimits ? await rateLimits.blockedUntil(limitKey) : undefined;
      if (until !== undefined && until > clock.now()) {
        // Another process was told to wait: this one waits, or gives up, as a 429 of its own would make it.
        const waitMs = until - clock.now();
        const left = scope.timeLeftMs?.() ?? Number.POSITIVE_INFINITY;
        if (attempt >= settings.retries || waitMs > MAX_WAIT_MS || waitMs > left - DEADLINE_MARGIN_MS) {
          throw providerError(
            { status: 429, rateLimited: true, rateLimitResetAt: new Date(until) },
            { provider: settings.providerName, target },
          );
        }
        if (logger) logRetry(logger, { attempt: attempt + 1, waitMs, why: 'HTTP 429' });
        await clock.sleep(waitMs, scope.signal).catch((reason: unknown) => {
          throw refused(reason, target, scope.signal);
        });
        continue;
      }
      try {
        return await client.sendRequest<T>(
          {
            method,
            url: `${prefix}${request.path}`,
            ...(request.query ? { params: request.query } : {}),
            ...(request.body === undefined ? {} : { data: request.body }),
            signal: scope.signal,
          },
          undefined as never,
        );
      } catch (error) {
        const failure = jiraFailure(error, scope.signal);
        const told = failure.status === 429 ? retryAfterMs(error) : undefined;
        if (told !== undefined && told > 0) rateLimits?.block(limitKey, clock.now() + told);
        if (failure.aborted || attempt >= settings.retries) throw refused(error, target, scope.signal);
        let waitMs: number;
        if (failure.status === 429) waitMs = retryAfterMs(error) ?? RETRY_BASE_MS * 4 ** attempt;
        else if (IDEMPOTENT.has(method) && (failure.status === undefined || failure.status >= 500)) {
          waitMs = RETRY_BASE_MS * 4 ** attempt;
        } else throw refused(error, target, scope.signal);
        const left = scope.timeLeftMs?.() ?? Number.POSITIVE_INFINITY;
        if (waitMs > MAX_WAIT_MS || waitMs > left - DEADLINE_MARGIN_MS) {
          throw refused(error, target, scope.signal);
        }
        if (logger) {
          const why =
            failure.status === undefined ? (failure.networkCode ?? 'no answer') : `HTTP ${failure.status}`;
          logRetry(logger, { attempt: attempt + 1, waitMs, why });
        }
        // The deadline or a cancellation may end the wait: the call then fails as timed out, not with the abort reason.
        await clock.sleep(waitMs, scope.signal).catch((reason: unknown) => {
          throw refused(reason, target, scope.signal);
        });
      }
    }
  }

  return {
    api: (target, scope, request) => send(rest, settings.apiPath, target, scope, request),
    agile: (target, scope, request) => send(agileClient, '/rest/agile/1.0', target, scope, request),
  };
}
