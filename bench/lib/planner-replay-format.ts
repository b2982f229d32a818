// The planner replay's printed report: per variant one table with a row per era and mode, its targets per era,
// and the eras side by side across variants.
import type { ChoiceRule } from './planner-replay-agent.js';
import type { PlannerReplayReport, VariantReport } from './planner-replay-report.js';
import { table } from './report.js';

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const verdict = (pass: boolean | undefined) => (pass === undefined ? 'n/a' : pass ? 'PASS' : 'FAIL');
const signed = (value: number, digits: number) => `${value >= 0 ? '+' : ''}${fixed(value, digits)}`;
const shortTool = (tool: string) => tool.replace(/^[a-z]+__/, '');

const MODE_HEADER = [
  'era',
  'mode',
  'calls',
  'wait s',
  'p50 ms',
  'p95 ms',
  'hits+joins',
  'dispatched',
  'wasted',
  'wasted/hit',
  'wasted/call',
  'invalidated',
  'upstream req',
  'writes',
  'stale/reads',
];

/** One row per mode; a `*` marks a figure seen by the client or the plugins because the counters were not readable. */
function modeRows(variant: VariantReport): string[][] {
  return [variant.off, variant.on].map((m) => [
    variant.era,
    m.mode,
    String(m.agentCalls),
    fixed(m.totalWaitMs / 1000, 2),
    fixed(m.perCallMs.p50, 1),
    fixed(m.perCallMs.p95, 1),
    m.counters ? `${m.counters.hits}+${m.counters.joins}` : `${m.served.cache}+${m.served.inFlight}*`,
    m.counters ? String(m.counters.dispatched) : `${m.speculative.calls}*`,
    String(m.wasted),
    fixed(m.wastedPerHit, 2),
    fixed(m.wastedPerAgentCall, 2),
    m.counters ? String(m.counters.invalidated) : 'n/a',
    String(m.upstream.requests),
    String(m.upstream.writes),
    `${m.staleAnswers}/${m.reads}`,
  ]);
}

function describeRule(rule: ChoiceRule): string {
  const position =
    rule.position.kind === 'uniform'
      ? 'uniform'
      : rule.position.ratio === 0
        ? 'always the first'
        : `P(i) ∝ ${rule.position.ratio}^i`;
  return `${rule.name}: item from the latest listing with p = ${rule.fromListing}, position ${position} over items not yet read; otherwise a file the last one imports with p = ${rule.followsImports}`;
}

/** The report's variants by rule, in the order they ran, each with its eras in the order they ran. */
function byRule(variants: readonly VariantReport[]): VariantReport[][] {
  const groups = new Map<string, VariantReport[]>();
  for (const variant of variants) {
    const group = groups.get(variant.rule.name) ?? [];
    group.push(variant);
    groups.set(variant.rule.name, group);
  }
  return [...groups.values()];
}

function variantLines(eras: readonly VariantReport[]): string[] {
  const [first] = eras;
  if (first === undefined) return [];
  const lines = [describeRule(first.rule), table(MODE_HEADER, eras.flatMap(modeRows))];
  for (const variant of eras) {
    lines.push(
      `${variant.era}: wait ${signed(-variant.waitReductionPercent, 1)}% with the planner on; upstream requests ` +
        `${signed(variant.extraUpstreamRequests, 0)} (${fixed(variant.extraUpstreamPercent, 1)}%); ` +
        `calls that differed between modes: ${variant.divergentCalls}`,
      `${variant.era}: wait by tool, off → on: ${variant.byTool
        .map(
          (t) =>
            `${shortTool(t.tool)} ${fixed(t.waitOffMs / 1000, 1)} → ${fixed(t.waitOnMs / 1000, 1)} s` +
            (t.served ? ` (${t.served} served)` : ''),
        )
        .join(', ')}`,
    );
  }
  // Each target on one line with every era's value and verdict, so a difference between eras stands out.
  for (const [index, target] of first.targets.entries()) {
    const digits = target.what.startsWith('total') || target.what.startsWith('wasted') ? 2 : 0;
    const perEra = eras.map((variant) => {
      const own = variant.targets[index];
      return own ? `${variant.era} ${fixed(own.value, digits)} ${verdict(own.pass)}` : `${variant.era} n/a`;
    });
    lines.push(`  ${target.what} (target ${target.limit}): ${perEra.join(', ')}`);
  }
  for (const variant of eras)
    if (variant.on.countersUnavailable)
      lines.push(
        `  ${variant.era}: counters unavailable (${variant.on.countersUnavailable}); * = seen by the client or the plugins instead`,
      );
  return lines;
}

/** Variants down, eras across: what the planner saves in each era, next to each other. */
function erasSideBySide(groups: readonly VariantReport[][]): string[] {
  const eras = groups[0]?.map((variant) => variant.era) ?? [];
  if (eras.length < 2) return [];
  const header = [
    'variant',
    ...eras.flatMap((era) => [`${era} wait %`, `${era} hits+joins`, `${era} wasted/hit`, `${era} p50 on ms`]),
  ];
  const rows = groups.map((group) => [
    group[0]?.rule.name ?? '',
    ...eras.flatMap((era) => {
      const variant = group.find((v) => v.era === era);
      if (!variant) return ['n/a', 'n/a', 'n/a', 'n/a'];
      return [
        signed(-variant.waitReductionPercent, 1),
        String(variant.on.hitsAndJoins),
        fixed(variant.on.wastedPerHit, 2),
        fixed(variant.on.perCallMs.p50, 1),
      ];
    }),
  ]);
  return [
    '',
    'eras side by side (wait change with the planner on; hits, waste and p50 of the runs with it on):',
    table(header, rows),
  ];
}

/** How the numbers move from the predictable variants to the less predictable ones, per era. */
function acrossVariants(groups: readonly VariantReport[][]): string[] {
  if (groups.length < 2) return [];
  const eras = groups[0]?.map((variant) => variant.era) ?? [];
  return eras.map((era) => {
    const variants = groups.flatMap((group) => group.filter((v) => v.era === era));
    const move = (label: string, value: (v: VariantReport) => number, digits: number) =>
      `${label} ${variants.map((v) => fixed(value(v), digits)).join(' → ')}`;
    return (
      `${era}, ${variants.map((v) => v.rule.name).join(' → ')}: ` +
      [
        move('wait reduction %', (v) => v.waitReductionPercent, 1),
        move('hits+joins', (v) => v.on.hitsAndJoins, 0),
        move('wasted/hit', (v) => v.on.wastedPerHit, 2),
        move('extra upstream %', (v) => v.extraUpstreamPercent, 1),
      ].join('; ')
    );
  });
}

export function formatPlannerReplayReport(report: PlannerReplayReport): string {
  const s = report.sessions;
  const settings = report.settings as { timeScale: number; concurrency: number; eras?: readonly string[] };
  const lines = [
    `planner replay: ${s.sessions} sessions (${s.byKind.code} code, ${s.byKind.review} review) per era, ${s.calls} calls, ` +
      `${fixed(s.meanLength, 1)} per session (${s.minLength}–${s.maxLength}), ${s.mutatingCalls} of them writes; ` +
      `eras ${settings.eras?.join(', ') ?? 'legacy'}; time scale ${settings.timeScale}, ` +
      `${settings.concurrency} sessions at a time, ${fixed(report.runMs / 1000, 1)} s`,
    `call mix: ${s.toolMix.map((t) => `${shortTool(t.tool)} ${t.percent}%`).join(', ')}`,
  ];
  const groups = byRule(report.variants);
  for (const group of groups) lines.push('', ...variantLines(group));
  lines.push(...erasSideBySide(groups));
  const moves = acrossVariants(groups);
  if (moves.length) lines.push('', ...moves);
  if (report.droppedPlannerKeys.length)
    lines.push(
      `[planner] keys this build does not know yet, left out: ${report.droppedPlannerKeys.join(', ')}`,
    );
  if (report.hostProblems.length)
    lines.push(
      `host warnings/errors (${report.hostProblems.length} distinct): ${report.hostProblems.slice(0, 5).join(' | ')}`,
    );
  return lines.join('\n');
}
