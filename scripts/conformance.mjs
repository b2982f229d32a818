// Runs the official MCP conformance referee (@modelcontextprotocol/conformance, which needs Node >= 22, so it runs
// on the Node 24 binary of the `node` dev dependency) against Foresight, which runs on the machine's Node:
// 1. served directly (the conformance fixture plugin), with the frozen requirement sets of both revisions,
//    2025-11-25 (initialize and sessions) and 2026-07-28 (stateless, multi round-trip requests);
// 2. through an upstream, in all four era pairs: a second Foresight mounting the first as an `upstream` plugin
//    without prefix, so every scenario crosses the upstream plugin, once pinned to each revision upstream
//    (`protocol = "2025-11-25"` / `"2026-07-28"`), each run with both requirement sets: a client of either era
//    reaches a server of either era through Foresight.
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

/** Starts `foresight serve` on a free loopback port and resolves with its MCP URL. */
function serve(config) {
  const server = spawn(process.execPath, [cli, 'serve', '--config', config, '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  servers.push(server);
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in 20 s:\n${seen}`)), 20_000);
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
  process.stdout.write(`\n### conformance ${revision}: ${title} (${url})\n`);
  const args = [referee, 'server', '--url', url, '--requirements', revision];
  if (existsSync(baseline)) args.push('--expected-failures', baseline);
  const suite = spawn(node24, args, { stdio: 'inherit', cwd: root });
  return new Promise((resolve) => suite.once('exit', (c) => resolve({ revision, title, passed: c === 0 })));
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
  const runs = [
    await runReferee(direct, '2025-11-25', 'served directly'),
    await runReferee(direct, '2026-07-28', 'served directly'),
    await runReferee(viaLegacy, '2025-11-25', 'through a Foresight speaking 2025-11-25 to it as an upstream'),
    await runReferee(viaModern, '2025-11-25', 'through a Foresight speaking 2026-07-28 to it as an upstream'),
    await runReferee(viaLegacy, '2026-07-28', 'through a Foresight speaking 2025-11-25 to it as an upstream'),
    await runReferee(viaModern, '2026-07-28', 'through a Foresight speaking 2026-07-28 to it as an upstream'),
  ];
  process.stdout.write('\nconformance:\n');
  for (const run of runs)
    process.stdout.write(`  ${run.passed ? 'passed' : 'FAILED'}  ${run.revision}  ${run.title}\n`);
  code = runs.every((run) => run.passed) ? 0 : 1;
} finally {
  for (const server of servers.reverse()) server.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
}
process.exit(code);
