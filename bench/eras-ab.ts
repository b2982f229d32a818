// Two builds of Foresight side by side on the tools/call cells (`npm run bench:ab`): the eras bench run again and
// again, alternately against this checkout's build and another (`BENCH_AB_OTHER`, a `dist/cli/main.js`, e.g. of a
// `git worktree` at an older rev), then, per cell, the change in the calls/s ratio and the CPU/call ratio with a
// 95% interval over the pairs. One run's ratio swings by several points on a shared machine; a change smaller
// than the interval is not one this bench can see.
// Settings (env): BENCH_AB_OTHER (required), BENCH_AB_PAIRS (6), BENCH_AB_OUT (a path for every run's cells as
// JSON), BENCH_AB_THIS (another build in place of this checkout's), BENCH_AB_DIRECT=1 (the two builds as the two
// sides of each cell, see runDirect), and the eras bench's own (BENCH_ERAS_CELLS, BENCH_ERAS_ROUNDS, …).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitIfMissing, foresightCliInput, partInputs } from './lib/inputs.js';
import { table } from './lib/report.js';
import { resultsFile } from './lib/settings.js';
import { median } from './lib/stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LATEST = resultsFile();

interface CellResult {
  id: string;
  ratio: number;
  serverCpuRatio: number | null;
}

const other = process.env.BENCH_AB_OTHER;
if (!other) {
  console.error("BENCH_AB_OTHER must name the other build's CLI, e.g. /tmp/old/dist/cli/main.js");
  process.exit(2);
}
const pairs = Math.max(1, Number(process.env.BENCH_AB_PAIRS ?? 6) || 6);
// BENCH_AB_THIS: a build to stand for this checkout's (two older revs compared, neither of them this one).
const thisCli = process.env.BENCH_AB_THIS
  ? resolve(process.env.BENCH_AB_THIS)
  : resolve(ROOT, 'dist/cli/main.js');
const otherCli = resolve(other);
// Both builds and what the eras bench reads, checked now rather than when the first run of the other build starts.
exitIfMissing('bench:ab', [
  ...partInputs('eras', foresightCliInput(thisCli, process.env.BENCH_AB_THIS ? 'BENCH_AB_THIS' : undefined)),
  foresightCliInput(otherCli, 'BENCH_AB_OTHER', 'the other Foresight build'),
]);

function runEras(cli: string, baselineCli?: string): CellResult[] {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      BENCH_ONLY: 'eras',
      BENCH_FORESIGHT_CLI: cli,
      ...(baselineCli === undefined ? {} : { BENCH_ERAS_BASELINE_CLI: baselineCli }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`the eras bench failed (exit ${run.status}) for ${cli}`);
  const latest = JSON.parse(readFileSync(LATEST, 'utf8')) as { eras: { cells: CellResult[] } };
  return latest.eras.cells.map(({ id, ratio, serverCpuRatio }) => ({ id, ratio, serverCpuRatio }));
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
/** Half the width of a 95% interval of the mean (normal approximation; with few pairs it is a little narrow). */
const interval = (values: number[]) => {
  if (values.length < 2) return Number.NaN;
  const m = mean(values);
  const variance = values.reduce((a, b) => a + (b - m) ** 2, 0) / (values.length - 1);
  return 1.96 * Math.sqrt(variance / values.length);
};
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

/**
 * Direct mode (BENCH_AB_DIRECT=1): the two builds are the two sides of each cell, in the same rounds, so the raw
 * server's swings and the machine's hour fall on both. Each run gives this build's calls/s over the other's; the
 * sides swap every run (which side starts first and measures first in a round is then no bias).
 */
function runDirect(): void {
  const runs: CellResult[][] = [];
  for (let run = 1; run <= pairs; run++) {
    const thisOnB = run % 2 === 1;
    process.stderr.write(`bench:ab direct run ${run}/${pairs}: this build on side ${thisOnB ? 'B' : 'A'}\n`);
    const cells = thisOnB ? runEras(thisCli, otherCli) : runEras(otherCli, thisCli);
    // Side B over side A; when this build was A, the inverse is this over other.
    runs.push(
      cells.map((cell) => ({
        id: cell.id,
        ratio: thisOnB ? cell.ratio : 1 / cell.ratio,
        serverCpuRatio:
          cell.serverCpuRatio === null ? null : thisOnB ? cell.serverCpuRatio : 1 / cell.serverCpuRatio,
      })),
    );
  }
  if (process.env.BENCH_AB_OUT) writeFileSync(process.env.BENCH_AB_OUT, `${JSON.stringify(runs, null, 2)}\n`);
  const ids = runs[0]?.map((cell) => cell.id) ?? [];
  const percent = (x: number) => `${points(x)}%`;
  const rows = ids.map((id) => {
    const of = (pick: (cell: CellResult) => number | null) =>
      runs.map((cells) => pick(cells.find((cell) => cell.id === id) as CellResult) ?? Number.NaN);
    const [ratios, cpu] = [of((c) => c.ratio), of((c) => c.serverCpuRatio)];
    const change = ratios.map((r) => r - 1);
    const cpuChange = cpu.map((r) => r - 1);
    return [
      id,
      median(ratios).toFixed(3),
      `${percent(mean(change))} ± ${(interval(change) * 100).toFixed(1)}`,
      median(cpu).toFixed(3),
      `${percent(mean(cpuChange))} ± ${(interval(cpuChange) * 100).toFixed(1)}`,
    ];
  });
  console.log(`${pairs} runs, sides swapped each run: this build (${thisCli}) against ${otherCli}`);
  console.log(
    table(
      [
        'cell',
        'calls/s this / other (median)',
        'change, mean ± 95%',
        'CPU/call this / other (median)',
        'CPU change, mean ± 95%',
      ],
      rows,
    ),
  );
  console.log(
    '(a change of x% moves the eras ratio of a cell by x% of that ratio: 2 points of a ratio of 0.85 is 2.4%)',
  );
}

/** Pairs mode (the default): each build against the raw server in runs of its own, alternated. */
function runPairs(): void {
  const runs: { side: 'this' | 'other'; cells: CellResult[] }[] = [];
  for (let pair = 1; pair <= pairs; pair++) {
    // Which build goes first flips every pair, so a drift of the machine falls on both alike.
    const order = pair % 2 === 1 ? (['this', 'other'] as const) : (['other', 'this'] as const);
    for (const side of order) {
      process.stderr.write(`bench:ab pair ${pair}/${pairs}: ${side} build\n`);
      runs.push({ side, cells: runEras(side === 'this' ? thisCli : otherCli) });
    }
  }
  if (process.env.BENCH_AB_OUT) writeFileSync(process.env.BENCH_AB_OUT, `${JSON.stringify(runs, null, 2)}\n`);

  const ids = runs[0]?.cells.map((cell) => cell.id) ?? [];
  const rows = ids.map((id) => {
    const of = (side: 'this' | 'other', pick: (cell: CellResult) => number | null) =>
      runs
        .filter((run) => run.side === side)
        .map((run) => pick(run.cells.find((cell) => cell.id === id) as CellResult) ?? Number.NaN);
    const [ratioThis, ratioOther] = [of('this', (c) => c.ratio), of('other', (c) => c.ratio)];
    const [cpuThis, cpuOther] = [of('this', (c) => c.serverCpuRatio), of('other', (c) => c.serverCpuRatio)];
    const ratioChange = ratioThis.map((r, i) => r - (ratioOther[i] as number));
    const cpuChange = cpuThis.map((r, i) => r - (cpuOther[i] as number));
    return [
      id,
      `${median(ratioThis).toFixed(3)} / ${median(ratioOther).toFixed(3)}`,
      points(median(ratioThis) - median(ratioOther)),
      `${points(mean(ratioChange))} ± ${(interval(ratioChange) * 100).toFixed(1)}`,
      `×${median(cpuThis).toFixed(2)} / ×${median(cpuOther).toFixed(2)}`,
      `${points(mean(cpuChange))} ± ${(interval(cpuChange) * 100).toFixed(1)}`,
    ];
  });
  console.log(`${pairs} pairs: this build (${thisCli}) against ${otherCli}`);
  console.log(
    table(
      [
        'cell',
        'calls/s ratio, this / other (medians)',
        'change',
        'paired change, mean ± 95%',
        'CPU/call ratio (medians)',
        'paired change',
      ],
      rows,
    ),
  );
  console.log('(changes in points of ratio: 0.01 of the calls/s ratio, or of the CPU/call ratio)');
}

if (process.env.BENCH_AB_DIRECT === '1') runDirect();
else runPairs();
