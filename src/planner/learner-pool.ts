// One learner per principal: a principal's calls move only its own estimates, each blended with the shared prior.
import { zeroCounters } from './counters.js';
import {
  DEFAULT_MAX_PRINCIPALS,
  type LearnedCounts,
  type LearnedEdgeState,
  type LearnedState,
  type PrincipalCounters,
  type PrincipalLearnedState,
  edgeKey,
  zeroPrincipalCounters,
} from './learned-state.js';
import { type AutoOffSwitch, type LearnerOptions, TransitionLearner } from './learning.js';

export interface LearnerPoolOptions extends Omit<LearnerOptions, 'onSwitch' | 'onCall'> {
  /**
   * Principals kept (learners in memory and entries loaded from the file together); one more forgets the least
   * recently seen, with what it learned since the last save. Default DEFAULT_MAX_PRINCIPALS (1,000).
   */
  maxPrincipals?: number;
  /** Told when auto-off switches a tool for one principal. Default: nothing. */
  onSwitch?(change: AutoOffSwitch & { principal: string }): void;
  /** Clock for `seenAt` and `savedAt`, in epoch ms. Default `Date.now`. */
  now?: () => number;
  /**
   * Told of each principal's learner as it is built, before it learns anything (what it holds then came from the
   * state file): shared learning counts its contributions from there. Default: nothing.
   */
  onBuild?(principal: string, learner: TransitionLearner): void;
  /** Told of each agent call a principal's learner observes (to relay it across a cluster). Default: nothing. */
  onCall?(principal: string, session: string, tool: string, argsKey: string): void;
}

interface Live {
  learner: TransitionLearner;
  seenAtMs: number;
  /** Counted since this learner was built (the file holds what came before). */
  counters: PrincipalCounters;
  /** Undefined for a learner built from the loaded state: the store's base holds those counts. */
  instance: number | undefined;
}

/** A tool auto-off has switched off for one principal. */
export interface PrincipalSwitchedOff {
  principal: string;
  tool: string;
  useRate: number;
  samples: number;
}

export class LearnerPool {
  private readonly options: LearnerPoolOptions;
  private readonly maxPrincipals: number;
  private readonly now: () => number;
  /** Principals in use, least recently seen first (a Map keeps insertion order; a touch re-inserts). */
  private readonly live = new Map<string, Live>();
  /** Principals loaded from the file whose learner is not built yet. */
  private readonly dormant = new Map<string, PrincipalLearnedState>();
  private instances = 0;
  /** The principal last moved to the end of `live`, while it is still there. */
  private newest: string | undefined;

  constructor(options: LearnerPoolOptions = {}, state?: LearnedState) {
    this.options = options;
    this.maxPrincipals = options.maxPrincipals ?? DEFAULT_MAX_PRINCIPALS;
    if (!Number.isInteger(this.maxPrincipals) || this.maxPrincipals < 1)
      throw new RangeError(`maxPrincipals must be a positive integer, got ${this.maxPrincipals}`);
    this.now = options.now ?? Date.now;
    // Validates the learner options once, before any principal needs them.
    this.build(undefined, 'local');
    const loaded = Object.entries(state?.principals ?? {}).sort(([, a], [, b]) =>
      a.seenAt < b.seenAt ? 1 : a.seenAt > b.seenAt ? -1 : 0,
    );
    for (const [principal, saved] of loaded.slice(0, this.maxPrincipals)) this.dormant.set(principal, saved);
  }

  /** The learner of `principal` (built on first use, from what was saved for it), marked as seen now. */
  of(principal: string): TransitionLearner {
    const found = this.live.get(principal);
    if (found !== undefined) {
      found.seenAtMs = this.now();
      // The newest at the end: the first entry is always the least recently seen. Most calls come from the
      // principal seen last, already there (re-inserting on every call made a Map that churns).
      if (this.newest !== principal) {
        this.live.delete(principal);
        this.live.set(principal, found);
        this.newest = principal;
      }
      return found.learner;
    }
    const saved = this.dormant.get(principal);
    this.dormant.delete(principal);
    const entry: Live = {
      learner: this.build(saved, principal),
      seenAtMs: this.now(),
      counters: zeroPrincipalCounters(),
      instance: saved === undefined ? ++this.instances : undefined,
    };
    this.live.set(principal, entry);
    this.newest = principal;
    this.forgetBeyondCap();
    this.options.onBuild?.(principal, entry.learner);
    return entry.learner;
  }

  /**
   * Adds to one of the principal's counters. A principal with no learner in memory (forgotten since its call)
   * is not counted: counters follow learning, which is what keeps them bounded.
   */
  count(principal: string, name: keyof PrincipalCounters, amount = 1): void {
    const entry = this.live.get(principal);
    if (entry !== undefined) entry.counters[name] += amount;
  }

  /** The learner of `principal` if it has one in memory; builds nothing and does not mark it seen. */
  peek(principal: string): TransitionLearner | undefined {
    return this.live.get(principal)?.learner;
  }

  /** Every principal known, learners in memory and saved entries alike. */
  principals(): string[] {
    return [...this.live.keys(), ...this.dormant.keys()];
  }

  /**
   * One principal's counts, or undefined for a principal the pool does not know. Its counters are those counted
   * since its learner was built (the state file adds the earlier ones up).
   */
  countsOf(principal: string): PrincipalLearnedState | undefined {
    const entry = this.live.get(principal);
    if (entry !== undefined)
      return {
        seenAt: new Date(entry.seenAtMs).toISOString(),
        counters: { ...entry.counters },
        // What the other processes of a cluster learned for the principal too: this is what is shown.
        ...entry.learner.toState(true),
      };
    return this.dormant.get(principal);
  }

  /** Everything learned, per principal, as the state file holds it; the counters are the store's business. */
  toState(): LearnedState {
    const principals: Record<string, PrincipalLearnedState> = {};
    // A saved principal's counters are in the file already: this process has counted none for it yet.
    for (const [principal, saved] of this.dormant)
      principals[principal] = { ...saved, counters: zeroPrincipalCounters() };
    for (const [principal, entry] of this.live)
      principals[principal] = {
        seenAt: new Date(entry.seenAtMs).toISOString(),
        counters: { ...entry.counters },
        ...entry.learner.toState(),
        ...(entry.instance === undefined ? {} : { instance: entry.instance }),
      };
    return {
      version: 2,
      savedAt: new Date(this.now()).toISOString(),
      counters: zeroCounters(),
      principals,
    };
  }

  /** Tools auto-off has switched off, per principal. */
  switchedOff(): PrincipalSwitchedOff[] {
    const live = [...this.live].flatMap(([principal, entry]) =>
      entry.learner.switchedOff().map((off) => ({ principal, ...off })),
    );
    // Read straight from the saved flags: building a learner per saved principal for a stats read costs too much.
    const saved = [...this.dormant].flatMap(([principal, counts]) =>
      Object.entries(counts.tools)
        .filter(([, tool]) => tool.off === true)
        .map(([tool, { ring = [] }]) => ({
          principal,
          tool,
          useRate: ring.length === 0 ? 0 : ring.filter(Boolean).length / ring.length,
          samples: ring.length,
        })),
    );
    return [...live, ...saved];
  }

  /** A learner holding every principal's counts added up: the process-wide view (for stats, never for planning). */
  combined(): TransitionLearner {
    return new TransitionLearner(
      { priorStrength: this.options.priorStrength },
      combineCounts(this.principals().map((principal) => this.countsOf(principal)!)),
    );
  }

  private build(saved: LearnedCounts | undefined, principal: string): TransitionLearner {
    const { onSwitch, onCall } = this.options;
    return new TransitionLearner(
      {
        ...this.options,
        onSwitch: onSwitch && ((change) => onSwitch({ ...change, principal })),
        onCall: onCall && ((session, tool, argsKey) => onCall(principal, session, tool, argsKey)),
      },
      saved,
    );
  }

  private forgetBeyondCap(): void {
    while (this.live.size + this.dormant.size > this.maxPrincipals) {
      // Saved entries not used since the start are older than any principal seen since.
      const oldestSaved = [...this.dormant].reduce<[string, PrincipalLearnedState] | undefined>(
        (oldest, entry) => (oldest === undefined || entry[1].seenAt < oldest[1].seenAt ? entry : oldest),
        undefined,
      );
      if (oldestSaved !== undefined) {
        this.dormant.delete(oldestSaved[0]);
        continue;
      }
      const [leastRecent] = this.live.keys();
      if (leastRecent === undefined) return;
      this.live.delete(leastRecent);
      if (leastRecent === this.newest) this.newest = undefined;
    }
  }
}

/** Several learners' counts added up: calls, followed, offered and matched summed; a prior, the highest seen. */
export function combineCounts(all: readonly LearnedCounts[]): LearnedCounts {
  const tools: LearnedCounts['tools'] = {};
  const edges = new Map<string, LearnedEdgeState>();
  for (const counts of all) {
    for (const [tool, saved] of Object.entries(counts.tools))
      tools[tool] = { calls: (tools[tool]?.calls ?? 0) + saved.calls };
    for (const edge of counts.edges) {
      const key = edgeKey(edge.from, edge.to, edge.via);
      const sum = edges.get(key);
      if (sum === undefined) {
        edges.set(key, { ...edge, offered: [...edge.offered], matched: [...edge.matched] });
        continue;
      }
      sum.prior = Math.max(sum.prior, edge.prior);
      sum.followed += edge.followed;
      edge.offered.forEach((n, i) => (sum.offered[i] = (sum.offered[i] ?? 0) + n));
      edge.matched.forEach((n, i) => (sum.matched[i] = (sum.matched[i] ?? 0) + n));
    }
  }
  return { tools, edges: [...edges.values()] };
}
