// The planner at run time: answers agent calls from speculative results, and runs the likely next calls ahead.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { PlannerConfig, ToolOverride } from '../config/index.js';
import {
  describeThrown,
  errors,
  type FollowUpLink,
  type Logger,
  type McpTool,
  type ToolValueModel,
} from '../contract/index.js';
import type { EnrichedTool, PreparedCall, ToolPipeline } from '../enrich/index.js';
import { type CallEnvironment, type ToolCallOptions } from '../host/index.js';
import { ResultCache, type CacheKeyParts, type CachedResult } from './cache.js';
import { type PlannerCounters, zeroCounters } from './counters.js';
import { type DispatchHandle, Dispatcher } from './dispatcher.js';
import {
  type CallObservation,
  type PlannedLink,
  type RankedEdge,
  type SetOutcomeStatus,
  TransitionLearner,
  positionPrior,
  rankEdgesByDivergence,
} from './learning.js';
import type { LearnerPool, PrincipalSwitchedOff } from './learner-pool.js';
import { type Candidate, canonicalJson, planFollowUps } from './plan.js';
import { MAX_ARGUMENT_SETS_PER_LINK, projectFollowUp } from './projection.js';
import { type PrincipalCounters, addCounters } from './learned-state.js';
import { isReadOnly, mayRunAhead, replacedLinksNote, resolveValueModel } from './value-models.js';
import type { SharedSlots } from './shared-slots.js';
import type { SharedClaim, SharedSpeculation } from './shared-speculation.js';
import { type BudgetTicket, WasteBudget } from './waste-budget.js';

/** `_meta` key of a result the planner served: `{ source: 'cache' | 'in_flight', age_ms }`. */
export const PREFETCH_META_KEY = 'foresight/prefetch';

/** The host's way to run a tool: the same guarded path for the agent's calls and speculative ones. */
export interface ToolCaller {
  callTool(
    name: string,
    args: Record<string, unknown>,
    env?: CallEnvironment,
    options?: ToolCallOptions,
  ): Promise<CallToolResult>;
}

/** The options of a call of a tool with no side effects; one object for them all. */
const READ_ONLY: ToolCallOptions = Object.freeze({ readOnly: true });

/** What the plugin is told of a call of a tool with this model. */
function callOptions(model: ToolValueModel): ToolCallOptions | undefined {
  return isReadOnly(model) ? READ_ONLY : undefined;
}

export interface PlannerOptions {
  pipeline: ToolPipeline;
  host: ToolCaller;
  settings: PlannerConfig;
  /** `[tools."<name>"]` and `[tools."*"]`. */
  overrides?: Readonly<Record<string, ToolOverride>>;
  logger: Logger;
  /** Learns what each principal's agents really call; without it, each argument set's probability is the prior alone. */
  learners?: LearnerPool;
  /** Clock in ms for the cache and the dispatcher. Default `Date.now`. */
  now?: () => number;
  cacheMaxBytes?: number;
  /** Hears of each call run ahead once it has ended (the audit log); never delays or fails it. Default none. */
  onSpeculativeCall?: (call: SpeculativeCallReport) => void;
  /** Shares results run ahead with the other processes of a cluster. Default none: this process alone. */
  shared?: SharedSpeculation;
  /** Holds the per-host cap on calls run ahead across the processes of a cluster. Default none: this process alone. */
  slots?: SharedSlots;
}

/** A call the planner ran ahead on its own, once it has ended: `result`, or `error` when it threw. */
export interface SpeculativeCallReport {
  /** Published name. */
  tool: string;
  plugin: string;
  principal: string;
  latencyMs: number;
  result?: CallToolResult;
  error?: unknown;
}

/** What the planner learns and speculates per: one agent's stream of calls, and who that agent is. */
export interface AgentStream {
  id: string;
  principal: string;
}

/** The principal of a stream opened without one: the local user (stdio, embedding code). */
export const DEFAULT_PRINCIPAL = 'local';

/** What clients of one session call: the tool list and calls, with the planner in front. */
export interface PlannedTools {
  listTools(): McpTool[];
  callTool(name: string, args: Record<string, unknown>, env?: CallEnvironment): Promise<CallToolResult>;
  onToolsChanged(listener: () => void): () => void;
  /** The session has ended: its learning windows close, its own cached results go. */
  dispose(): void;
}

export interface PlannerSnapshot {
  enabled: boolean;
  /** Since this process started. */
  counters: PlannerCounters;
  /** Including what earlier runs saved to the state file (as `counters` when nothing is learned). */
  allTime: PlannerCounters;
  inFlight: number;
  queued: number;
  /** Agent calls waiting now for a speculative call still running (each becomes a join when it ends). */
  joining: number;
  cache: { entries: number; bytes: number };
  /**
   * Principals the planner learns for (in memory and saved): each plans with its own counts. Only in the
   * process-wide snapshot, not in one principal's.
   */
  principals?: number;
  /**
   * Target tools auto-off has switched off, with the use rate of their recent results: every principal's (each
   * named), or in one principal's snapshot that principal's alone.
   */
  switchedOff: PrincipalSwitchedOff[];
  /** In one principal's snapshot: what the planner did for that principal since this process started. */
  principalCounters?: PrincipalCounters;
  /**
   * The learned edges that differ most from their priors (at most 10): every principal's counts added up, or in
   * one principal's snapshot that principal's own (what the planner blends with the priors for it).
   */
  edges: RankedEdge[];
  /**
   * `max_waste_per_hit` (null: no budget), and the budget's account of the recent calls run ahead
   * (faded): results used and unused, those still open counted by their probability.
   */
  wasteBudget: { maxWastePerHit: number | null; hits: number; waste: number };
}

/** An agent call as its principal's learner saw it: what was planned after it goes to the same learner. */
interface Observed {
  learner: TransitionLearner;
  call: CallObservation;
}

/** What one listed tool's planning needs, worked out once per catalog build. */
interface ToolMemo {
  model: ToolValueModel;
  /** For a tool that may write: the tools whose results it makes stale (its plugin's, when it names none). */
  invalidates: readonly string[];
}

/** One projected argument set, mapped and validated for its tool. */
interface PreparedSet {
  prepared: PreparedCall;
  /** Canonical JSON of the arguments the plugin receives: cache key and learning key. */
  argsKey: string;
}

/**
 * The argument sets one follow-up link projected, beyond the few run ahead at once: as the agent works
 * through them (reading the files a search listed, one after another), the next ones run ahead.
 */
interface Listing {
  link: FollowUpLink;
  /** By the canonical JSON of the agent-side arguments, in projection order. */
  sets: [string, PreparedSet][];
  /** `argsKey`s the agent has called. */
  consumed: Set<string>;
  /** What the token of the call that listed them allows: the walk runs nothing ahead it could not call. */
  mayCall: CallEnvironment['mayCall'];
}

/** How the learner names the edge of a call to the next items of a listing it belongs to. */
const LISTING_VIA = 'listing';
/** Argument sets a listing keeps for the agent to work through. */
const LISTING_LIMIT = 20;
/** Listings kept per session, newest first. */
const LISTINGS_PER_SESSION = 4;
/** Sessions whose listings are kept; the least recently active goes first. */
const MAX_SESSIONS_WITH_LISTINGS = 1024;

interface QueuedCall {
  handle: DispatchHandle;
  /** Withdrawn from the waste budget if the job never starts. */
  ticket: BudgetTicket;
  session: string;
  tool: string;
}

interface Served {
  source: 'cache' | 'in_flight';
  ageMs: number;
}

/** A result run ahead for the agent's call: the call's own copy, which its result hooks may change. */
interface Prefetched {
  result: CallToolResult;
  served: Served;
}

export class Planner {
  private readonly cache: ResultCache;
  private readonly dispatcher: Dispatcher;
  private readonly now: () => number;
  private readonly counts: PlannerCounters = zeroCounters();
  private joining = 0;
  private readonly budget: WasteBudget;
  private readonly memos = new WeakMap<EnrichedTool, ToolMemo>();
  /** The tools follow-up links lead to, for the catalog build `listed` came from. */
  private targets: { listed: readonly McpTool[]; names: ReadonlySet<string> } | undefined;
  /** Jobs waiting for a slot, by cache key: covered for planning, cancelled when the agent calls first. */
  private readonly queued = new Map<string, QueuedCall>();
  private readonly listings = new Map<string, Listing[]>();
  /** Each open stream's principal. */
  private readonly principals = new Map<string, string>();
  /** One per speculative call running: the host wants a signal per request, and close() aborts them. */
  private readonly speculating = new Set<AbortController>();
  private closed = false;
  private learners: LearnerPool | undefined;
  /** Counters saved by earlier runs. */
  private earlier: PlannerCounters | undefined;

  constructor(private readonly options: PlannerOptions) {
    this.learners = options.learners;
    this.now = options.now ?? Date.now;
    this.cache = new ResultCache({ now: this.now, maxBytes: options.cacheMaxBytes });
    const { shared } = options;
    const { maxWastePerHit } = options.settings;
    // A cluster keeps one account of what was run ahead: each process plans only a part of an agent's calls.
    this.budget = new WasteBudget(
      maxWastePerHit,
      shared && Number.isFinite(maxWastePerHit) ? (change) => shared.shareBudgetChange(change) : undefined,
    );
    this.dispatcher = new Dispatcher({
      maxInFlight: options.settings.maxInFlight,
      perHostInFlight: options.settings.perHostInFlight,
      thinkWindowMs: options.settings.thinkWindowS * 1000,
      now: this.now,
      ...(options.slots ? { slots: options.slots } : {}),
    });
    if (shared) {
      shared.onInvalidate((tools, match) => this.dropStale(tools, match));
      shared.onServedElsewhere((key) => this.cache.servedElsewhere(key));
      shared.onBudgetChange((change) => this.budget.absorb(change));
      // Cut off, this process would not hear the others' writes: what it holds may go stale unseen.
      shared.onAvailabilityChange((available) => {
        if (!available) this.cache.clear();
      });
    }
  }

  /**
   * False while the cluster's sharing is down: nothing run ahead is served or run, since a write on another process
   * would not reach this one. Always true for a process on its own.
   */
  private get serving(): boolean {
    return this.options.shared?.available() ?? true;
  }

  get enabled(): boolean {
    return this.options.settings.enabled;
  }

  /** Starts learning from what the agents do, per principal (e.g. once the saved counts have loaded). */
  useLearners(learners: LearnerPool, earlier?: PlannerCounters): void {
    this.learners = learners;
    this.earlier = earlier;
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
    this.principals.set(session, stream.principal ?? DEFAULT_PRINCIPAL);
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
          const options = callOptions(this.modelFor(prepared.enriched));
          return pipeline.finish(
            prepared,
            await this.options.host.callTool(name, prepared.args, env, options),
          );
        },
        dispose: () => this.principals.delete(session),
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
    const enriched = this.options.pipeline.listed(name);
    return enriched && this.modelFor(enriched);
  }

  /**
   * Mistakes in the value models that only show once tools are listed: a `[tools."…"]` block naming no
   * listed tool, and follow-up links or invalidations naming one. Each is one sentence.
   */
  modelProblems(): string[] {
    const listed = new Set(this.options.pipeline.listTools().map((tool) => tool.name));
    const problems: string[] = [];
    for (const name of Object.keys(this.options.overrides ?? {})) {
      if (name !== '*' && !listed.has(name))
        problems.push(`[tools."${name}"] names no listed tool, so it applies to nothing`);
    }
    for (const name of listed) {
      const model = this.modelOf(name);
      if (!model) continue;
      for (const link of model.followUp) {
        if (!listed.has(link.tool))
          problems.push(
            `a follow-up of ${name} names ${link.tool}, which is not listed; it never runs ahead`,
          );
      }
      for (const tool of model.invalidates) {
        if (!listed.has(tool)) problems.push(`${name} invalidates ${tool}, which is not listed`);
      }
    }
    return problems;
  }

  /**
   * Config that does what it says but maybe not what was meant: a `[tools."…"]` `follow_up` that replaces
   * links the tool's plugin gives it. Each is one sentence.
   */
  modelNotes(): string[] {
    const overrides = this.options.overrides ?? {};
    const notes: string[] = [];
    for (const tool of this.options.pipeline.listTools()) {
      const enriched = this.options.pipeline.listed(tool.name);
      if (!enriched) continue;
      const note = replacedLinksNote(tool.name, {
        annotations: enriched.tool.annotations,
        fromEnricher: this.enricherModel(enriched),
        wildcard: overrides['*'],
        named: overrides[tool.name],
      });
      if (note !== undefined) notes.push(note);
    }
    return notes;
  }

  /** The planner's state: process-wide, or with `principal` what it learned for that principal alone. */
  snapshot(principal?: string): PlannerSnapshot {
    const cache = this.cache.stats;
    const budget = this.budget.state;
    const counters: PlannerCounters = {
      ...this.counts,
      wasted: cache.unused,
      expired: cache.expired,
      invalidated: this.counts.invalidated + cache.invalidated,
    };
    return {
      enabled: this.enabled,
      counters,
      allTime: this.earlier ? addCounters(this.earlier, counters) : counters,
      inFlight: this.dispatcher.inFlight,
      queued: this.dispatcher.queued,
      joining: this.joining,
      cache: this.cache.size,
      ...this.learned(principal),
      wasteBudget: {
        maxWastePerHit: Number.isFinite(budget.maxWastePerHit) ? budget.maxWastePerHit : null,
        hits: Math.round(budget.hits * 1000) / 1000,
        waste: Math.round(budget.waste * 1000) / 1000,
      },
    };
  }

  /** What was learned: every principal's counts added up, or one principal's own. */
  private learned(
    principal: string | undefined,
  ): Pick<PlannerSnapshot, 'principals' | 'switchedOff' | 'edges' | 'principalCounters'> {
    const { learners } = this;
    if (learners === undefined)
      return principal === undefined
        ? { principals: 0, switchedOff: [], edges: [] }
        : { switchedOff: [], edges: [] };
    if (principal === undefined)
      return {
        principals: learners.principals().length,
        switchedOff: learners.switchedOff(),
        edges: rankEdgesByDivergence(learners.combined().edges()),
      };
    const counts = learners.countsOf(principal);
    if (counts === undefined) return { switchedOff: [], edges: [] };
    const own = new TransitionLearner({}, counts);
    return {
      ...(counts.counters === undefined ? {} : { principalCounters: counts.counters }),
      switchedOff: own.switchedOff().map((off) => ({ principal, ...off })),
      edges: rankEdgesByDivergence(own.edges()),
    };
  }

  /**
   * Another process of the cluster answered a call of an agent stream open here (relayed with its canonical
   * arguments). When it is an item of a listing this process holds for the stream, the walk goes on here: the next
   * items run ahead as if the call had landed on this process, and their results are shared for wherever the
   * agent's next call lands.
   */
  continueListing(stream: string, tool: string, argsKey: string): void {
    if (this.closed || !this.enabled || argsKey === '' || !this.principals.has(stream)) return;
    const listing = this.consumeListing(stream, tool, argsKey);
    const set = listing?.sets.find(([, kept]) => kept.argsKey === argsKey)?.[1];
    const model = this.modelOf(tool);
    if (listing === undefined || set === undefined || model === undefined) return;
    // Only the walk: the call's own follow-ups were planned where its result is. Ranked by what the principal's
    // learner knows of walks (as it would be here), though the call itself is learned from where it was made.
    const learner = this.learners?.peek(this.principalOf(stream));
    this.schedulePlan(
      stream,
      set.prepared,
      { ...model, followUp: [] },
      { content: [] },
      undefined,
      listing,
      listing.mayCall,
      learner,
    );
  }

  /** Stops planning: queued calls are dropped, running ones aborted, results left unserved count as wasted. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.dispatcher.close();
    this.queued.clear();
    const reason = errors.shuttingDown('speculative calls');
    for (const call of this.speculating) call.abort(reason);
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
    const model = this.modelFor(prepared.enriched);
    // Only a follow-up's target is ever run ahead, so only its calls can be served, cancel a queued
    // job, work through a listing or match a planned set: the others skip all of that (the hot path).
    const target = this.linkTargets().has(name);
    const argsKey = target ? canonicalJson(prepared.args) : '';
    if (writes(model)) {
      this.observe(session, name, argsKey);
      return this.mutate(prepared, model, env);
    }
    if (!target) {
      // The call goes out first: the learner hears of it while the plugin works, not before.
      const answered = host.callTool(name, prepared.args, env, callOptions(model));
      const observation = this.observe(session, name, argsKey);
      return this.answer(session, prepared, model, await answered, observation, undefined, env?.mayCall);
    }

    const observation = this.observe(session, name, argsKey);
    const listing = this.consumeListing(session, name, argsKey);
    const prefetched = await this.prefetched(session, prepared, argsKey, env);
    const raw = prefetched
      ? prefetched.result
      : await host.callTool(name, prepared.args, env, callOptions(model));
    const answer = this.answer(session, prepared, model, raw, observation, listing, env?.mayCall);
    return prefetched ? withPrefetchMeta(answer, prefetched.served) : answer;
  }

  /** The agent's answer from a plugin's result; a success is planned from once the answer is out. */
  private answer(
    session: string,
    prepared: PreparedCall,
    model: ToolValueModel,
    raw: CallToolResult,
    observation: Observed | undefined,
    listing: Listing | undefined,
    mayCall: CallEnvironment['mayCall'],
  ): CallToolResult {
    const answer = this.options.pipeline.finish(prepared, raw);
    if (raw.isError !== true) this.schedulePlan(session, prepared, model, raw, observation, listing, mayCall);
    return answer;
  }

  /** A fresh speculative result for the agent's call, from the cache or by joining the call still running. */
  private async prefetched(
    session: string,
    prepared: PreparedCall,
    argsKey: string,
    env: CallEnvironment | undefined,
  ): Promise<Prefetched | undefined> {
    const { shared } = this.options;
    const local = !(this.cache.isEmpty && this.queued.size === 0);
    if (!local && shared === undefined) return undefined;
    if (!this.serving) return undefined;
    // In a cluster every result is served through Redis, where a write on any process has already made it stale:
    // this process's own copy could miss the news of a write that raced its agent's call.
    const ownCopies = local && shared === undefined;
    const name = prepared.enriched.ref.published;
    const parts: CacheKeyParts = {
      principal: this.principalOf(session),
      session,
      tool: name,
      args: prepared.args,
      argsKey,
    };
    let found: Prefetched | undefined;
    if (local) this.cancelQueued(parts);
    const cached = ownCopies ? this.cache.get(parts, (entry) => this.stillFresh(prepared, entry)) : undefined;
    if (cached) {
      // Kept for whoever asks next: the result hooks of this call change a copy (one read from Redis is a copy).
      found = {
        result: structuredClone(cached.result),
        served: { source: 'cache', ageMs: this.now() - cached.storedAtMs },
      };
      this.counts.hits += 1;
      this.counts.latencySavedMs += cached.costMs ?? 0;
      this.learners?.count(parts.principal, 'hits');
      this.learners?.count(parts.principal, 'latencySavedMs', cached.costMs ?? 0);
    } else {
      const flight = ownCopies ? this.cache.inFlight(parts) : undefined;
      if (flight) {
        const joinedAtMs = this.now();
        this.joining += 1;
        const result = await untilCancelled(flight.result, env?.signal, name).finally(
          () => (this.joining -= 1),
        );
        if (result) {
          found = { result: structuredClone(result), served: { source: 'in_flight', ageMs: 0 } };
          this.counts.joins += 1;
          this.counts.latencySavedMs += joinedAtMs - flight.startedAtMs;
          this.learners?.count(parts.principal, 'joins');
          this.learners?.count(parts.principal, 'latencySavedMs', joinedAtMs - flight.startedAtMs);
        }
      }
    }
    found ??= shared && (await this.sharedPrefetch(shared, parts, prepared, env));
    if (found)
      this.options.logger.debug({ tool: name, ...found.served }, 'planner: served a speculative result');
    return found;
  }

  /** Another process's result for the agent's call: stored already, or from its call still running. */
  private async sharedPrefetch(
    shared: SharedSpeculation,
    parts: CacheKeyParts,
    prepared: PreparedCall,
    env: CallEnvironment | undefined,
  ): Promise<Prefetched | undefined> {
    const name = parts.tool;
    const found = await shared.lookup(this.cache.keysFor(parts), name);
    if (found.kind === 'entry') {
      if (!this.stillFresh(prepared, found.entry)) return undefined;
      const costMs = found.entry.costMs ?? 0;
      this.counts.hits += 1;
      this.counts.latencySavedMs += costMs;
      this.learners?.count(parts.principal, 'hits');
      this.learners?.count(parts.principal, 'latencySavedMs', costMs);
      this.servedShared(shared, found.key);
      return {
        result: found.entry.result,
        served: { source: 'cache', ageMs: this.now() - found.entry.storedAtMs },
      };
    }
    if (found.kind !== 'claimed') return undefined;
    const joinedAtMs = this.now();
    this.joining += 1;
    const entry = await untilCancelled(found.wait(env?.signal), env?.signal, name).finally(
      () => (this.joining -= 1),
    );
    if (entry === undefined) return undefined;
    // The clocks of two processes: a claim begun "after" this call joined it is one that began with it.
    const savedMs = Math.max(0, joinedAtMs - found.startedAtMs);
    this.counts.joins += 1;
    this.counts.latencySavedMs += savedMs;
    this.learners?.count(parts.principal, 'joins');
    this.learners?.count(parts.principal, 'latencySavedMs', savedMs);
    this.servedShared(shared, found.key);
    return { result: entry.result, served: { source: 'in_flight', ageMs: 0 } };
  }

  /** Published names some listed tool's follow-up links lead to; worked out once per catalog build. */
  private linkTargets(): ReadonlySet<string> {
    const listed = this.options.pipeline.listTools();
    if (this.targets?.listed !== listed) {
      const names = new Set<string>();
      for (const tool of listed)
        for (const link of this.modelOf(tool.name)?.followUp ?? []) names.add(link.tool);
      this.targets = { listed, names };
    }
    return this.targets.names;
  }

  /** A call that may change what tools read: what it makes stale goes before it runs and again after it answered. */
  private async mutate(
    prepared: PreparedCall,
    model: ToolValueModel,
    env: CallEnvironment | undefined,
  ): Promise<CallToolResult> {
    const { pipeline, host } = this.options;
    const { ref } = prepared.enriched;
    const tools = this.memoFor(prepared.enriched).invalidates;
    const match = matchOf(model.invalidateBy, prepared.args);
    const invalidate = () => {
      this.dropStale(tools, match);
      return this.options.shared?.invalidate(tools, match);
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

  /** A shared result was served: not wasted, whichever process ran it (this one's copy is marked here). */
  private servedShared(shared: SharedSpeculation, key: string): void {
    this.cache.servedElsewhere(key);
    shared.served(key);
  }

  /** Drops this process's results of `tools` (of `match` alone where their args name it) and its queued calls of them. */
  private dropStale(tools: readonly string[], match: Record<string, unknown> | undefined): void {
    // Most writes meet nothing to drop: skip the walk over the cache.
    if (this.cache.isEmpty && this.queued.size === 0) return;
    this.cache.invalidate(tools, match);
    // Not yet begun, so invalidate cannot mark them: they would read the old state or race the write.
    for (const [key, job] of this.queued) {
      if (tools.includes(job.tool) && this.cancelJob(key, job)) {
        this.counts.dropped += 1;
      }
    }
  }

  private schedulePlan(
    session: string,
    prepared: PreparedCall,
    model: ToolValueModel,
    raw: CallToolResult,
    observation: Observed | undefined,
    listing: Listing | undefined,
    mayCall: CallEnvironment['mayCall'],
    /** Whose learned probabilities rank the candidates; default the observation's learner. */
    learner = observation?.learner,
  ): void {
    if (model.followUp.length === 0 && listing === undefined) {
      // Nothing to plan: the learner hears so at once, without a turn of the event loop per call.
      observation?.learner.observePlanned(observation.call, []);
      return;
    }
    // After the answer has gone out: planning never delays the agent's own call.
    setImmediate(() => {
      try {
        this.plan(session, prepared, model, raw, observation, listing, mayCall, learner);
      } catch (error) {
        this.options.logger.warn(
          { tool: prepared.enriched.ref.published, err: describeThrown(error) },
          'planner: planning follow-ups failed',
        );
      }
    });
  }

  private plan(
    session: string,
    call: PreparedCall,
    model: ToolValueModel,
    raw: CallToolResult,
    observation: Observed | undefined,
    listing: Listing | undefined,
    /** What the token of the call planned from allows ([auth.scopes]): nothing else is run ahead for it. */
    mayCall: CallEnvironment['mayCall'],
    learner: TransitionLearner | undefined,
  ): void {
    if (this.closed) return;
    const { enriched: from, args: prevArgs } = call;
    const { settings } = this.options;
    const published = from.ref.published;
    // Each link's argument sets that map and validate for its tool, in projection order, by the
    // canonical JSON of the agent-side arguments (what planFollowUps keys candidates by).
    const setsOf = new Map<FollowUpLink, Map<string, PreparedSet>>();
    for (const link of model.followUp) {
      const sets = new Map<string, PreparedSet>();
      for (const args of this.projectArgs(from, raw, link, prevArgs)) {
        const key = canonicalJson(args);
        const set = sets.get(key) ?? this.prepareSet(link.tool, args);
        if (set) sets.set(key, set);
      }
      setsOf.set(link, sets);
      if (sets.size > MAX_ARGUMENT_SETS_PER_LINK) this.rememberListing(session, link, sets, mayCall);
    }
    // This call worked through a listing: its next sets follow it, as a link of this tool to itself.
    const continued: FollowUpLink | undefined = listing && {
      tool: published,
      probability: listing.link.probability,
    };
    // Learned apart from the model's own links to the same tool: working through a list is another habit.
    const viaOf = (link: FollowUpLink) => (link === continued ? LISTING_VIA : undefined);
    if (listing && continued) {
      const rest = listing.sets.filter(([, set]) => !listing.consumed.has(set.argsKey));
      setsOf.set(continued, new Map(rest.slice(0, MAX_ARGUMENT_SETS_PER_LINK)));
    }
    const byCandidate = new Map<string, PreparedSet>();
    for (const [link, sets] of setsOf) {
      for (const [key, set] of sets) {
        const id = `${link.tool}\u0000${key}`;
        if (!byCandidate.has(id)) byCandidate.set(id, set);
      }
    }
    const candidates = planFollowUps({
      tool: published,
      result: raw,
      model: continued ? { ...model, followUp: [...model.followUp, continued] } : model,
      modelOf: (tool) => this.modelOf(tool),
      projectArgs: (link) =>
        [...(setsOf.get(link)?.keys() ?? [])].map((key) => JSON.parse(key) as Record<string, unknown>),
      // Without learning, the prior alone: each later set of a link counts half as likely as the one before.
      probabilityOf: learner
        ? (link, position) =>
            learner.probability(published, link.tool, position, link.probability, viaOf(link))
        : (link, position) => positionPrior(link.probability, position),
      isCovered: (tool, key) => {
        const set = byCandidate.get(`${tool}\u0000${key}`);
        return set === undefined || this.isCovered(session, tool, set);
      },
      settings: { probabilityFloor: settings.probabilityFloor, tokenBudget: settings.tokenBudget },
    });
    const statuses = new Map<string, SetOutcomeStatus>();
    for (const candidate of candidates) {
      const id = `${candidate.tool}\u0000${candidate.key}`;
      const set = byCandidate.get(id);
      if (!set) continue;
      // The caller could not make this call itself: left as skipped, which teaches the learner nothing of it.
      if (mayCall && !mayCall(candidate.tool)) continue;
      if (!(learner?.speculationAllowed(candidate.tool) ?? true)) {
        statuses.set(id, 'suppressed');
        continue;
      }
      const ticket = this.budget.admit(candidate.probability);
      if (ticket) {
        statuses.set(id, 'dispatched');
        this.dispatch(session, candidate, set, ticket);
      } else {
        this.options.logger.debug(
          { tool: candidate.tool, probability: candidate.probability },
          'planner: not run ahead; the waste budget has no room for so unlikely a call',
        );
      }
    }
    if (observation !== undefined) {
      const links: PlannedLink[] = [...setsOf].map(([link, sets]) => ({
        to: link.tool,
        prior: link.probability,
        ...(viaOf(link) === undefined ? {} : { via: LISTING_VIA }),
        sets: [...sets].slice(0, MAX_ARGUMENT_SETS_PER_LINK).map(([key, set]) => ({
          argsKey: set.argsKey,
          status: statuses.get(`${link.tool}\u0000${key}`) ?? 'skipped',
        })),
      }));
      observation.learner.observePlanned(observation.call, links);
    }
  }

  private dispatch(session: string, candidate: Candidate, set: PreparedSet, ticket: BudgetTicket): void {
    const { prepared } = set;
    const model = this.modelFor(prepared.enriched);
    const parts = this.partsFor(session, candidate.tool, set, model);
    const key = ResultCache.key(parts);
    const host = this.rateLimitHost(prepared) ?? model.rateLimitHost;
    const ttlS = model.cost.freshnessTtlS ?? this.options.settings.defaultTtlS;
    const handle = this.dispatcher.submit({
      host,
      run: async () => {
        this.queued.delete(key);
        if (this.closed || this.cache.covers(parts) || !this.serving) {
          ticket.settle('withdrawn');
          return;
        }
        const claim = await this.claim(key, candidate.tool);
        if (claim === 'covered' || this.closed || this.cache.covers(parts)) {
          if (claim !== 'covered') claim?.release();
          ticket.settle('withdrawn');
          return;
        }
        this.counts.dispatched += 1;
        this.learners?.count(parts.principal, 'dispatched');
        this.options.logger.debug({ tool: candidate.tool, args: candidate.args }, 'planner: dispatched');
        const flight = this.cache.begin(parts, (used) => ticket.settle(used ? 'used' : 'unused'));
        const startedAtMs = this.now();
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
          this.options.logger.debug(
            { tool: candidate.tool, err: describeThrown(error) },
            'planner: speculative call failed',
          );
        } finally {
          this.speculating.delete(call);
        }
        this.reportSpeculative(parts.principal, prepared, this.now() - startedAtMs, result, failure);
        if (result === undefined || result.isError === true) {
          this.counts.failed += 1;
          this.learners?.count(parts.principal, 'failed');
        }
        const costMs = this.now() - startedAtMs;
        flight.settle(result, ttlS, costMs);
        if (flight.stale) this.counts.invalidated += 1;
        if (result !== undefined && result.isError !== true && !flight.stale && ttlS > 0)
          claim?.store(result, ttlS, costMs);
        else claim?.release();
      },
      drop: () => {
        this.queued.delete(key);
        this.counts.dropped += 1;
        ticket.settle('withdrawn');
      },
    });
    if (this.dispatcher.isQueued(handle))
      this.queued.set(key, { handle, ticket, session, tool: candidate.tool });
  }

  /**
   * The cluster's claim on a call about to run ahead: `covered` when another process runs it or has its result,
   * undefined on a process of its own or when the claim could not be made (the call then runs unshared).
   */
  private async claim(key: string, tool: string): Promise<SharedClaim | 'covered' | undefined> {
    const { shared } = this.options;
    if (shared === undefined) return undefined;
    try {
      return await shared.claim(key, tool);
    } catch (error) {
      this.options.logger.debug({ tool, err: describeThrown(error) }, 'planner: claim failed; runs unshared');
      return undefined;
    }
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

  /** Takes a job out of the queue before it starts; false when it has started or been dropped already. */
  private cancelJob(key: string, job: QueuedCall): boolean {
    if (!job.handle.cancel()) return false;
    this.queued.delete(key);
    job.ticket.settle('withdrawn');
    return true;
  }

  /** The agent is making this call itself: a speculative one still waiting for a slot is not needed. */
  private cancelQueued(parts: CacheKeyParts): void {
    for (const key of [ResultCache.key(parts), ResultCache.key({ ...parts, session: undefined })]) {
      const job = this.queued.get(key);
      if (job) this.cancelJob(key, job);
    }
  }

  private isCovered(session: string, tool: string, set: PreparedSet): boolean {
    const model = this.modelOf(tool);
    if (!model) return true;
    const parts = this.partsFor(session, tool, set, model);
    return this.queued.has(ResultCache.key(parts)) || this.cache.covers({ ...parts, session });
  }

  private partsFor(session: string, tool: string, set: PreparedSet, model: ToolValueModel): CacheKeyParts {
    return {
      principal: this.principalOf(session),
      session: model.sessionIndependent === true ? undefined : session,
      tool,
      args: set.prepared.args,
      argsKey: set.argsKey,
    };
  }

  private prepareSet(tool: string, args: Record<string, unknown>): PreparedSet | undefined {
    try {
      const prepared = this.options.pipeline.prepare(tool, args);
      return { prepared, argsKey: canonicalJson(prepared.args) };
    } catch (error) {
      this.options.logger.debug(
        { tool, args, err: describeThrown(error) },
        'planner: a projected follow-up does not fit its tool; skipped',
      );
      return undefined;
    }
  }

  /** Keeps a link's projected sets for the agent to work through (newest listings first, a few per session). */
  private rememberListing(
    session: string,
    link: FollowUpLink,
    sets: Map<string, PreparedSet>,
    mayCall: CallEnvironment['mayCall'],
  ): void {
    const kept = this.listings.get(session) ?? [];
    kept.unshift({ link, sets: [...sets], consumed: new Set(), mayCall });
    // Re-inserted, so the map's order is the sessions' last activity: a client that never said goodbye
    // is forgotten first.
    this.listings.delete(session);
    this.listings.set(session, kept.slice(0, LISTINGS_PER_SESSION));
    if (this.listings.size > MAX_SESSIONS_WITH_LISTINGS)
      this.listings.delete(this.listings.keys().next().value as string);
  }

  /** The newest listing of the session that holds this call, now marked as called; undefined when none does. */
  private consumeListing(session: string, tool: string, argsKey: string): Listing | undefined {
    const listing = this.listings
      .get(session)
      ?.find((kept) => kept.link.tool === tool && kept.sets.some(([, set]) => set.argsKey === argsKey));
    listing?.consumed.add(argsKey);
    return listing;
  }

  /** The principal a stream was opened for; a stream the planner never opened is its own principal. */
  private principalOf(session: string): string {
    return this.principals.get(session) ?? session;
  }

  /** The agent's call, told to its principal's learner (the one that plans what follows it). */
  private observe(session: string, tool: string, argsKey: string): Observed | undefined {
    const learner = this.learners?.of(this.principalOf(session));
    return learner && { learner, call: learner.observeCall(session, tool, argsKey) };
  }

  private endSession(session: string): void {
    this.learners?.peek(this.principalOf(session))?.endSession(session);
    this.principals.delete(session);
    this.listings.delete(session);
    this.cache.dropSession(session);
    for (const [key, job] of this.queued) {
      if (job.session === session) this.cancelJob(key, job);
    }
  }

  private modelFor(enriched: EnrichedTool): ToolValueModel {
    return this.memoFor(enriched).model;
  }

  private memoFor(enriched: EnrichedTool): ToolMemo {
    let memo = this.memos.get(enriched);
    if (!memo) {
      const overrides = this.options.overrides ?? {};
      const model = resolveValueModel({
        annotations: enriched.tool.annotations,
        fromEnricher: this.enricherModel(enriched),
        wildcard: overrides['*'],
        named: overrides[enriched.ref.published],
      });
      // A write that does not say what it touches may touch anything of its plugin.
      const invalidates = !writes(model)
        ? []
        : model.invalidates.length > 0
          ? model.invalidates
          : this.options.pipeline.listedOf(enriched.ref.plugin);
      memo = { model, invalidates };
      this.memos.set(enriched, memo);
    }
    return memo;
  }

  /** The first model an enricher of the tool's chain gives; an enricher that throws is skipped (logged). */
  private enricherModel(enriched: EnrichedTool): ToolValueModel | undefined {
    for (const link of enriched.links) {
      if (!link.enricher.valueModel) continue;
      try {
        const model = link.enricher.valueModel(enriched.ref);
        if (model) return model;
      } catch (error) {
        this.options.logger.warn(
          { enricher: link.label, tool: enriched.ref.published, err: describeThrown(error) },
          'planner: valueModel() threw; the tool gets the default model',
        );
      }
    }
    return undefined;
  }

  /** Argument sets from the first enricher that projects this link itself, else the link's projection. */
  private projectArgs(
    from: EnrichedTool,
    raw: CallToolResult,
    link: FollowUpLink,
    prevArgs: Readonly<Record<string, unknown>>,
  ): Record<string, unknown>[] {
    for (const chainLink of from.links) {
      if (!chainLink.enricher.projectArgs) continue;
      try {
        const sets = chainLink.enricher.projectArgs(from.ref, raw, link, prevArgs);
        if (Array.isArray(sets)) return sets.slice(0, LISTING_LIMIT);
      } catch (error) {
        this.options.logger.warn(
          { enricher: chainLink.label, tool: from.ref.published, err: describeThrown(error) },
          'planner: projectArgs() threw; the link is not run ahead this time',
        );
        return [];
      }
    }
    try {
      return projectFollowUp(raw, link, LISTING_LIMIT);
    } catch (error) {
      this.options.logger.warn(
        { tool: from.ref.published, link: link.tool, err: describeThrown(error) },
        'planner: the link’s projection failed',
      );
      return [];
    }
  }

  /** False when an enricher of the tool says what the cached result read has changed since. */
  private stillFresh(prepared: PreparedCall, entry: Pick<CachedResult, 'storedAtMs' | 'costMs'>): boolean {
    const fetchedAtMs = entry.storedAtMs - (entry.costMs ?? 0);
    for (const link of prepared.enriched.links) {
      if (!link.enricher.isFresh) continue;
      try {
        if (!link.enricher.isFresh(prepared.enriched.ref, prepared.args, fetchedAtMs)) return false;
      } catch (error) {
        this.options.logger.warn(
          { enricher: link.label, err: describeThrown(error) },
          'planner: isFresh() threw; the cached result is not served',
        );
        return false;
      }
    }
    return true;
  }

  private rateLimitHost(prepared: PreparedCall): string | undefined {
    for (const link of prepared.enriched.links) {
      if (!link.enricher.rateLimitHost) continue;
      try {
        const host = link.enricher.rateLimitHost(prepared.enriched.ref, prepared.args);
        if (typeof host === 'string') return host;
      } catch (error) {
        this.options.logger.warn(
          { enricher: link.label, err: describeThrown(error) },
          'planner: rateLimitHost() threw; the global cap applies alone',
        );
      }
    }
    return undefined;
  }
}

/** True for a call that may change what other calls read: it invalidates, and is never served from the cache. */
function writes(model: ToolValueModel): boolean {
  return !mayRunAhead(model) && !isReadOnly(model);
}

/** The mutation's values of its identifying parameters, or undefined (= every entry of the tools goes). */
function matchOf(
  names: readonly string[] | undefined,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (names === undefined || names.length === 0) return undefined;
  const match: Record<string, unknown> = {};
  for (const name of names) {
    // A parameter the call leaves out says nothing about what it changes: drop every entry.
    if (!Object.hasOwn(args, name)) return undefined;
    match[name] = args[name];
  }
  return match;
}

function withPrefetchMeta(result: CallToolResult, served: Served): CallToolResult {
  return {
    ...result,
    _meta: {
      ...result._meta,
      [PREFETCH_META_KEY]: { source: served.source, age_ms: Math.max(0, Math.round(served.ageMs)) },
    },
  };
}

/** Waits for the joined call, unless the agent cancels its own call first. */
function untilCancelled<T>(promise: Promise<T>, signal: AbortSignal | undefined, tool: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(errors.cancelled(`tool "${tool}"`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(errors.cancelled(`tool "${tool}"`));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
