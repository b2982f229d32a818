// Learns what one principal's agents really call after each tool, per session, and blends it with the graph's priors.
import { type LearnedCounts, type LearnedEdgeState, edgeKey, emptyEdge } from './learned-state.js';
import { MAX_ARGUMENT_SETS_PER_LINK } from './projection.js';

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

export const DEFAULT_PRIOR_STRENGTH = 8;
export const DEFAULT_LAG_WINDOW = 3;
export const DEFAULT_AUTO_OFF: Readonly<Required<AutoOffOptions>> = {
  window: 20,
  minSamples: 10,
  offBelow: 0.1,
  onAbove: 0.25,
};

/**
 * The prior for the set at `position` of a link: `prior × 0.5^position`. The link's probability is
 * taken for its likeliest set (the first); each later set counts half as likely as the one before,
 * as an agent reads the first item of a list far more often than the third. What the agent really
 * does then moves each position's estimate away from this start.
 */
export function positionPrior(prior: number, position: number): number {
  return Math.min(1, Math.max(0, prior)) * 0.5 ** position;
}

interface ToolStats {
  calls: number;
  ring: boolean[];
  off: boolean;
}

interface OpenSet extends PlannedSet {
  position: number;
  used: boolean;
}

/** One call's lag window: the agent calls that follow it, and what was planned after it. */
interface Window extends CallObservation {
  later: { tool: string; argsKey: string }[];
  /** Target tools already counted in `followed` for this window (at most lagWindow: an array beats a Set). */
  followedTools: string[];
  planned: { to: string; via: string | undefined; sets: OpenSet[] }[] | undefined;
  closed: boolean;
}

/** A session's open windows, oldest first. */
interface SessionWindows {
  open: Window[];
  /** The learner's call count at this session's latest call: the least active session is ended first. */
  lastActive: number;
}

function positiveInt(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function share(value: number, name: string): number {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be from 0 to 1, got ${value}`);
  return value;
}

export class TransitionLearner {
  private readonly priorStrength: number;
  private readonly lagWindow: number;
  private readonly autoOff: Readonly<Required<AutoOffOptions>>;
  private readonly maxOpenWindows: number;
  private readonly maxSessions: number;
  private readonly onSwitch: (change: AutoOffSwitch) => void;
  private readonly onCall: LearnerOptions['onCall'];
  private readonly tools = new Map<string, ToolStats>();
  private readonly edgeStats = new Map<string, LearnedEdgeState>();
  private readonly sessions = new Map<string, SessionWindows>();
  /**
   * What the other processes of a cluster learned for this principal (their counts only, never this learner's own):
   * added to the own counts when estimating and when shown, never saved (see `useShared`).
   */
  private others: { tools: Map<string, number>; edges: Map<string, LearnedEdgeState> } | undefined;
  /** Counts observed calls: a session's `lastActive` is the count at its latest call. */
  private activity = 0;

  constructor(options: LearnerOptions = {}, state?: LearnedCounts) {
    this.priorStrength = options.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
    if (!(this.priorStrength > 0 && Number.isFinite(this.priorStrength)))
      throw new RangeError(`priorStrength must be a positive number, got ${this.priorStrength}`);
    this.lagWindow = positiveInt(options.lagWindow ?? DEFAULT_LAG_WINDOW, 'lagWindow');
    const autoOff = { ...DEFAULT_AUTO_OFF, ...options.autoOff };
    positiveInt(autoOff.window, 'autoOff.window');
    positiveInt(autoOff.minSamples, 'autoOff.minSamples');
    if (autoOff.minSamples > autoOff.window)
      throw new RangeError(
        `autoOff.minSamples (${autoOff.minSamples}) exceeds autoOff.window (${autoOff.window})`,
      );
    if (share(autoOff.offBelow, 'autoOff.offBelow') > share(autoOff.onAbove, 'autoOff.onAbove'))
      throw new RangeError(
        `autoOff.offBelow (${autoOff.offBelow}) exceeds autoOff.onAbove (${autoOff.onAbove})`,
      );
    this.autoOff = autoOff;
    this.maxOpenWindows = positiveInt(options.maxOpenWindowsPerSession ?? 64, 'maxOpenWindowsPerSession');
    this.maxSessions = positiveInt(options.maxSessions ?? 1024, 'maxSessions');
    this.onSwitch = options.onSwitch ?? (() => {});
    this.onCall = options.onCall;
    if (state !== undefined) this.restore(state);
  }

  /** The agent called `tool` with `argsKey` in `session`: counts it, feeds the session's open windows, opens one for it. */
  observeCall(session: string, tool: string, argsKey: string): CallObservation {
    this.toolStats(tool).calls += 1;
    let windows = this.sessions.get(session);
    if (windows === undefined) {
      windows = { open: [], lastActive: 0 };
      this.sessions.set(session, windows);
      if (this.sessions.size > this.maxSessions) this.endLeastActive(session);
    }
    this.activity += 1;
    windows.lastActive = this.activity;
    const { open } = windows;
    for (const window of open) this.record(window, tool, argsKey);
    // Windows open in call order, so those that have seen their whole lag window are at the front.
    while (open[0] !== undefined && open[0].later.length >= this.lagWindow) this.close(open.shift()!);
    const window: Window = {
      session,
      tool,
      later: [],
      followedTools: [],
      planned: undefined,
      closed: false,
    };
    open.push(window);
    if (open.length > this.maxOpenWindows) this.close(open.shift()!);
    this.onCall?.(session, tool, argsKey);
    return window;
  }

  /**
   * The agent called `tool` in `session` on another process of a cluster (a stream's calls may land on any): the
   * session's open windows here see it as a later call, so what this process planned is matched whatever process
   * the follow-up reached. It is not counted as a call here (its own process counts it) and opens no window.
   */
  observeElsewhere(session: string, tool: string, argsKey: string): void {
    const open = this.sessions.get(session)?.open;
    if (open === undefined) return;
    for (const window of open) this.record(window, tool, argsKey);
    while (open[0] !== undefined && open[0].later.length >= this.lagWindow) this.close(open.shift()!);
  }

  /**
   * The follow-ups projected after the observed call, all of them, run or not. Calls observed since
   * are matched now; if the window has already closed, it is accounted at once. Only the first report
   * per observation counts.
   */
  observePlanned(observation: CallObservation, links: readonly PlannedLink[]): void {
    // The handle is the window itself (one object a call, on the hot path), typed as its public part.
    const window = observation as Window;
    // Not one of this learner's windows, or already reported.
    if (!Array.isArray(window.later) || window.planned !== undefined) return;
    window.planned = links.map((link) => ({
      to: link.to,
      via: link.via,
      sets: link.sets
        .slice(0, MAX_ARGUMENT_SETS_PER_LINK)
        .map((set, position) => ({ argsKey: set.argsKey, status: set.status, position, used: false })),
    }));
    for (const link of links)
      this.edge(window.tool, link.to, link.via).prior = Math.min(1, Math.max(0, link.prior));
    for (const call of window.later) this.markUsed(window, call.tool, call.argsKey);
    if (window.closed) this.account(window);
  }

  /**
   * Posterior mean that the agent calls `to` with the set at `position` within the lag window after
   * `from`: (α + matched) / (α + β + offered), with α = m·k, β = (1 − m)·k, m = positionPrior(prior,
   * position), k = priorStrength. With nothing offered yet it is m itself.
   */
  probability(from: string, to: string, position: number, prior: number, via?: string): number {
    const m = positionPrior(prior, position);
    const key = edgeKey(from, to, via);
    const edge = this.edgeStats.get(key);
    const other = this.others?.edges.get(key);
    const offered = (edge?.offered[position] ?? 0) + (other?.offered[position] ?? 0);
    const matched = Math.min((edge?.matched[position] ?? 0) + (other?.matched[position] ?? 0), offered);
    return (m * this.priorStrength + matched) / (this.priorStrength + offered);
  }

  /**
   * Replaces what the other processes of a cluster counted for this principal (the shared totals minus what this
   * learner contributed to them). Estimates and `edges()` add it to the own counts; `toState()` leaves it out, as
   * the state file holds what this process learned; `toState(true)` puts it in (for what is shown).
   */
  useShared(others: LearnedCounts): void {
    this.others = {
      tools: new Map(Object.entries(others.tools).map(([tool, state]) => [tool, state.calls])),
      edges: new Map(others.edges.map((edge) => [edgeKey(edge.from, edge.to, edge.via), copyEdge(edge)])),
    };
  }

  /** False while auto-off has speculation for this target tool switched off. */
  speculationAllowed(tool: string): boolean {
    return this.tools.get(tool)?.off !== true;
  }

  /** Closes the session's open windows, counting their outcomes, and forgets the session. */
  endSession(session: string): void {
    const windows = this.sessions.get(session);
    this.sessions.delete(session);
    for (const window of windows?.open ?? []) this.close(window);
  }

  /** Open windows of a session (for tests and diagnostics). */
  openWindows(session: string): number {
    return this.sessions.get(session)?.open.length ?? 0;
  }

  /** Every learned edge, with the calls of its `from` and the learned rate. */
  edges(): LearnedEdge[] {
    const { others } = this;
    if (others !== undefined)
      return new TransitionLearner({ priorStrength: this.priorStrength }, this.toState(true)).edges();
    return [...this.edgeStats.values()].map((edge) => {
      // A planner-made link (`via`) is followed only where it was planned: its rate is its first set's.
      if (edge.via !== undefined) {
        const offered = edge.offered[0] ?? 0;
        return {
          ...copyEdge(edge),
          calls: offered,
          learned: offered > 0 ? (edge.matched[0] ?? 0) / offered : 0,
        };
      }
      const calls = this.tools.get(edge.from)?.calls ?? 0;
      return { ...copyEdge(edge), calls, learned: calls > 0 ? edge.followed / calls : 0 };
    });
  }

  /** Target tools switched off right now, with their remembered use rate. */
  switchedOff(): { tool: string; useRate: number; samples: number }[] {
    return [...this.tools]
      .filter(([, stats]) => stats.off)
      .map(([tool, stats]) => ({ tool, useRate: useRate(stats.ring), samples: stats.ring.length }));
  }

  /**
   * Everything learned, as plain JSON. Open windows are not in it (they are counted when they close). With
   * `withShared`, the other processes' counts (see `useShared`) are added in.
   */
  toState(withShared = false): LearnedCounts {
    const tools: LearnedCounts['tools'] = {};
    for (const [tool, stats] of this.tools)
      tools[tool] = {
        calls: stats.calls,
        ...(stats.ring.length > 0 ? { ring: [...stats.ring] } : {}),
        ...(stats.off ? { off: true } : {}),
      };
    const edges = new Map([...this.edgeStats].map(([key, edge]) => [key, copyEdge(edge)]));
    const { others } = this;
    if (withShared && others !== undefined) {
      for (const [tool, calls] of others.tools)
        tools[tool] = { ...tools[tool], calls: (tools[tool]?.calls ?? 0) + calls };
      for (const [key, other] of others.edges) {
        const edge = edges.get(key);
        if (edge === undefined) edges.set(key, copyEdge(other));
        else {
          edge.followed += other.followed;
          other.offered.forEach((n, i) => (edge.offered[i] = (edge.offered[i] ?? 0) + n));
          other.matched.forEach((n, i) => (edge.matched[i] = (edge.matched[i] ?? 0) + n));
          // This process plans with its own graph: its prior for the edge wins when it has one.
          if (edge.prior === 0) edge.prior = other.prior;
        }
      }
    }
    return { tools, edges: [...edges.values()] };
  }

  private restore(state: LearnedCounts): void {
    for (const [tool, saved] of Object.entries(state.tools))
      this.tools.set(tool, {
        calls: saved.calls,
        ring: (saved.ring ?? []).slice(-this.autoOff.window),
        off: saved.off === true,
      });
    for (const saved of state.edges) {
      const edge = this.edge(saved.from, saved.to, saved.via);
      edge.prior = saved.prior;
      edge.followed = saved.followed;
      for (let position = 0; position < MAX_ARGUMENT_SETS_PER_LINK; position += 1) {
        edge.offered[position] = saved.offered[position] ?? 0;
        // A file edited by hand must not give a rate above 1.
        edge.matched[position] = Math.min(saved.matched[position] ?? 0, edge.offered[position] ?? 0);
      }
    }
  }

  /** Ends the session least recently active, other than `keep` (a client that never said goodbye). */
  private endLeastActive(keep: string): void {
    let oldest: string | undefined;
    let oldestActive = Infinity;
    for (const [session, windows] of this.sessions) {
      if (session !== keep && windows.lastActive < oldestActive) {
        oldest = session;
        oldestActive = windows.lastActive;
      }
    }
    if (oldest !== undefined) this.endSession(oldest);
  }

  /** One later agent call inside `window`. */
  private record(window: Window, tool: string, argsKey: string): void {
    window.later.push({ tool, argsKey });
    if (!window.followedTools.includes(tool)) {
      window.followedTools.push(tool);
      this.edge(window.tool, tool).followed += 1;
    }
    this.markUsed(window, tool, argsKey);
  }

  private markUsed(window: Window, tool: string, argsKey: string): void {
    for (const link of window.planned ?? []) {
      if (link.to !== tool) continue;
      for (const set of link.sets) if (set.argsKey === argsKey) set.used = true;
    }
  }

  private close(window: Window): void {
    window.closed = true;
    if (window.planned !== undefined) this.account(window);
  }

  /**
   * Counts a closed window's planned sets: offered and matched together, so matched never exceeds
   * offered, even in a state saved while windows are open.
   */
  private account(window: Window): void {
    for (const link of window.planned ?? []) {
      const edge = this.edge(window.tool, link.to, link.via);
      for (const set of link.sets) {
        edge.offered[set.position] = (edge.offered[set.position] ?? 0) + 1;
        if (set.used) edge.matched[set.position] = (edge.matched[set.position] ?? 0) + 1;
        if (set.status !== 'skipped') this.remember(link.to, set.used);
      }
    }
  }

  /** One outcome in the target tool's auto-off ring, and the switch that may follow (with hysteresis). */
  private remember(tool: string, used: boolean): void {
    const stats = this.toolStats(tool);
    stats.ring.push(used);
    if (stats.ring.length > this.autoOff.window) stats.ring.shift();
    if (stats.ring.length < this.autoOff.minSamples) return;
    const rate = useRate(stats.ring);
    const off = stats.off ? rate < this.autoOff.onAbove : rate < this.autoOff.offBelow;
    if (off === stats.off) return;
    stats.off = off;
    this.onSwitch({ tool, off, useRate: rate, samples: stats.ring.length });
  }

  private toolStats(tool: string): ToolStats {
    let stats = this.tools.get(tool);
    if (stats === undefined) {
      stats = { calls: 0, ring: [], off: false };
      this.tools.set(tool, stats);
    }
    return stats;
  }

  private edge(from: string, to: string, via?: string): LearnedEdgeState {
    const key = edgeKey(from, to, via);
    let edge = this.edgeStats.get(key);
    if (edge === undefined) {
      edge = emptyEdge(from, to, via);
      this.edgeStats.set(key, edge);
    }
    return edge;
  }
}

function copyEdge(edge: LearnedEdgeState): LearnedEdgeState {
  return { ...edge, offered: [...edge.offered], matched: [...edge.matched] };
}

function useRate(ring: readonly boolean[]): number {
  return ring.length === 0 ? 0 : ring.filter(Boolean).length / ring.length;
}

/** A learned edge with how far it strays from its prior, weighted by how much evidence there is. */
export interface RankedEdge extends LearnedEdge {
  /** |learned − prior| × calls / (calls + priorStrength). */
  divergence: number;
}

/**
 * The edges that differ most from their priors, first: |learned − prior| weighted by the confidence
 * calls / (calls + priorStrength), so a rate seen over 3 calls does not outrank one seen over 300.
 */
export function rankEdgesByDivergence(
  edges: readonly LearnedEdge[],
  options: { limit?: number; priorStrength?: number } = {},
): RankedEdge[] {
  const k = options.priorStrength ?? DEFAULT_PRIOR_STRENGTH;
  return edges
    .map((edge) => ({
      ...edge,
      divergence: (Math.abs(edge.learned - edge.prior) * edge.calls) / (edge.calls + k),
    }))
    .sort(
      (a, b) =>
        b.divergence - a.divergence ||
        b.calls - a.calls ||
        a.from.localeCompare(b.from) ||
        a.to.localeCompare(b.to),
    )
    .slice(0, options.limit ?? 10);
}
