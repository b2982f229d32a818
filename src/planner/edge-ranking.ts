// Ranks learned edges by how far the agents' behaviour strays from the follow-up graph's priors.
import { DEFAULT_PRIOR_STRENGTH } from './learner-settings.js';
import type { LearnedEdge } from './learning-types.js';

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
