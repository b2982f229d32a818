// Where Foresight's extra CPU per call goes in one eras cell, from the two profiles of a BENCH_CPU_PROF run of
// that cell alone: each side's µs per call by area (the innermost Foresight module or SDK package on each
// sample's stack), Foresight's minus the raw server's.
// Usage: node --import tsx bench/profile-areas.ts <dir> <transport>-<era> <calls per side>
//   e.g. BENCH_ONLY=eras BENCH_ERAS_CELLS=stdio-modern-seq BENCH_CPU_PROF=/tmp/prof npm run bench
//        node --import tsx bench/profile-areas.ts /tmp/prof stdio-modern 5500     (500 warm-up + 10 × 500)
import { join } from 'node:path';
import { cellAreas } from './lib/cpu-profile.js';
import { table } from './lib/report.js';

const [dir, pair, callsArg] = process.argv.slice(2);
const calls = Number(callsArg);
if (dir === undefined || pair === undefined || !Number.isInteger(calls) || calls < 1) {
  console.error('usage: profile-areas <dir> <transport>-<era> <calls per side>');
  process.exit(2);
}

const sides = cellAreas(
  join(dir, `eras-raw-${pair}.cpuprofile`),
  join(dir, `eras-foresight-${pair}.cpuprofile`),
);

const perCall = (us: number) => (us / calls).toFixed(1);
const owners = new Set(sides.flatMap((side) => [...side.byOwner.keys()]));
const rows = [...owners]
  .map((owner) => {
    const [a, b] = sides.map((side) => side.byOwner.get(owner) ?? 0) as [number, number];
    return { owner, a, b };
  })
  .sort((x, y) => y.b - y.a - (x.b - x.a));
console.log(
  `${pair}: µs on CPU per call inside the profiles (main thread; sampling adds its own cost), ${calls} calls per side`,
);
console.log(
  table(
    ['area', 'raw', 'Foresight', 'extra'],
    [
      ['all', perCall(sides[0].busyUs), perCall(sides[1].busyUs), perCall(sides[1].busyUs - sides[0].busyUs)],
      ...rows.map(({ owner, a, b }) => [owner, perCall(a), perCall(b), perCall(b - a)]),
      [
        '(of all: node:async_hooks self time)',
        perCall(sides[0].asyncHooksUs),
        perCall(sides[1].asyncHooksUs),
        perCall(sides[1].asyncHooksUs - sides[0].asyncHooksUs),
      ],
    ],
  ),
);
