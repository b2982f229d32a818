// The process's Prometheus metrics on a registry of its own (two hosts in one process never share a series): calls,
// latencies and errors by tool and plugin, the planner's counters, the open streams, and Redis round-trips.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AuditRecord } from '../audit/index.js';

/** What the metrics read when they are scraped; each is cheap (a counter or a map's size). */
export interface MetricsSources {
  /** The planner's process-wide counters and cache size. */
  planner(): {
    counters: { dispatched: number; hits: number; joins: number; wasted: number };
    cache: { entries: number; bytes: number };
  };
  /** Tool calls running now (admission). */
  callsInFlight(): number;
  /** Open 2025 sessions, over every HTTP listener. */
  sessionsOpen(): number;
  /** Open listen streams, over every transport. */
  listenStreamsOpen(): number;
}

/** Round-trips to Redis: the cluster part counts each command or script it sends. */
export interface RoundTripCounter {
  inc(by?: number): void;
}

export interface HostMetrics {
  readonly registry: Registry;
  readonly redisRoundTrips: RoundTripCounter;
  /** Counts one call as the audit log describes it (the principal and request id are never read). */
  observeCall(call: AuditRecord): void;
  /**
   * Starts counting: calls (the host observes them from now on) and the default process metrics (CPU, memory,
   * event-loop lag, GC); idempotent. Called when an HTTP listener starts, the only place /metrics is served, so a
   * stdio server or a one-shot command pays for no observation it could never report.
   */
  collectProcessMetrics(): void;
  /** Whether `collectProcessMetrics` has been called: until then calls are not worth observing. */
  readonly counting: boolean;
  /** The exposition text and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

/** Seconds: from a cache hit (well under a millisecond) to a slow provider near the default 30 s deadline. */
const LATENCY_BUCKETS_S = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * A tool not listed (a typo, a removed tool) has no plugin. Its name is the client's to choose, so it is not a
 * label: one label value stands for all of them, or a client could grow the series without bound.
 */
const UNLISTED = 'unlisted';

/** A counter whose value is read from elsewhere at scrape time (a counter the planner keeps anyway). */
function mirroredCounter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function readGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

export function createHostMetrics(sources: MetricsSources): HostMetrics {
  const registry = new Registry();
  // One planner snapshot per scrape, taken as it begins: six series read it, and it ranks the learned edges.
  let plannerNow: ReturnType<MetricsSources['planner']> | undefined;
  const planner = () => (plannerNow ??= sources.planner());
  let processMetrics = false;
  // Labels are tool, plugin, outcome, kind and code: the catalog and the error module bound them all. Principals,
  // arguments and URIs are never labels (unbounded, and private).
  const calls = new Counter({
    name: 'foresight_tool_calls_total',
    help: 'Tool calls answered, by tool, plugin, outcome (ok, error, timeout, cancelled) and how the planner served them (none, hit, join, prefetch).',
    labelNames: ['tool', 'plugin', 'outcome', 'speculative'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'foresight_tool_call_duration_seconds',
    help: 'Tool call latency as the caller saw it, by tool and plugin (prefetches excluded).',
    labelNames: ['tool', 'plugin'] as const,
    buckets: LATENCY_BUCKETS_S,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'foresight_tool_errors_total',
    help: 'Tool calls that did not end ok, by tool, plugin, error kind and code (E_… codes, tool_error, aborted).',
    labelNames: ['tool', 'plugin', 'kind', 'code'] as const,
    registers: [registry],
  });
  const redisRoundTrips = new Counter({
    name: 'foresight_redis_roundtrips_total',
    help: 'Round-trips to Redis (commands and scripts) made by the cluster part; 0 without [cluster].',
    registers: [registry],
  });
  mirroredCounter(
    registry,
    'foresight_speculative_dispatched_total',
    'Speculative calls the planner started.',
    () => planner().counters.dispatched,
  );
  mirroredCounter(
    registry,
    'foresight_speculative_hits_total',
    'Agent calls answered from a cached speculative result.',
    () => planner().counters.hits,
  );
  mirroredCounter(
    registry,
    'foresight_speculative_joins_total',
    'Agent calls answered by joining a speculative call still running.',
    () => planner().counters.joins,
  );
  mirroredCounter(
    registry,
    'foresight_speculative_wasted_total',
    'Speculative results never served (expired, evicted, invalidated, failed).',
    () => planner().counters.wasted,
  );
  readGauge(
    registry,
    'foresight_planner_cache_entries',
    'Speculative results cached now.',
    () => planner().cache.entries,
  );
  readGauge(
    registry,
    'foresight_planner_cache_bytes',
    'Estimated size of the cached speculative results.',
    () => planner().cache.bytes,
  );
  readGauge(registry, 'foresight_calls_in_flight', 'Tool calls running now.', sources.callsInFlight);
  readGauge(registry, 'foresight_sessions_open', 'Open 2025-era HTTP sessions.', sources.sessionsOpen);
  readGauge(
    registry,
    'foresight_listen_streams_open',
    'Open listen streams (2026-07-28), over every transport.',
    sources.listenStreamsOpen,
  );

  // Each call finds its series by one string key: prom-client would hash the label object on every call, which
  // cost HTTP calls about 5% more CPU with metrics on. The catalog bounds the keys, as it bounds the labels.
  const callSeries = new Map<string, { inc(): void }>();
  const latencySeries = new Map<string, { observe(seconds: number): void }>();

  return {
    registry,
    redisRoundTrips,
    observeCall(call) {
      const plugin = call.plugin ?? UNLISTED;
      const tool = call.plugin === undefined ? UNLISTED : call.tool;
      const speculative = call.speculative === false ? 'none' : call.speculative;
      const where = `${tool}\u0000${plugin}`;
      const callKey = `${where}\u0000${call.outcome}\u0000${speculative}`;
      let counted = callSeries.get(callKey);
      if (counted === undefined) {
        counted = calls.labels({ tool, plugin, outcome: call.outcome, speculative });
        callSeries.set(callKey, counted);
      }
      counted.inc();
      if (call.speculative !== 'prefetch') {
        let timed = latencySeries.get(where);
        if (timed === undefined) {
          timed = latency.labels({ tool, plugin });
          latencySeries.set(where, timed);
        }
        timed.observe(call.latency_ms / 1000);
      }
      if (call.outcome !== 'ok')
        errors.inc({
          tool,
          plugin,
          kind: call.error?.kind ?? 'none',
          code: call.error?.code ?? 'none',
        });
    },
    get counting() {
      return processMetrics;
    },
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
    async scrape() {
      plannerNow = undefined;
      try {
        return { contentType: registry.contentType, text: await registry.metrics() };
      } finally {
        plannerNow = undefined;
      }
    },
  };
}
