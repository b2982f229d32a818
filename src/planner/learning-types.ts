// The transition learner's boundary: what the planner reports after a call, the learner's options, a learned edge.
import type { LearnedEdgeState } from './learned-state.js';

/**
 * What became of one planned argument set. `dispatched`: run ahead. `suppressed`: would have run, but
 * auto-off has speculation for the target tool switched off. `skipped`: projected but not run (below
 * the floor, over the budget, the caps); learned from, but not part of auto-off.
 */
export type SetOutcomeStatus = 'dispatched' | 'suppressed' | 'skipped';

export interface PlannedSet {
  /** Canonical JSON of the set's arguments: equal strings are the same call. */
  argsKey: string;
  status: SetOutcomeStatus;
}

/** A follow-up link as planned after one call: its target, the graph's probability, its sets in position order. */
export interface PlannedLink {
  /** Published name of the target tool. */
  to: string;
  /** The link's probability in the follow-up graph (0–1). */
  prior: number;
  /**
   * Which of several links to the same tool this is (the planner's `listing`: the next items of a list
   * the agent works through), learned as an edge of its own. Undefined for a value model's link.
   */
  via?: string;
  /** Positions 0, 1, 2; sets beyond MAX_ARGUMENT_SETS_PER_LINK are ignored. */
  sets: readonly PlannedSet[];
}

/** Handle for one observed agent call, to attach what was planned after it. */
export interface CallObservation {
  readonly session: string;
  readonly tool: string;
}

export interface AutoOffOptions {
  /** Outcomes remembered per target tool. Default 20. */
  window?: number;
  /** Outcomes needed before the tool can switch either way. Default 10. */
  minSamples?: number;
  /** Switch off when the use rate falls below this. Default 0.1. */
  offBelow?: number;
  /** Switch back on when the use rate reaches this (above offBelow, so a tool does not flap). Default 0.25. */
  onAbove?: number;
}

/** A target tool whose speculation auto-off switched off or on; for the caller to log. */
export interface AutoOffSwitch {
  tool: string;
  off: boolean;
  /** Share of the remembered outcomes the agent used. */
  useRate: number;
  samples: number;
}

export interface LearnerOptions {
  /** Pseudo-observations the prior is worth (the Beta prior's α + β). Default 8. */
  priorStrength?: number;
  /** Later agent calls of the same session that may still use a follow-up. Default 3 (the corpus counts lags 1–3). */
  lagWindow?: number;
  autoOff?: AutoOffOptions;
  /** Open windows kept per session; the oldest is closed first. Default 64. */
  maxOpenWindowsPerSession?: number;
  /** Sessions with open windows kept; the least recently active is ended first (a client that never said goodbye). Default 1024. */
  maxSessions?: number;
  /** Told when auto-off switches a tool, after the learner has updated. Default: nothing. */
  onSwitch?(change: AutoOffSwitch): void;
  /** Told of each agent call observed (to relay it to the other processes of a cluster). Default: nothing. */
  onCall?(session: string, tool: string, argsKey: string): void;
}

/** A learned edge for display. */
export interface LearnedEdge extends LearnedEdgeState {
  /** Agent calls of `from`. */
  calls: number;
  /** followed / calls: how often the agent called `to` within the lag window after `from`; 0 with no calls. */
  learned: number;
}
