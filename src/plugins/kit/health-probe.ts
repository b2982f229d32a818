// One cheap authenticated request at start, and again every minute while it fails: whether the service answers and
// takes the credentials, said as `down` with the request, the status or network error, and what to check.
import { clampDelay, type Logger, type PluginHealth } from '../../contract/index.js';
import type { HttpFailure } from './http-errors.js';

export interface ProbeSource {
  /** The request as shown: `GET https://api.github.com/repos/octo-org/octo-repo` (see `shownUrl`). */
  request: string;
  /**
   * Where the credentials come from, as a person fixes them: `GITHUB_TOKEN`, or `the email in X and the API token
   * in Y`; undefined when the config names none (an anonymous client).
   */
  credentials: string | undefined;
  /** What a 404 says is missing: `repository octo-org/octo-repo`. */
  target: string;
  /** Makes the request once (no retries); resolves when the service accepted it. */
  send(signal: AbortSignal): Promise<void>;
  /** What a rejection of `send` tells, in the kit's terms. */
  failure(error: unknown, signal: AbortSignal): HttpFailure;
  /** How long the request may take; default PROBE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** How long after a failure the next probe runs; default RECHECK_MS. */
  recheckMs?: number;
}

export interface HealthProbe {
  /** Probes now, in the background; never throws. */
  start(): void;
  /** Stops the next probe and aborts one in flight. */
  stop(): Promise<void>;
  /**
   * The plugin's health: `down` while the last probe failed, `starting` until the first ends, else `serving()`
   * (the plugin's own account: its metadata loaded, loading or failed).
   */
  health(serving: () => PluginHealth): PluginHealth;
}

/** Below the host's default start deadline (10 s), so `check` says what went wrong rather than "still starting". */
export const PROBE_TIMEOUT_MS = 8_000;
export const RECHECK_MS = 60_000;

/** A URL as messages show it: without user, password, query or fragment, which may carry credentials. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** What to tell a person about a failed probe: the status or network error, and what to check. */
export function probeProblem(failure: HttpFailure, source: ProbeSource, timedOut: boolean): string {
  const { credentials, target } = source;
  if (timedOut || failure.aborted)
    return `no answer within ${(source.timeoutMs ?? PROBE_TIMEOUT_MS) / 1000} s: check base_url and the network`;
  const status = failure.status;
  if (status === undefined) {
    const code = failure.networkCode ? ` (${failure.networkCode})` : '';
    return `cannot connect${code}: check base_url and that the server is up`;
  }
  const http = `HTTP ${status}`;
  if (failure.rateLimited || status === 429) {
    const reset = failure.rateLimitResetAt;
    const when = reset && !Number.isNaN(reset.getTime()) ? `; it resets at ${reset.toISOString()}` : '';
    return `rate limited (${http})${when}: try again later`;
  }
  if (status === 401)
    return credentials
      ? `token rejected (${http}): check ${credentials}`
      : `the server asks for a token (${http}): set token_env`;
  if (status === 403)
    return credentials
      ? `access denied (${http}): check the permissions of ${credentials}`
      : `access denied (${http}): set token_env`;
  if (status === 404)
    return `${target} not found (${http}): check the config${credentials ? ` and that ${credentials} can see it` : ''}`;
  if (status >= 500) return `server error (${http}): try again later`;
  return `unexpected answer (${http})`;
}

export function createHealthProbe(source: ProbeSource, logger: Logger): HealthProbe {
  /** undefined until the first probe ends; then the last one's problem, or null when it passed. */
  let problem: string | null | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  const timeoutMs = source.timeoutMs ?? PROBE_TIMEOUT_MS;

  const probe = async () => {
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(clampDelay(timeoutMs))]);
    try {
      await source.send(signal);
      if (problem) logger.info({ request: source.request }, 'health check passed again');
      problem = null;
      return;
    } catch (error) {
      if (stopping.signal.aborted) return;
      const timedOut = signal.aborted;
      problem = `${source.request}: ${probeProblem(source.failure(error, signal), source, timedOut)}`;
      logger.warn({ err: problem }, 'health check failed; its calls will likely fail too');
    }
    timer = setTimeout(tick, clampDelay(source.recheckMs ?? RECHECK_MS)).unref();
  };
  const tick = () => {
    // `probe` catches what `send` throws; this catches a `failure` that throws, so no rejection goes unhandled.
    running = probe().catch((error: unknown) => {
      problem = `${source.request}: the probe failed (${error instanceof Error ? error.message : String(error)})`;
    });
  };

  return {
    start: tick,
    async stop() {
      clearTimeout(timer);
      stopping.abort();
      await running;
    },
    health(serving) {
      if (problem) return { state: 'down', detail: problem };
      const own = serving();
      if (problem === undefined && own.state !== 'starting')
        return { state: 'starting', detail: `checking ${source.request}` };
      return own;
    },
  };
}

/**
 * A plugin's own account from its metadata: `ready` once it has loaded (or while it loads, `loading` saying which
 * state that is: lists wait while a plugin says `starting`), `degraded` while the schemas stay generic because no
 * load has succeeded, saying why, and `degraded` too when a load succeeded only in part (`partial` says which
 * part failed and what that costs).
 */
export function metadataHealth(
  metadata: { current(): unknown; failure(): string | undefined },
  where: string,
  what: string,
  loading: 'starting' | 'ready',
  partial?: string,
): PluginHealth {
  if (metadata.current() !== undefined)
    return partial === undefined
      ? { state: 'ready', detail: where }
      : { state: 'degraded', detail: `${where}: ${partial}` };
  const failure = metadata.failure();
  if (failure === undefined) return { state: loading, detail: `${where}: loading ${what}` };
  return {
    state: 'degraded',
    detail: `${where}: ${what} could not be loaded (${failure}); tools serve with generic schemas`,
  };
}

/** What `fetchProbe`'s request rejects with when the server answered with an error. */
class RefusedProbe extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/**
 * `send` and `failure` for a provider whose client is plain fetch: one GET of `url` with `headers` (the
 * credentials go there and nowhere else); a 2xx passes.
 */
export function fetchProbe(
  url: string,
  headers: Record<string, string>,
): Pick<ProbeSource, 'send' | 'failure'> {
  return {
    async send(signal) {
      const response = await fetch(url, { headers, signal });
      await response.body?.cancel().catch(() => {});
      if (!response.ok) throw new RefusedProbe(response.status);
    },
    failure(error, signal) {
      if (signal.aborted) return { aborted: true };
      if (error instanceof RefusedProbe) return { status: error.status };
      const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
      return typeof code === 'string' ? { networkCode: code } : {};
    },
  };
}
