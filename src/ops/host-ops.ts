// One host's operations: its metrics, its readiness, and the drain over every listener it serves. The host builds
// it once; the HTTP listeners expose it (/healthz, /readyz, /metrics) and SIGTERM drains through it.
import type { OpsSettings } from '../config/index.js';
import { clampDelay } from '../contract/index.js';
import { type HostMetrics, type MetricsSources, createHostMetrics } from './metrics.js';
import { type PluginState, type ReadinessCheck, type ReadinessReport, readiness } from './readiness.js';

/** What a listener gives the drain: HTTP refuses new requests, stdio stops reading; both then finish what they took. */
export interface Drainable {
  drain(): Promise<void>;
}

export interface HostOpsOptions {
  settings: OpsSettings;
  plugins: {
    readonly status: string;
    mountedPlugins(): readonly { name: string; health: { state: PluginState } }[];
    /** Fires the shutdown signal that ends the calls still running, then shuts the plugins down. */
    shutdown(): Promise<void>;
  };
  planner: MetricsSources['planner'];
  callsInFlight(): number;
  listenStreamsOpen(): number;
  /** Extra conditions of readiness (createHost's `readiness`). */
  checks: readonly ReadinessCheck[];
  /** Takes configured secrets out of a check's reason, which /readyz shows to anyone. */
  redact(text: string): string;
}

export interface HostOps {
  /** Absent when `[server] metrics = false`. */
  readonly metrics: HostMetrics | undefined;
  /** What an HTTP listener serves at /readyz and /metrics (structurally protocol's OpsEndpoints). */
  readonly endpoints: {
    readiness(): Promise<ReadinessReport>;
    metrics?: { scrape(): Promise<{ contentType: string; text: string }>; public: boolean };
  };
  /** A listener to count sessions of (HTTP) and to drain. */
  addHttp(serving: Drainable & { sessionCount(): number }): void;
  addStdio(serving: Drainable): void;
  drain(drainTimeoutS?: number): Promise<boolean>;
}

/** After the drain deadline, how long the calls it ended have to send their error answers. */
export const DRAIN_ANSWER_GRACE_MS = 1_000;

function delay(ms: number): { done: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return { done, cancel: () => clearTimeout(timer) };
}

export function createHostOps(options: HostOpsOptions): HostOps {
  const http = new Set<Drainable & { sessionCount(): number }>();
  const stdio = new Set<Drainable>();
  let draining = false;
  const metrics = options.settings.metrics
    ? createHostMetrics({
        planner: options.planner,
        callsInFlight: options.callsInFlight,
        sessionsOpen: () => [...http].reduce((sum, serving) => sum + serving.sessionCount(), 0),
        listenStreamsOpen: options.listenStreamsOpen,
      })
    : undefined;
  const checks = options.checks.map((check): ReadinessCheck => async () => {
    const { ok, detail } = await check();
    return { ok, detail: options.redact(detail) };
  });
  return {
    metrics,
    endpoints: {
      readiness: () =>
        readiness({
          started: () => options.plugins.status === 'started',
          plugins: () =>
            options.plugins
              .mountedPlugins()
              .map((plugin) => ({ name: plugin.name, state: plugin.health.state })),
          checks,
          draining: () => draining,
        }),
      ...(metrics
        ? { metrics: { scrape: () => metrics.scrape(), public: options.settings.metricsPublic } }
        : {}),
    },
    addHttp(serving) {
      http.add(serving);
      metrics?.collectProcessMetrics();
    },
    addStdio: (serving) => stdio.add(serving),
    async drain(drainTimeoutS = options.settings.drainTimeoutS) {
      draining = true;
      const taken = Promise.all([...http, ...stdio].map((serving) => serving.drain())).then(() => true);
      // An embedder's value is not bounded by the config schema: a delay past the timer limit would fire at once.
      const deadline = delay(clampDelay(drainTimeoutS * 1000));
      try {
        if (await Promise.race([taken, deadline.done.then(() => false)])) return true;
      } finally {
        deadline.cancel();
      }
      // At the deadline the calls still running are ended through the shutdown signal, so their clients get the
      // shutting-down error as an answer rather than a dropped connection (which a 2025 client may wait out as a
      // stream to resume); those answers get a moment to go out before close() ends the connections.
      options.plugins.shutdown().catch(() => {});
      const grace = delay(DRAIN_ANSWER_GRACE_MS);
      await Promise.race([taken, grace.done]);
      grace.cancel();
      return false;
    },
  };
}
