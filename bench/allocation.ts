// Bytes allocated per echo call by the naive v2 bridge and by Foresight, both mounting server-everything over
// stdio: each server runs under V8's sampling heap profiler with the objects the collector took counted too, for
// a short and a long run, and the difference over the difference in calls is the cost of one call (start-up,
// the same in both runs, cancels out). Sampled, so read to about ±1 KB.
// Usage: npm run build && node --import tsx bench/allocation.ts [short calls] [long calls]   (default 2000 6000)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { exitIfMissing, foresightCliInput, partInputs } from './lib/inputs.js';
import { readSettings } from './lib/settings.js';
import { table } from './lib/report.js';
import { EVERYTHING_COMMAND, FORESIGHT_ECHO_TOOL, writeForesightConfig } from './lib/upstream-servers.js';
import { type BenchWorkspace, createWorkspace } from './lib/workspace.js';

/**
 * Preloaded into a server: samples every allocation (512-byte interval) and writes, at exit, the sampled bytes
 * of each function (its own allocations) as JSON.
 */
const PRELOAD = `
import inspector from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.startSampling', {
  samplingInterval: 512,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
const byFunction = {};
const walk = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = (functionName || '(anonymous)') + ' ' + url.split('/').slice(-3).join('/') + ':' + (lineNumber + 1);
  byFunction[key] = (byFunction[key] ?? 0) + node.selfSize;
  for (const child of node.children) walk(child);
};
process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (error, answer) => {
    if (!error) walk(answer.profile.head);
    writeFileSync(process.env.ALLOCATION_OUT, JSON.stringify(byFunction));
  });
});
`;

/** Functions listed per side: those whose own allocations grow the most per call. */
const TOP_FUNCTIONS = 12;

interface Side {
  label: string;
  tool: string;
  args(workspace: BenchWorkspace): Promise<string[]>;
}

/** Sampled bytes each function of a server allocated over its life, serving `calls` echo calls after one listing. */
async function allocated(
  side: Side,
  workspace: BenchWorkspace,
  preload: string,
  calls: number,
): Promise<Map<string, number>> {
  const out = join(workspace.dir, 'allocation.json');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', preload, ...(await side.args(workspace))],
    env: { ...getDefaultEnvironment(), ALLOCATION_OUT: out },
    cwd: workspace.dir,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'foresight-bench-allocation', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  for (let i = 0; i < calls; i++)
    await client.callTool({ name: side.tool, arguments: { message: `ping ${i}` } });
  await client.close();
  const byFunction = new Map(
    Object.entries(JSON.parse(await readFile(out, 'utf8')) as Record<string, number>),
  );
  if (byFunction.size === 0) throw new Error(`${side.label}: the heap profiler wrote nothing`);
  return byFunction;
}

/** Per call, by function: what the long run allocated beyond the short one. */
function perCall(few: Map<string, number>, many: Map<string, number>, calls: number): Map<string, number> {
  const growth = new Map<string, number>();
  for (const [name, bytes] of many) growth.set(name, (bytes - (few.get(name) ?? 0)) / calls);
  return growth;
}

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

const [shortArg, longArg] = process.argv.slice(2);
const short = Number(shortArg ?? 2000);
const long = Number(longArg ?? 6000);
if (!Number.isInteger(short) || !Number.isInteger(long) || short < 1 || long <= short) {
  console.error('usage: allocation [short calls] [long calls], with long > short >= 1');
  process.exit(2);
}

const settings = readSettings();
const cli = process.env.BENCH_FORESIGHT_CLI ? 'BENCH_FORESIGHT_CLI' : undefined;
exitIfMissing('allocation', partInputs('upstream', foresightCliInput(settings.foresightCli, cli)));
const workspace = await createWorkspace();
try {
  const preload = await workspace.writeText('allocation-preload.mjs', PRELOAD);
  const sides: Side[] = [
    { label: 'naive v2 bridge', tool: 'echo', args: async (w) => [w.naiveBridge, ...EVERYTHING_COMMAND] },
    {
      label: 'Foresight',
      tool: FORESIGHT_ECHO_TOOL,
      args: async (w) => [
        settings.foresightCli,
        'serve',
        '--config',
        await writeForesightConfig(w, 'allocation-foresight'),
      ],
    },
  ];
  const rows: string[][] = [];
  const functions: string[] = [];
  for (const side of sides) {
    const few = await allocated(side, workspace, preload, short);
    const many = await allocated(side, workspace, preload, long);
    const growth = perCall(few, many, long - short);
    rows.push([side.label, (sum(growth.values()) / 1024).toFixed(1)]);
    functions.push(
      `\n${side.label}: bytes per call by function (own allocations), the ${TOP_FUNCTIONS} largest`,
    );
    for (const [name, bytes] of [...growth].sort((a, b) => b[1] - a[1]).slice(0, TOP_FUNCTIONS))
      functions.push(`${bytes.toFixed(0).padStart(8)}  ${name}`);
  }
  console.log(`bytes allocated per echo call (difference of ${long} and ${short} calls, sampled)`);
  console.log(table(['side', 'KB per call'], rows));
  console.log(functions.join('\n'));
} finally {
  await workspace.remove();
}
