// Where Foresight's extra CPU per call goes in one eras cell, from the two profiles of a BENCH_CPU_PROF run of
// that cell alone: each side's µs per call by area (the innermost Foresight module or SDK package on each
// sample's stack), Foresight's minus the raw server's.
// A second table groups the files into the areas docs/benchmarks.md reports.
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

/** The area of docs/benchmarks.md ("Where Foresight's extra CPU goes") a file or package belongs to. */
function areaOf(owner: string): string {
  if (/^protocol\/(http|http-[a-z]+|event-store|param-headers)\.js$/.test(owner)) return 'HTTP listener';
  if (/^protocol\/(input-flow|input-rounds|input-requests|flow-environment|request-state)\.js$/.test(owner))
    return '2026-07-28 input rounds';
  if (owner.startsWith('SDK ') || /^protocol\/stdio(-transport)?\.js$/.test(owner))
    return 'SDK + stdio transport';
  if (owner.startsWith('protocol/') || owner.startsWith('compose/') || owner === 'create-host.js')
    return 'server factory, caller, streams';
  if (owner.startsWith('host/')) return 'host';
  if (owner.startsWith('planner/')) return 'planner';
  if (owner.startsWith('enrich/') || owner.startsWith('format/')) return 'enrich + format';
  if (owner === '(garbage collector)' || owner === '(node internals)') return owner;
  return 'other (echo tool, raw factory, …)';
}

const areas = new Map<string, { a: number; b: number }>();
for (const { owner, a, b } of rows) {
  const area = areas.get(areaOf(owner)) ?? { a: 0, b: 0 };
  area.a += a;
  area.b += b;
  areas.set(areaOf(owner), area);
}
console.log();
console.log(
  table(
    ['area', 'raw', 'Foresight', 'extra'],
    [...areas]
      .sort(([, x], [, y]) => y.b - y.a - (x.b - x.a))
      .map(([area, { a, b }]) => [area, perCall(a), perCall(b), perCall(b - a)]),
  ),
);
