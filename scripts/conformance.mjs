// Runs the official MCP conformance referee (@modelcontextprotocol/conformance, which needs Node >= 22, so it runs
// on the Node 24 binary of the `node` dev dependency) against Foresight, which runs on the machine's Node:
// 1. served directly (the conformance fixture plugin), with the frozen requirement sets of both revisions,
//    2025-11-25 (initialize and sessions) and 2026-07-28 (stateless, multi round-trip requests);
// 2. through an upstream, in all four era pairs: a second Foresight mounting the first as an `upstream` plugin
//    without prefix, so every scenario crosses the upstream plugin, once pinned to each revision upstream
//    (`protocol = "2025-11-25"` / `"2026-07-28"`), each run with both requirement sets: a client of either era
//    reaches a server of either era through Foresight.
// The six runs go in LANES at a time, each run's output held and printed whole, in order, once it ends.
// Exits 0 only when every scored scenario of every run passes; scenarios a set does not score are reported.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireNode24 } from './node24.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}dist/cli/main.js`;
const referee = `${root}node_modules/@modelcontextprotocol/conformance/dist/index.js`;
const baseline = `${root}test/conformance-baseline.yml`;
const node24 = requireNode24();
const servers = [];
/** Runs at once: the referee mostly waits on the servers, so a few overlap well even on 2 cores. */
const LANES = 3;
/** How long a server may take to start: generous, since a busy CI machine is slow (never a measure of speed). */
const START_MS = 60_000;

/** Starts `foresight serve` on a free loopback port and resolves with its MCP URL. */
function serve(config) {
  const server = spawn(process.execPath, [cli, 'serve', '--config', config, '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  servers.push(server);
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`server did not start in ${START_MS / 1000} s:\n${seen}`)),
      START_MS,
    );
    server.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /serving Streamable HTTP on ([^\s"]+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${seen}`)));
  });
}

function runReferee(url, revision, title) {
  const args = [referee, 'server', '--url', url, '--requirements', revision];
  if (existsSync(baseline)) args.push('--expected-failures', baseline);
  const suite = spawn(node24, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root });
  const output = [`\n### conformance ${revision}: ${title} (${url})\n`];
  suite.stdout.on('data', (chunk) => output.push(chunk));
  suite.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) =>
    suite.once('close', (c) => resolve({ revision, title, passed: c === 0, output: output.join('') })),
  );
}

/** Runs every job, LANES at a time, printing each run's output in the given order as soon as it and those before it end. */
async function inLanes(jobs) {
  const results = new Array(jobs.length);
  let next = 0;
  let printed = 0;
  const flush = () => {
    while (printed < jobs.length && results[printed]) process.stdout.write(results[printed++].output);
  };
  const lane = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, jobs.length) }, lane));
  return results;
}

const dir = await mkdtemp(join(tmpdir(), 'foresight-conformance-'));
// Set once every run has ended; a failure before that throws out of the script instead.
let code;
try {
  const direct = await serve(`${root}test/fixtures/conformance.toml`);
  /** A second Foresight mounting the first, speaking `protocol` to it. */
  const throughUpstream = async (protocol) => {
    const config = join(dir, `via-upstream-${protocol}.toml`);
    await writeFile(
      config,
      [
        '[server]',
        'log_level = "warn"',
        // Configured like the inner: the task fixtures must become tasks of this Foresight before they answer.
        'task_after_ms = 200',
        '',
        '[plugins.fixtures]',
        'use = "upstream"',
        `url = "${direct}"`,
        'prefix = ""',
        `protocol = "${protocol}"`,
        // Neither era's wire says which tools run only as tasks (2026-07-28 lists no task support, the inner hides
        // it from a 2025 client), so this Foresight is told; "*": a 2025 upstream declares no tasks extension.
        'tasks = { "*" = "optional", failing_job = "required", protocol_error_job = "required", test_tool_with_task = "required" }',
        '',
      ].join('\n'),
    );
    return serve(config);
  };
  const viaLegacy = await throughUpstream('2025-11-25');
  const viaModern = await throughUpstream('2026-07-28');
  const runs = await inLanes([
    () => runReferee(direct, '2025-11-25', 'served directly'),
    () => runReferee(direct, '2026-07-28', 'served directly'),
    () => runReferee(viaLegacy, '2025-11-25', 'through a Foresight speaking 2025-11-25 to it as an upstream'),
    () => runReferee(viaModern, '2025-11-25', 'through a Foresight speaking 2026-07-28 to it as an upstream'),
    () => runReferee(viaLegacy, '2026-07-28', 'through a Foresight speaking 2025-11-25 to it as an upstream'),
    () => runReferee(viaModern, '2026-07-28', 'through a Foresight speaking 2026-07-28 to it as an upstream'),
  ]);
  process.stdout.write('\nconformance:\n');
  for (const run of runs)
    process.stdout.write(`  ${run.passed ? 'passed' : 'FAILED'}  ${run.revision}  ${run.title}\n`);
  code = runs.every((run) => run.passed) ? 0 : 1;
} finally {
  for (const server of servers.reverse()) server.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
}
process.exit(code);
