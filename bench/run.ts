// `npm run bench`: Foresight's host overhead against a raw SDK v2 server — echo tools/call in 8 cells (stdio and
// Streamable HTTP × 2026-07-28 and 2025-11-25 × sequential and calls in flight, A/B interleaved), and tools/list
// with many tools — then the upstream proxy overhead (a mounted MCP server called directly, through a naive
// bridge, through Foresight and through mcp-proxy; tools/list with a hung upstream), the enrichment pipeline
// (tools/list with 500 tools and 6 enrichers, cold and cached), the format layer's token efficiency on recorded
// GitHub payloads, the planner replay (agent sessions with the planner off and on, in both protocol eras) and the
// replay across a cluster (the planner off, on one host, on three hosts sharing a Redis).
// Each part is printed and merged into bench/results/latest.json as soon as it finishes (bench/lib/parts.ts).
// BENCH_ONLY names the parts to run, comma-separated: eras (the 8 tools/call cells), oauth (tools/call with the
// static bearer token vs an OAuth JWT), list, upstream, enrichment, tokens, planner (the replay,
// `npm run bench:planner`), cluster (`npm run bench:cluster`); BENCH_SKIP_PLANNER=1 runs everything but the two
// replays, BENCH_SKIP_CLUSTER=1 everything but the cluster one.
//
// Only light modules are imported here: every input the chosen parts read (the built CLI, the agent corpus, the
// recorded fixtures, the upstream servers) is checked before the parts' code is loaded, so a missing one fails the
// run in its first second.
import { resolve } from 'node:path';
import { exitIfMissing, foresightCliInput, partInputs } from './lib/inputs.js';
import { readParts, readSettings } from './lib/settings.js';

function start() {
  try {
    return { parts: readParts(), settings: readSettings() };
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(2);
  }
}

const { parts, settings } = start();
const cli = foresightCliInput(
  settings.foresightCli,
  process.env.BENCH_FORESIGHT_CLI ? 'BENCH_FORESIGHT_CLI' : undefined,
);
const baseline = process.env.BENCH_ERAS_BASELINE_CLI;
exitIfMissing('bench', [
  ...parts.flatMap((part) => partInputs(part, cli)),
  ...(baseline && parts.includes('eras')
    ? [
        foresightCliInput(
          resolve(baseline),
          'BENCH_ERAS_BASELINE_CLI',
          'the baseline Foresight build (side A)',
        ),
      ]
    : []),
]);
const { runParts } = await import('./lib/parts.js');
await runParts(parts, settings);
