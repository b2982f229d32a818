// What one learner has counted (calls per tool, each edge's follow-ups and matched sets, auto-off's rings) and the
// estimates drawn from it, with what the cluster's other processes counted added in.
import { type LearnedCounts, type LearnedEdgeState, edgeKey, emptyEdge } from './learned-state.js';
import type { LearnerSettings } from './learner-settings.js';
import type { AutoOffSwitch, LearnedEdge, SetOutcomeStatus } from './learning-types.js';
import { MAX_ARGUMENT_SETS_PER_LINK } from './projection.js';

/**
 * The prior for the set at `position` of a link: `prior × 0.5^position`. The link's probability is
 * taken for its likeliest set (the first); each later set counts half as likely as the one before,
 * as an agent reads the first item of a list far more often than the third. What the agent really
 * does then moves each position's estimate away from this start.
 */
export function positionPrior(prior: number, position: number): number {
  return Math.min(1, Math.max(0, prior)) * 0.5 ** position;
}

/** A planned link as a closed lag window counts it: each set's position, what became of it, and whether it was used. */
export interface CountedLink {
  to: string;
  via: string | undefined;
  sets: readonly { position: number; status: SetOutcomeStatus; used: boolean }[];
}

interface ToolStats {
  calls: number;
  ring: boolean[];
  off: boolean;
}

export class TransitionCounts {
  private readonly tools = new Map<string, ToolStats>();
  private readonly edgeStats = new Map<string, LearnedEdgeState>();
  /**
   * What the other processes of a cluster learned for this principal (their counts only, never this learner's own):
   * added to the own counts when estimating and when shown, never saved (see `useShared`).
   */
  private others: { tools: Map<string, number>; edges: Map<string, LearnedEdgeState> } | undefined;

  constructor(
    private readonly settings: Pick<LearnerSettings, 'priorStrength' | 'autoOff'>,
    private readonly onSwitch: (change: AutoOffSwitch) => void,
    state?: LearnedCounts,
  ) {
    if (state !== undefined) this.restore(state);
  }

  /** One agent call of `tool`. */
  countCall(tool: string): void {
    this.toolStats(tool).calls += 1;
  }

  /** The agent called `to` within the lag window after `from` (once a window). */
  countFollowed(from: string, to: string): void {
    this.edge(from, to).followed += 1;
  }

  /** The follow-up graph's probability for the edge, as last planned. */
  setPrior(from: string, to: string, via: string | undefined, prior: number): void {
    this.edge(from, to, via).prior = Math.min(1, Math.max(0, prior));
  }

  /**
   * Counts a closed window's planned sets: offered and matched together, so matched never exceeds
   * offered, even in a state saved while windows are open.
   */
  countPlanned(from: string, links: readonly CountedLink[]): void {
    for (const link of links) {
      const edge = this.edge(from, link.to, link.via);
      for (const set of link.sets) {
        edge.offered[set.position] = (edge.offered[set.position] ?? 0) + 1;
        if (set.used) edge.matched[set.position] = (edge.matched[set.position] ?? 0) + 1;
        if (set.status !== 'skipped') this.remember(link.to, set.used);
      }
    }
  }

  /** See TransitionLearner.probability. */
  probability(from: string, to: string, position: number, prior: number, via?: string): number {
    const m = positionPrior(prior, position);
    const key = edgeKey(from, to, via);
    const edge = this.edgeStats.get(key);
    const other = this.others?.edges.get(key);
    const offered = (edge?.offered[position] ?? 0) + (other?.offered[position] ?? 0);
    const matched = Math.min((edge?.matched[position] ?? 0) + (other?.matched[position] ?? 0), offered);
    const k = this.settings.priorStrength;
    return (m * k + matched) / (k + offered);
  }

  /** See TransitionLearner.useShared. */
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

  /** Every learned edge, with the calls of its `from` and the learned rate. */
  edges(): LearnedEdge[] {
    const { others } = this;
    if (others !== undefined)
      return new TransitionCounts(this.settings, () => {}, this.toState(true)).edges();
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

  /** See TransitionLearner.toState. */
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
        ring: (saved.ring ?? []).slice(-this.settings.autoOff.window),
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

  /** One outcome in the target tool's auto-off ring, and the switch that may follow (with hysteresis). */
  private remember(tool: string, used: boolean): void {
    const { autoOff } = this.settings;
    const stats = this.toolStats(tool);
    stats.ring.push(used);
    if (stats.ring.length > autoOff.window) stats.ring.shift();
    if (stats.ring.length < autoOff.minSamples) return;
    const rate = useRate(stats.ring);
    const off = stats.off ? rate < autoOff.onAbove : rate < autoOff.offBelow;
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
