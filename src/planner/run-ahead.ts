// Runs the planned calls ahead: the dispatcher's queue and caps, each call's claim, cache flight and report, and their cancellation.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { PlannerConfig } from '../config/index.js';
import { describeThrown, errors, type ToolValueModel } from '../contract/index.js';
import type { PreparedCall } from '../enrich/index.js';
import type { AgentStreams } from './agent-streams.js';
import { type CacheKeyParts, ResultCache } from './cache.js';
import type { ClusterPaths } from './cluster-paths.js';
import { type DispatchHandle, Dispatcher } from './dispatcher.js';
import { rateLimitHost } from './enricher-hooks.js';
import type { Candidate } from './plan.js';
import type { PlannerStats } from './planner-stats.js';
import type { PlannerOptions } from './planner-types.js';
import type { PreparedSet } from './prepared-set.js';
import type { ToolModels } from './tool-models.js';
import type { BudgetTicket } from './waste-budget.js';

/** What running calls ahead needs of the planner's options and its other parts. */
export interface RunAheadOptions extends Pick<
  PlannerOptions,
  'host' | 'logger' | 'onSpeculativeCall' | 'slots'
> {
  settings: PlannerConfig;
  now: () => number;
  cache: ResultCache;
  stats: PlannerStats;
  streams: AgentStreams;
  models: ToolModels;
  cluster: ClusterPaths;
}

interface QueuedCall {
  handle: DispatchHandle;
  /** Withdrawn from the waste budget if the job never starts. */
  ticket: BudgetTicket;
  session: string;
  tool: string;
}

/** The calls run ahead: queued for a slot, then running; `close()` drops the queue and aborts the running ones. */
export class RunAhead {
  private readonly dispatcher: Dispatcher;
  /** Jobs waiting for a slot, by cache key: covered for planning, cancelled when the agent calls first. */
  private readonly queued = new Map<string, QueuedCall>();
  /** One per speculative call running: the host wants a signal per request, and close() aborts them. */
  private readonly speculating = new Set<AbortController>();
  private isClosed = false;

  constructor(private readonly options: RunAheadOptions) {
    const { settings } = options;
    this.dispatcher = new Dispatcher({
      maxInFlight: settings.maxInFlight,
      perHostInFlight: settings.perHostInFlight,
      thinkWindowMs: settings.thinkWindowS * 1000,
      now: options.now,
      ...(options.slots ? { slots: options.slots } : {}),
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Calls running now. */
  get inFlight(): number {
    return this.dispatcher.inFlight;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.dispatcher.queued;
  }

  /** True when some planned call waits for a slot. */
  get anyQueued(): boolean {
    return this.queued.size > 0;
  }

  dispatch(session: string, candidate: Candidate, set: PreparedSet, ticket: BudgetTicket): void {
    const { cache, cluster, stats, logger, now } = this.options;
    const { prepared } = set;
    const model = this.options.models.modelFor(prepared.enriched);
    const parts = this.partsFor(session, candidate.tool, set, model);
    const key = ResultCache.key(parts);
    const host = rateLimitHost(prepared, logger) ?? model.rateLimitHost;
    const ttlS = model.cost.freshnessTtlS ?? this.options.settings.defaultTtlS;
    const handle = this.dispatcher.submit({
      host,
      run: async () => {
        this.queued.delete(key);
        if (this.isClosed || cache.covers(parts) || !cluster.serving) {
          ticket.settle('withdrawn');
          return;
        }
        const claim = await cluster.claim(key, candidate.tool);
        if (claim === 'covered' || this.isClosed || cache.covers(parts)) {
          if (claim !== 'covered') claim?.release();
          ticket.settle('withdrawn');
          return;
        }
        stats.count(parts.principal, 'dispatched');
        logger.debug({ tool: candidate.tool, args: candidate.args }, 'planner: dispatched');
        const flight = cache.begin(parts, (used) => ticket.settle(used ? 'used' : 'unused'));
        const startedAtMs = now();
        let result: CallToolResult | undefined;
        let failure: unknown;
        const call = new AbortController();
        this.speculating.add(call);
        try {
          result = await this.options.host.callTool(candidate.tool, prepared.args, {
            speculative: true,
            signal: call.signal,
            principal: parts.principal,
          });
        } catch (error) {
          failure = error;
          logger.debug(
            { tool: candidate.tool, err: describeThrown(error) },
            'planner: speculative call failed',
          );
        } finally {
          this.speculating.delete(call);
        }
        this.reportSpeculative(parts.principal, prepared, now() - startedAtMs, result, failure);
        if (result === undefined || result.isError === true) stats.count(parts.principal, 'failed');
        const costMs = now() - startedAtMs;
        flight.settle(result, ttlS, costMs);
        if (flight.stale) stats.counts.invalidated += 1;
        if (result !== undefined && result.isError !== true && !flight.stale && ttlS > 0)
          claim?.store(result, ttlS, costMs);
        else claim?.release();
      },
      drop: () => {
        this.queued.delete(key);
        stats.counts.dropped += 1;
        ticket.settle('withdrawn');
      },
    });
    if (this.dispatcher.isQueued(handle))
      this.queued.set(key, { handle, ticket, session, tool: candidate.tool });
  }

  /** True when the set runs ahead already (queued, running or cached) for this session, or its tool is not listed. */
  isCovered(session: string, tool: string, set: PreparedSet): boolean {
    const model = this.options.models.modelOf(tool);
    if (!model) return true;
    const parts = this.partsFor(session, tool, set, model);
    return this.queued.has(ResultCache.key(parts)) || this.options.cache.covers({ ...parts, session });
  }

  /** The agent is making this call itself: a speculative one still waiting for a slot is not needed. */
  cancelQueued(parts: CacheKeyParts): void {
    for (const key of [ResultCache.key(parts), ResultCache.key({ ...parts, session: undefined })]) {
      const job = this.queued.get(key);
      if (job) this.cancelJob(key, job);
    }
  }

  /** Drops this process's results of `tools` (of `match` alone where their args name it) and its queued calls of them. */
  dropStale(tools: readonly string[], match: Record<string, unknown> | undefined): void {
    const { cache, stats } = this.options;
    // Most writes meet nothing to drop: skip the walk over the cache.
    if (cache.isEmpty && this.queued.size === 0) return;
    cache.invalidate(tools, match);
    // Not yet begun, so invalidate cannot mark them: they would read the old state or race the write.
    for (const [key, job] of this.queued) {
      if (tools.includes(job.tool) && this.cancelJob(key, job)) {
        stats.counts.dropped += 1;
      }
    }
  }

  /** The session has ended: its calls still waiting for a slot are not needed. */
  cancelSession(session: string): void {
    for (const [key, job] of this.queued) {
      if (job.session === session) this.cancelJob(key, job);
    }
  }

  /** Stops: queued calls are dropped, running ones aborted. */
  close(): void {
    this.isClosed = true;
    this.dispatcher.close();
    this.queued.clear();
    const reason = errors.shuttingDown('speculative calls');
    for (const call of this.speculating) call.abort(reason);
  }

  /** Takes a job out of the queue before it starts; false when it has started or been dropped already. */
  private cancelJob(key: string, job: QueuedCall): boolean {
    if (!job.handle.cancel()) return false;
    this.queued.delete(key);
    job.ticket.settle('withdrawn');
    return true;
  }

  private partsFor(session: string, tool: string, set: PreparedSet, model: ToolValueModel): CacheKeyParts {
    return {
      principal: this.options.streams.principalOf(session),
      session: model.sessionIndependent === true ? undefined : session,
      tool,
      args: set.prepared.args,
      argsKey: set.argsKey,
    };
  }

  /** Tells `onSpeculativeCall` of a call run ahead; what it throws is logged, never the call's concern. */
  private reportSpeculative(
    principal: string,
    prepared: PreparedCall,
    latencyMs: number,
    result: CallToolResult | undefined,
    error: unknown,
  ): void {
    const hear = this.options.onSpeculativeCall;
    if (!hear) return;
    const { ref } = prepared.enriched;
    try {
      hear({
        tool: ref.published,
        plugin: ref.plugin,
        principal,
        latencyMs,
        ...(result === undefined ? { error } : { result }),
      });
    } catch (thrown) {
      this.options.logger.warn(
        { tool: ref.published, err: describeThrown(thrown) },
        'planner: onSpeculativeCall threw',
      );
    }
  }
}
