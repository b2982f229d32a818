// The planner at run time: answers agent calls from speculative results, and runs the likely next calls ahead.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolValueModel } from '../contract/index.js';
import type { PreparedCall } from '../enrich/index.js';
import type { CallEnvironment } from '../host/index.js';
import { AgentStreams } from './agent-streams.js';
import { ResultCache } from './cache.js';
import { ClusterPaths } from './cluster-paths.js';
import type { PlannerCounters } from './counters.js';
import { type AnsweredCall, FollowUps } from './follow-ups.js';
import type { LearnerPool } from './learner-pool.js';
import { Listings } from './listings.js';
import { canonicalJson } from './plan.js';
import { PlannerStats } from './planner-stats.js';
import {
  DEFAULT_PRINCIPAL,
  type AgentStream,
  type PlannedTools,
  type PlannerOptions,
  type PlannerSnapshot,
} from './planner-types.js';
import { type PrefetchSources, prefetched } from './prefetch.js';
import { RunAhead } from './run-ahead.js';
import { withPrefetchMeta } from './served-result.js';
import { ToolModels, callOptions, matchOf, writes } from './tool-models.js';
import type { WasteBudget } from './waste-budget.js';

export { PREFETCH_META_KEY, DEFAULT_PRINCIPAL } from './planner-types.js';
export type {
  AgentStream,
  PlannedTools,
  PlannerOptions,
  PlannerSnapshot,
  SpeculativeCallReport,
  ToolCaller,
} from './planner-types.js';

export class Planner {
  private readonly cache: ResultCache;
  private readonly now: () => number;
  private readonly budget: WasteBudget;
  private readonly models: ToolModels;
  private readonly streams: AgentStreams;
  private readonly stats: PlannerStats;
  private readonly cluster: ClusterPaths;
  private readonly runAhead: RunAhead;
  private readonly listings = new Listings();
  private readonly followUps: FollowUps;
  private readonly sources: PrefetchSources;

  constructor(private readonly options: PlannerOptions) {
    const { settings, logger } = options;
    this.now = options.now ?? Date.now;
    const now = this.now;
    const cache = new ResultCache({ now, maxBytes: options.cacheMaxBytes });
    this.cache = cache;
    this.models = new ToolModels(options.pipeline, options.overrides ?? {}, logger);
    const streams = new AgentStreams(options.learners);
    this.streams = streams;
    const stats = new PlannerStats(streams);
    this.stats = stats;
    const cluster = new ClusterPaths({ shared: options.shared, cache, stats, logger, now });
    this.cluster = cluster;
    this.budget = cluster.budget(settings.maxWastePerHit);
    const runAhead = new RunAhead({
      ...options,
      settings,
      now,
      cache,
      stats,
      streams,
      models: this.models,
      cluster,
    });
    this.runAhead = runAhead;
    this.followUps = new FollowUps({
      pipeline: options.pipeline,
      settings,
      logger,
      models: this.models,
      listings: this.listings,
      budget: this.budget,
      runAhead,
    });
    this.sources = { cache, runAhead, cluster, streams, stats, logger, now };
    cluster.listen({ dropStale: (tools, match) => runAhead.dropStale(tools, match), budget: this.budget });
  }

  get enabled(): boolean {
    return this.options.settings.enabled;
  }

  /** Starts learning from what the agents do, per principal (e.g. once the saved counts have loaded). */
  useLearners(learners: LearnerPool, earlier?: PlannerCounters): void {
    this.streams.useLearners(learners);
    this.stats.useEarlier(earlier);
  }

  /**
   * One agent stream's view of the tools (what the planner learns and speculates per). `stream.id` defaults to
   * a fresh id; `stream.principal` (default `local`) scopes the cache: no result is served to another principal.
   * Streams are independent of transports: a legacy session, a stdio connection, or the modern requests of one
   * principal and client (see docs/planner.md, "Agent streams").
   */
  openSession(stream: Partial<AgentStream> = {}): PlannedTools {
    const { pipeline } = this.options;
    const session = stream.id ?? randomUUID();
    this.streams.open(session, stream.principal ?? DEFAULT_PRINCIPAL);
    const base = {
      listTools: () => pipeline.listTools(),
      onToolsChanged: (listener: () => void) => pipeline.onToolsChanged(listener),
    };
    if (!this.enabled) {
      return {
        ...base,
        // Not planned, but the plugin still hears what the value model says of the call's side effects.
        callTool: async (name, args, env) => {
          const prepared = pipeline.prepare(name, args);
          const options = callOptions(this.models.modelFor(prepared.enriched));
          return pipeline.finish(
            prepared,
            await this.options.host.callTool(name, prepared.args, env, options),
          );
        },
        dispose: () => this.streams.forget(session),
      };
    }
    return {
      ...base,
      callTool: (name, args, env) => this.callTool(session, name, args, env),
      dispose: () => this.endSession(session),
    };
  }

  /** The value model of a listed tool, or undefined for a tool that is not listed. */
  modelOf(name: string): ToolValueModel | undefined {
    return this.models.modelOf(name);
  }

  /**
   * Mistakes in the value models that only show once tools are listed: a `[tools."…"]` block naming no
   * listed tool, and follow-up links or invalidations naming one. Each is one sentence.
   */
  modelProblems(): string[] {
    return this.models.problems();
  }

  /**
   * Config that does what it says but maybe not what was meant: a `[tools."…"]` `follow_up` that replaces
   * links the tool's plugin gives it. Each is one sentence.
   */
  modelNotes(): string[] {
    return this.models.notes();
  }

  /** The planner's state: process-wide, or with `principal` what it learned for that principal alone. */
  snapshot(principal?: string): PlannerSnapshot {
    const { cache, budget, runAhead } = this;
    return this.stats.snapshot(
      { enabled: this.enabled, cache, budget, inFlight: runAhead.inFlight, queued: runAhead.waiting },
      principal,
    );
  }

  /**
   * Another process of the cluster answered a call of an agent stream open here (relayed with its canonical
   * arguments). When it is an item of a listing this process holds for the stream, the walk goes on here: the next
   * items run ahead as if the call had landed on this process, and their results are shared for wherever the
   * agent's next call lands.
   */
  continueListing(stream: string, tool: string, argsKey: string): void {
    if (this.runAhead.closed || !this.enabled || argsKey === '' || !this.streams.isOpen(stream)) return;
    const listing = this.listings.consume(stream, tool, argsKey);
    const set = listing?.sets.find(([, kept]) => kept.argsKey === argsKey)?.[1];
    const model = this.models.modelOf(tool);
    if (listing === undefined || set === undefined || model === undefined) return;
    // Only the walk: the call's own follow-ups were planned where its result is. Ranked by what the principal's
    // learner knows of walks (as it would be here), though the call itself is learned from where it was made.
    const learner = this.streams.learnerOf(stream);
    this.followUps.schedule(
      {
        session: stream,
        prepared: set.prepared,
        model: { ...model, followUp: [] },
        raw: { content: [] },
        observation: undefined,
        listing,
        mayCall: listing.mayCall,
      },
      learner,
    );
  }

  /** Stops planning: queued calls are dropped, running ones aborted, results left unserved count as wasted. */
  close(): void {
    if (this.runAhead.closed) return;
    this.runAhead.close();
    this.cache.clear();
  }

  private async callTool(
    session: string,
    name: string,
    args: Record<string, unknown>,
    env: CallEnvironment | undefined,
  ): Promise<CallToolResult> {
    const { pipeline, host } = this.options;
    const prepared = pipeline.prepare(name, args);
    const model = this.models.modelFor(prepared.enriched);
    // Only a follow-up's target is ever run ahead, so only its calls can be served, cancel a queued
    // job, work through a listing or match a planned set: the others skip all of that (the hot path).
    const target = this.models.linkTargets().has(name);
    const argsKey = target ? canonicalJson(prepared.args) : '';
    if (writes(model)) {
      this.streams.observe(session, name, argsKey);
      return this.mutate(prepared, model, env);
    }
    if (!target) {
      // The call goes out first: the learner hears of it while the plugin works, not before.
      const answered = host.callTool(name, prepared.args, env, callOptions(model));
      const observation = this.streams.observe(session, name, argsKey);
      const raw = await answered;
      return this.answer({
        session,
        prepared,
        model,
        raw,
        observation,
        listing: undefined,
        mayCall: env?.mayCall,
      });
    }

    const observation = this.streams.observe(session, name, argsKey);
    const listing = this.listings.consume(session, name, argsKey);
    const found = await prefetched(this.sources, session, prepared, argsKey, env);
    const raw = found ? found.result : await host.callTool(name, prepared.args, env, callOptions(model));
    const answer = this.answer({
      session,
      prepared,
      model,
      raw,
      observation,
      listing,
      mayCall: env?.mayCall,
    });
    return found ? withPrefetchMeta(answer, found.served) : answer;
  }

  /** The agent's answer from a plugin's result; a success is planned from once the answer is out. */
  private answer(call: AnsweredCall): CallToolResult {
    const answer = this.options.pipeline.finish(call.prepared, call.raw);
    if (call.raw.isError !== true) this.followUps.schedule(call);
    return answer;
  }

  /** A call that may change what tools read: what it makes stale goes before it runs and again after it answered. */
  private async mutate(
    prepared: PreparedCall,
    model: ToolValueModel,
    env: CallEnvironment | undefined,
  ): Promise<CallToolResult> {
    const { pipeline, host } = this.options;
    const { ref } = prepared.enriched;
    const tools = this.models.invalidatesOf(prepared.enriched);
    const match = matchOf(model.invalidateBy, prepared.args);
    const invalidate = () => {
      this.runAhead.dropStale(tools, match);
      return this.cluster.invalidate(tools, match);
    };
    // The cluster hears of the write before it goes upstream (within the lookup bound): a read that follows the
    // answer, on any process, must not find a result from before it.
    await invalidate();
    try {
      return pipeline.finish(prepared, await host.callTool(ref.published, prepared.args, env));
    } finally {
      // A speculative call begun while this one ran may have read the old state.
      void invalidate();
    }
  }

  private endSession(session: string): void {
    this.streams.end(session);
    this.listings.drop(session);
    this.cache.dropSession(session);
    this.runAhead.cancelSession(session);
  }
}
