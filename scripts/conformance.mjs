// Runs the official MCP conformance suite (server scenarios, active suite) against Foresight over HTTP, twice:
// 1. directly: the built CLI serving the conformance fixture plugin;
// 2. through an upstream: a second Foresight mounting the first as an `upstream` plugin without prefix, so
//    every scenario crosses the upstream plugin (the same scenarios must pass as when served directly).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}dist/cli/main.js`;
const baseline = `${root}test/conformance-baseline.yml`;
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
      const match = /serving Streamable HTTP on (\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${seen}`)));
  });
}

function runSuite(url, title) {
  process.stdout.write(`\n### conformance: ${title} (${url})\n`);
  const args = ['conformance', 'server', '--url', url, '--suite', 'active'];
  if (existsSync(baseline)) args.push('--expected-failures', baseline);
  const suite = spawn('npx', ['--no-install', ...args], { stdio: 'inherit', cwd: root });
  return new Promise((resolve) => suite.once('exit', (c) => resolve(c ?? 1)));
}

const dir = await mkdtemp(join(tmpdir(), 'foresight-conformance-'));
let code;
try {
  const direct = await serve(`${root}test/fixtures/conformance.toml`);
  const viaUpstream = join(dir, 'via-upstream.toml');
  await writeFile(
    viaUpstream,
    [
      '[server]',
      'log_level = "warn"',
      '',
      '[plugins.fixtures]',
      'use = "upstream"',
      `url = "${direct}"`,
      'prefix = ""',
      '',
    ].join('\n'),
  );
  const proxied = await serve(viaUpstream);
  const directCode = await runSuite(direct, 'served directly');
  const proxiedCode = await runSuite(proxied, 'through a second Foresight mounting it as an upstream');
  process.stdout.write(
    `\nconformance: directly ${directCode === 0 ? 'passed' : 'FAILED'}, through an upstream ${proxiedCode === 0 ? 'passed' : 'FAILED'}\n`,
  );
  code = directCode === 0 && proxiedCode === 0 ? 0 : 1;
} finally {
  for (const server of servers.reverse()) server.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
}
process.exit(code);
