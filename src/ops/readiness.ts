// Whether this process should be sent traffic: every plugin started, every extra check (e.g. the cluster's Redis)
// passing, and no drain under way. What /readyz answers.

/** One extra condition of readiness, such as "Redis reachable" under [cluster]. */
export type ReadinessCheck = () => Promise<{ ok: boolean; detail: string }>;

export type PluginState = 'ready' | 'degraded' | 'starting' | 'down';

/** The body of /readyz: names and states only (a plugin's own detail may name hosts or quote errors). */
export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  plugins: Record<string, PluginState>;
  /** The extra checks that failed, each with its one-line reason. */
  failing: string[];
}

export interface ReadinessSources {
  /** False before the host has started, and once it is shutting down. */
  started(): boolean;
  plugins(): readonly { name: string; state: PluginState }[];
  checks: readonly ReadinessCheck[];
  draining(): boolean;
}

/** How long one check may take before it counts as failing: a probe that hangs must not hang the balancer's. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<{ ok: boolean; detail: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ ok: false; detail: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, detail: `no answer within ${READINESS_CHECK_TIMEOUT_MS} ms` }),
      READINESS_CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .catch((error: unknown) => ({
          ok: false,
          detail: `check failed: ${error instanceof Error ? error.name : 'error'}`,
        })),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A degraded plugin serves (with plainer schemas), so it counts as ready; starting and down do not. */
export async function readiness(sources: ReadinessSources): Promise<ReadinessReport> {
  const plugins: Record<string, PluginState> = {};
  let pluginsReady = true;
  for (const { name, state } of sources.plugins()) {
    plugins[name] = state;
    if (state === 'starting' || state === 'down') pluginsReady = false;
  }
  const results = await Promise.all(sources.checks.map(runCheck));
  const failing = results.filter((result) => !result.ok).map((result) => result.detail);
  if (!sources.started()) failing.unshift('the host is not running (starting or shutting down)');
  const draining = sources.draining();
  return { ready: pluginsReady && failing.length === 0 && !draining, draining, plugins, failing };
}
