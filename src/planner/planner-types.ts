// The planner's public shapes: its options, the session view it gives, its snapshot, and the reports it makes.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { PlannerConfig, ToolOverride } from '../config/index.js';
import type { Logger, McpTool } from '../contract/index.js';
import type { ToolPipeline } from '../enrich/index.js';
import type { CallEnvironment, ToolCallOptions } from '../host/index.js';
import type { PlannerCounters } from './counters.js';
import type { PrincipalCounters } from './learned-state.js';
import type { RankedEdge } from './learning.js';
import type { LearnerPool, PrincipalSwitchedOff } from './learner-pool.js';
import type { SharedSlots } from './shared-slots.js';
import type { SharedSpeculation } from './shared-speculation.js';

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
