// Runs the official MCP conformance suite (server scenarios, active suite) against Foresight over HTTP.
// Starts the built CLI with the conformance fixture plugin on a free loopback port, runs the suite, stops it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}dist/cli/main.js`;
const baseline = `${root}test/conformance-baseline.yml`;

const server = spawn(
  process.execPath,
  [cli, 'serve', '--config', `${root}test/fixtures/conformance.toml`, '--http', '127.0.0.1:0'],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);

const url = await new Promise((resolve, reject) => {
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

const args = ['conformance', 'server', '--url', url, '--suite', 'active'];
if (existsSync(baseline)) args.push('--expected-failures', baseline);
const suite = spawn('npx', ['--no-install', ...args], { stdio: 'inherit', cwd: root });
const code = await new Promise((resolve) => suite.once('exit', (c) => resolve(c ?? 1)));
server.kill('SIGTERM');
process.exit(code);
