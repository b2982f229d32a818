// `foresight stats`: what the planner learned, read from its state file, in all or for one principal.
import { type LearnedState, PlannerStateStore, plannerStateFile } from '../planner/index.js';
import { CliError } from './cli-error.js';
import { type CommonOptions, load } from './config-load.js';
import {
  STATS_PRINCIPALS,
  combinedEdges,
  principalEdges,
  principalSummaries,
  principalText,
  statsText,
} from './stats-text.js';

/** Reads the planner's state file (no plugin is built or started) and prints what it learned, or one principal's part. */
export async function statsCommand(
  options: CommonOptions & { json?: boolean; principal?: string },
): Promise<void> {
  // Only [planner] is read: no plugin starts, so its secrets need not be set.
  const config = await load(options, false);
  const file = config.planner.stateFile ?? plannerStateFile();
  const warnings: string[] = [];
  const state = await new PlannerStateStore({ file, onWarning: (message) => warnings.push(message) }).load();
  if (warnings.length > 0) throw new CliError(warnings.join('\n'), 1);
  if (options.principal !== undefined) return principalStats(file, options.principal, state, options.json);
  const edges = state === undefined ? [] : combinedEdges(state);
  if (options.json) {
    const principals = state === undefined ? [] : principalSummaries(state);
    process.stdout.write(`${JSON.stringify({ file, state: state ?? null, principals, edges }, null, 2)}\n`);
    return;
  }
  if (state === undefined) {
    process.stdout.write(
      `no planner state at ${file} yet: Foresight saves what its planner learns there while it serves\n`,
    );
    return;
  }
  process.stdout.write(statsText(file, state, edges));
}

function principalStats(
  file: string,
  principal: string,
  state: LearnedState | undefined,
  json: boolean | undefined,
): void {
  const counts = state?.principals[principal];
  if (counts === undefined) {
    const known = state === undefined ? [] : principalSummaries(state).map((summary) => summary.principal);
    const listed =
      known.length === 0
        ? 'it knows no principal yet'
        : `it knows ${known.length}: ${known.slice(0, STATS_PRINCIPALS).join(', ')}${known.length > STATS_PRINCIPALS ? ', …' : ''}`;
    throw new CliError(`no principal "${principal}" in the planner state ${file}; ${listed}`, 1);
  }
  if (json) {
    const edges = principalEdges(counts);
    process.stdout.write(`${JSON.stringify({ file, principal, ...counts, ranked: edges }, null, 2)}\n`);
    return;
  }
  process.stdout.write(principalText(file, principal, counts));
}
