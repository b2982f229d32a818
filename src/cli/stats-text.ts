// What `foresight stats` prints: the process-wide view of the planner's state file, or one principal's part of it.
import {
  COUNTER_NAMES,
  LearnerPool,
  type LearnedState,
  type PrincipalLearnedState,
  type RankedEdge,
  TransitionLearner,
  rankEdgesByDivergence,
  zeroPrincipalCounters,
} from '../planner/index.js';

/** Edges `stats` shows: the ones whose learned rate strays furthest from the graph's prior. */
export const STATS_EDGES = 10;
/** Principals `stats` lists, the most recently seen first; `--json` lists them all. */
export const STATS_PRINCIPALS = 20;

/** One principal in the listing. */
export interface PrincipalSummary {
  principal: string;
  seenAt: string;
  /** Calls run ahead for the principal, and those its agents got from them (hits + joins). */
  dispatched: number;
  served: number;
  /** Agent calls of every tool. */
  calls: number;
  edges: number;
  switchedOff: number;
}

/** Every principal of the state, the most recently seen first. */
export function principalSummaries(state: LearnedState): PrincipalSummary[] {
  return Object.entries(state.principals)
    .map(([principal, counts]) => ({
      principal,
      seenAt: counts.seenAt,
      dispatched: counts.counters?.dispatched ?? 0,
      served: (counts.counters?.hits ?? 0) + (counts.counters?.joins ?? 0),
      calls: Object.values(counts.tools).reduce((sum, tool) => sum + tool.calls, 0),
      edges: counts.edges.length,
      switchedOff: Object.values(counts.tools).filter((tool) => tool.off === true).length,
    }))
    .sort((a, b) => b.seenAt.localeCompare(a.seenAt) || a.principal.localeCompare(b.principal));
}

/** The edges of every principal added up, furthest from their priors first. */
export function combinedEdges(state: LearnedState): RankedEdge[] {
  return rankEdgesByDivergence(new LearnerPool({}, state).combined().edges(), { limit: STATS_EDGES });
}

/** One principal's edges, furthest from their priors first: what the planner blends with the priors for it. */
export function principalEdges(counts: PrincipalLearnedState): RankedEdge[] {
  return rankEdgesByDivergence(new TransitionLearner({}, counts).edges(), { limit: STATS_EDGES });
}

const COUNTER_LABELS: Record<(typeof COUNTER_NAMES)[number], string> = {
  dispatched: 'dispatched',
  hits: 'hits',
  joins: 'joins',
  wasted: 'wasted',
  expired: 'expired',
  invalidated: 'invalidated',
  failed: 'failed',
  dropped: 'dropped',
  latencySavedMs: 'latency saved',
};

/** The whole file: the process's counters, every principal's learning added up, and the principals listed. */
export function statsText(file: string, state: LearnedState, edges: readonly RankedEdge[]): string {
  const { counters } = state;
  const lines = [`planner state: ${file} (saved ${state.savedAt})`, '', 'counters (all principals)'];
  for (const name of COUNTER_NAMES) {
    const value =
      name === 'latencySavedMs' ? `${(counters[name] / 1000).toFixed(1)} s` : String(counters[name]);
    lines.push(`  ${COUNTER_LABELS[name].padEnd(16)}${value}`);
  }
  const served = counters.hits + counters.joins;
  lines.push(
    '',
    `hit rate        ${counters.dispatched > 0 ? `${percent(served / counters.dispatched)}` : 'n/a (nothing dispatched)'}  (hits + joins) / dispatched`,
    `wasted per hit  ${served > 0 ? (counters.wasted / served).toFixed(2) : 'n/a (no hits)'}  wasted / (hits + joins)`,
    '',
  );
  const off = new LearnerPool({}, state).switchedOff();
  if (off.length === 0) lines.push('switched off: none');
  else {
    lines.push('switched off (the agent rarely used what ran ahead):');
    for (const tool of off)
      lines.push(
        `  ${tool.tool}  use rate ${percent(tool.useRate)} of the last ${tool.samples}  (${tool.principal})`,
      );
  }
  lines.push('', ...edgeLines(edges, 'learned edges, all principals added up, furthest from their priors:'));
  lines.push('', ...principalLines(principalSummaries(state)));
  return `${lines.join('\n')}\n`;
}

/** One principal's part: its calls, its switched-off tools and its own edges. */
export function principalText(file: string, principal: string, counts: PrincipalLearnedState): string {
  const calls = Object.values(counts.tools).reduce((sum, tool) => sum + tool.calls, 0);
  const counters = counts.counters ?? zeroPrincipalCounters();
  const served = counters.hits + counters.joins;
  const lines = [
    `planner state: ${file}`,
    `principal ${principal} (last seen ${counts.seenAt}): ${calls} agent calls`,
    '',
    'counters (wasted, expired, invalidated and dropped are kept for the whole process: `foresight stats`)',
    `  ${'dispatched'.padEnd(16)}${counters.dispatched}`,
    `  ${'hits'.padEnd(16)}${counters.hits}`,
    `  ${'joins'.padEnd(16)}${counters.joins}`,
    `  ${'failed'.padEnd(16)}${counters.failed}`,
    `  ${'latency saved'.padEnd(16)}${(counters.latencySavedMs / 1000).toFixed(1)} s`,
    '',
    `hit rate        ${counters.dispatched > 0 ? percent(served / counters.dispatched) : 'n/a (nothing dispatched)'}  (hits + joins) / dispatched`,
    '',
  ];
  const off = new TransitionLearner({}, counts).switchedOff();
  if (off.length === 0) lines.push('switched off: none');
  else {
    lines.push('switched off (this principal rarely used what ran ahead):');
    for (const tool of off)
      lines.push(`  ${tool.tool}  use rate ${percent(tool.useRate)} of the last ${tool.samples}`);
  }
  lines.push('', ...edgeLines(principalEdges(counts), 'learned edges furthest from their priors:'));
  return `${lines.join('\n')}\n`;
}

function edgeLines(edges: readonly RankedEdge[], title: string): string[] {
  if (edges.length === 0) return ['learned edges: none yet'];
  const names = edges.map((edge) => `${edge.from} → ${edge.to}${edge.via ? ` (${edge.via})` : ''}`);
  const width = Math.max(...names.map((name) => name.length), 'from → to'.length);
  return [
    title,
    `  ${'from → to'.padEnd(width)}  prior  learned  calls`,
    ...edges.map(
      (edge, i) =>
        `  ${(names[i] ?? '').padEnd(width)}  ${edge.prior.toFixed(2).padStart(5)}  ${edge.learned.toFixed(2).padStart(7)}  ${String(edge.calls).padStart(5)}`,
    ),
  ];
}

function principalLines(summaries: readonly PrincipalSummary[]): string[] {
  if (summaries.length === 0) return ['principals: none yet'];
  const shown = summaries.slice(0, STATS_PRINCIPALS);
  const width = Math.max(...shown.map((summary) => summary.principal.length));
  const lines = [
    `principals (${summaries.length}, the most recently seen first; foresight stats --principal <p> shows one):`,
    ...shown.map(
      (s) =>
        `  ${s.principal.padEnd(width)}  seen ${s.seenAt}  calls ${s.calls}  run ahead ${s.dispatched}  served ${s.served}  edges ${s.edges}  switched off ${s.switchedOff}`,
    ),
  ];
  if (summaries.length > shown.length)
    lines.push(`  … and ${summaries.length - shown.length} more (foresight stats --json lists them all)`);
  return lines;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
