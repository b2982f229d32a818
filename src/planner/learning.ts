// Learns what one principal's agents really call after each tool, per session, and blends it with the graph's priors.
import type { LearnedCounts } from './learned-state.js';
import { type LearnerSettings, learnerSettings } from './learner-settings.js';
import type {
  CallObservation,
  LearnedEdge,
  LearnerOptions,
  PlannedLink,
  PlannedSet,
} from './learning-types.js';
import { MAX_ARGUMENT_SETS_PER_LINK } from './projection.js';
import { TransitionCounts } from './transition-counts.js';

export type * from './learning-types.js';
export { DEFAULT_AUTO_OFF, DEFAULT_LAG_WINDOW, DEFAULT_PRIOR_STRENGTH } from './learner-settings.js';
export { positionPrior } from './transition-counts.js';
export { type RankedEdge, rankEdgesByDivergence } from './edge-ranking.js';

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

export class TransitionLearner {
  private readonly settings: LearnerSettings;
  private readonly onCall: LearnerOptions['onCall'];
  /** What the closed windows counted, and the estimates drawn from it. */
  private readonly counts: TransitionCounts;
  private readonly sessions = new Map<string, SessionWindows>();
  /** Counts observed calls: a session's `lastActive` is the count at its latest call. */
  private activity = 0;

  constructor(options: LearnerOptions = {}, state?: LearnedCounts) {
    this.settings = learnerSettings(options);
    this.onCall = options.onCall;
    this.counts = new TransitionCounts(this.settings, options.onSwitch ?? (() => {}), state);
  }

  /** The agent called `tool` with `argsKey` in `session`: counts it, feeds the session's open windows, opens one for it. */
  observeCall(session: string, tool: string, argsKey: string): CallObservation {
    this.counts.countCall(tool);
    let windows = this.sessions.get(session);
    if (windows === undefined) {
      windows = { open: [], lastActive: 0 };
      this.sessions.set(session, windows);
      if (this.sessions.size > this.settings.maxSessions) this.endLeastActive(session);
    }
    this.activity += 1;
    windows.lastActive = this.activity;
    const { open } = windows;
    for (const window of open) this.record(window, tool, argsKey);
    // Windows open in call order, so those that have seen their whole lag window are at the front.
    while (open[0] !== undefined && open[0].later.length >= this.settings.lagWindow)
      this.close(open.shift()!);
    const window: Window = {
      session,
      tool,
      later: [],
      followedTools: [],
      planned: undefined,
      closed: false,
    };
    open.push(window);
    if (open.length > this.settings.maxOpenWindows) this.close(open.shift()!);
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
    while (open[0] !== undefined && open[0].later.length >= this.settings.lagWindow)
      this.close(open.shift()!);
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
    for (const link of links) this.counts.setPrior(window.tool, link.to, link.via, link.prior);
    for (const call of window.later) this.markUsed(window, call.tool, call.argsKey);
    if (window.closed) this.counts.countPlanned(window.tool, window.planned);
  }

  /**
   * Posterior mean that the agent calls `to` with the set at `position` within the lag window after
   * `from`: (α + matched) / (α + β + offered), with α = m·k, β = (1 − m)·k, m = positionPrior(prior,
   * position), k = priorStrength. With nothing offered yet it is m itself.
   */
  probability(from: string, to: string, position: number, prior: number, via?: string): number {
    return this.counts.probability(from, to, position, prior, via);
  }

  /**
   * Replaces what the other processes of a cluster counted for this principal (the shared totals minus what this
   * learner contributed to them). Estimates and `edges()` add it to the own counts; `toState()` leaves it out, as
   * the state file holds what this process learned; `toState(true)` puts it in (for what is shown).
   */
  useShared(others: LearnedCounts): void {
    this.counts.useShared(others);
  }

  /** False while auto-off has speculation for this target tool switched off. */
  speculationAllowed(tool: string): boolean {
    return this.counts.speculationAllowed(tool);
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
    return this.counts.edges();
  }

  /** Target tools switched off right now, with their remembered use rate. */
  switchedOff(): { tool: string; useRate: number; samples: number }[] {
    return this.counts.switchedOff();
  }

  /**
   * Everything learned, as plain JSON. Open windows are not in it (they are counted when they close). With
   * `withShared`, the other processes' counts (see `useShared`) are added in.
   */
  toState(withShared = false): LearnedCounts {
    return this.counts.toState(withShared);
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
      this.counts.countFollowed(window.tool, tool);
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
    if (window.planned !== undefined) this.counts.countPlanned(window.tool, window.planned);
  }
}
