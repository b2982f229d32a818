// The CLI with upstream servers, run as real processes: `tools` and `check` wait for an upstream to connect
// and show how each is doing; and when the program that started Foresight dies, Foresight ends and takes its
// spawned servers with it (the process table shows none left).
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLI_PATH,
  START_LINE,
  assertBuilt,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  runCli,
} from './support/cli.js';
import { isRunning } from '../src/plugins/upstream/stdio-process.js';
import { EVERYTHING } from './support/everything-http.js';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

/** Pids of running processes whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  return execFileSync('ps', ['-e', '-o', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -e'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** A config mounting server-everything over stdio; `marker` rides along as an argument the server ignores. */
function everythingTable(name: string, marker: string): string {
  return [
    `[plugins.${name}]`,
    'use = "upstream"',
    `command = ["node", ${JSON.stringify(EVERYTHING)}, "stdio", "${marker}"]`,
  ].join('\n');
}

describe('foresight tools and check with upstream servers', () => {
  it('tools lists an upstream’s tools once it has connected, and says so on stderr', async () => {
    const cwd = await makeWorkspace();
    await writeFile(path.join(cwd, 'foresight.toml'), everythingTable('ev', `m-${randomUUID()}`));
    const run = await runCli(['tools'], { cwd, timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    const names = run.stdout.split('\n').map((line) => line.split(/\s+/)[0]);
    expect(names).toEqual(expect.arrayContaining(['ev__echo', 'ev__get-sum']));
    expect(run.stderr).toMatch(
      /^foresight: ev \(upstream\) ready: connected to node .*index\.js stdio m-[\w-]+, \d+ tools$/m,
    );
  });

  it('check shows each upstream’s state and fails on one that cannot start, naming the restart and its error', async () => {
    const cwd = await makeWorkspace();
    await writeFile(
      path.join(cwd, 'foresight.toml'),
      [
        everythingTable('ev', `m-${randomUUID()}`),
        '[plugins.gone]',
        'use = "upstream"',
        'command = ["/nonexistent/mcp-server"]',
      ].join('\n'),
    );
    const run = await runCli(['check'], { cwd, timeoutMs: 30_000 });
    expect(run.code).toBe(1);
    // Which attempt: the first, or a later one when server-everything was slow to list on a loaded machine.
    expect(run.stdout).toMatch(
      /^ok\s+ev \(upstream\), prefix "ev", \d+ tools \(connected to node .*, \d+ tools\)$/m,
    );
    expect(run.stdout).toMatch(
      /^fail\s+gone \(upstream\), prefix "gone", 0 tools \(unavailable, restarting \(attempt \d+\): .*ENOENT.*; listing its last good catalog \(0 tools\)\)$/m,
    );
    expect(run.stderr).toContain('1 plugin not available');
  });
});

describe('when the agent closes Foresight', () => {
  it('ends a server that never answered before Foresight exits, so none is left once it has', async () => {
    const marker = `hung-${randomUUID()}`;
    const cwd = await makeWorkspace();
    const config = path.join(cwd, 'foresight.toml');
    const hang = `setInterval(() => {}, 1e9) /* ${marker} */`;
    await writeFile(
      config,
      ['[plugins.hung]', 'use = "upstream"', `command = ["node", "-e", ${JSON.stringify(hang)}]`].join('\n'),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'serve', '--config', config],
      cwd,
      stderr: 'pipe',
    });
    const agent = new Client({ name: 'agent', version: '1.0.0' });
    await agent.connect(transport);
    await vi.waitFor(() => expect(processesWith(marker)).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const foresightPid = transport.pid ?? 0;
    // Closing ends Foresight's stdin and resolves once its process has exited.
    await agent.close();
    expect(isRunning(foresightPid)).toBe(false);
    expect(processesWith(marker)).toEqual([]);
  });
});

describe('when the program that started Foresight dies', () => {
  it('Foresight sees its stdin close, shuts down, and leaves no spawned server behind', async () => {
    assertBuilt();
    const marker = `orphan-check-${randomUUID()}`;
    const cwd = await makeWorkspace();
    const config = path.join(cwd, 'foresight.toml');
    await writeFile(config, everythingTable('ev', marker));
    // The agent's stand-in: starts Foresight over stdio, says its pid, then is killed without a word.
    const parentScript = `
      const { spawn } = require('node:child_process');
      const foresight = spawn(process.execPath, [${JSON.stringify(CLI_PATH)}, 'serve', '--config', ${JSON.stringify(config)}], { stdio: ['pipe', 'pipe', 'inherit'] });
      process.stdout.write(foresight.pid + '\\n');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    parent.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    parent.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    try {
      await vi.waitFor(() => expect(err).toMatch(START_LINE), { timeout: 20_000, interval: 50 });
      const foresightPid = Number(out.trim());
      expect(foresightPid).toBeGreaterThan(0);
      await vi.waitFor(() => expect(processesWith(marker)).toHaveLength(1), {
        timeout: 20_000,
        interval: 100,
      });

      parent.kill('SIGKILL');
      await vi.waitFor(
        () => {
          expect(isRunning(foresightPid)).toBe(false);
          expect(processesWith(marker)).toEqual([]);
        },
        { timeout: 20_000, interval: 100 },
      );
    } finally {
      parent.kill('SIGKILL');
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    }
  });
});
