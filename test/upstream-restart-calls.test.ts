// Calls across an upstream restart (issue 17, point 5): a real stdio server, killed while calls are made through
// Foresight by a real MCP client. A read-only call waits for the restart within its deadline; a call that may
// write fails at once and says it was not sent; one cut off in flight is made again only when read-only. The
// server writes down every call it receives, so "not sent" and "made again" are checked at the server.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const COUNTS_CALLS = fileURLToPath(new URL('./fixtures/upstreams/counts-calls.mjs', import.meta.url));
const SERVER = `"node ${COUNTS_CALLS}"`;

let connected: Connected | undefined;
let dir: string | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

interface Mounted {
  c: Connected;
  records: Record<string, unknown>[];
  /** What the server processes received, in order. */
  received(): Promise<{ pid: number; name: string; tag: string }[]>;
}

async function mount(options: { table?: string[]; env?: Record<string, string>; after?: string[] }) {
  dir = await mkdtemp(join(tmpdir(), 'foresight-restart-'));
  const log = join(dir, 'calls.jsonl');
  const env = Object.entries({ CALLS_LOG: log, ...options.env })
    .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
    .join(', ');
  const config = parseConfig(
    [
      '[plugins.cc]',
      'use = "upstream"',
      `command = ["node", ${JSON.stringify(COUNTS_CALLS)}]`,
      `env = { ${env} }`,
      ...(options.table ?? []),
      ...(options.after ?? []),
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  const records: Record<string, unknown>[] = [];
  const c = await connect({ config, logger: createMemoryLogger(records) });
  connected = c;
  await vi.waitFor(
    async () => expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain('cc__read'),
    { timeout: 15_000, interval: 50 },
  );
  const received = async () =>
    (await readFile(log, 'utf8').catch(() => ''))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { pid: number; name: string; tag: string });
  return { c, records, received } satisfies Mounted;
}

function call(c: Connected, name: string, tag: string): Promise<CallToolResult> {
  return c.client.callTool({ name, arguments: { tag } }) as Promise<CallToolResult>;
}

/** The one server process running now (a child of this process). */
function serverPid(): number {
  const pids = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === process.pid && args.join(' ').includes(COUNTS_CALLS))
    .map(([pid]) => Number(pid));
  expect(pids).toHaveLength(1);
  return pids[0] ?? 0;
}

/** Kills the server and waits until Foresight has seen it go: from then on the upstream is restarting. */
async function killServer(c: Connected): Promise<number> {
  const pid = serverPid();
  process.kill(pid, 'SIGKILL');
  await vi.waitFor(
    () => {
      const health = c.host.plugins.mountedPlugins().find((p) => p.name === 'cc')?.health;
      expect(health?.detail).toMatch(/^unavailable, restarting \(attempt 1\): the server process exited/);
    },
    { timeout: 10_000, interval: 20 },
  );
  return pid;
}

const reconnected = (records: Record<string, unknown>[]) =>
  records.some((record) => record.msg === 'upstream: connected' && record.after === 1);

describe('calls made while an upstream restarts', () => {
  it('read-only calls wait for the restart and are answered by the new server; a write fails at once, unsent', async () => {
    const { c, records, received } = await mount({
      // Long enough that the write is answered well before the restart.
      table: ['restart_delay_ms = 3000'],
      // peek publishes no annotation: the value model the user gives it makes it read-only.
      after: ['[tools."cc__peek"]', 'side_effect = "read_only"'],
    });
    const killed = await killServer(c);

    const write = await call(c, 'cc__write', 'w1');
    expect(write.isError).toBe(true);
    expect(textOf(write)).toBe(
      `the upstream MCP server ${SERVER} is unavailable, restarting (attempt 1): the server process exited on signal SIGKILL; ` +
        'the call was not sent, so it is safe to make again once the server is back',
    );
    // Answered while the server was still down: it did not wait for the restart.
    expect(reconnected(records)).toBe(false);

    const tags = ['r1', 'r2', 'r3', 'r4', 'r5'];
    const reads = [...tags.map((tag) => call(c, 'cc__read', tag)), call(c, 'cc__peek', 'p1')];
    expect(reconnected(records)).toBe(false);
    const answers = await Promise.all(reads);

    const restarted = serverPid();
    expect(restarted).not.toBe(killed);
    expect(answers.map((answer) => [answer.isError ?? false, textOf(answer)])).toEqual([
      ...tags.map((tag) => [false, `read ${tag} by ${restarted}`]),
      [false, `peek p1 by ${restarted}`],
    ]);
    const calls = await received();
    expect(calls.filter((r) => r.name === 'write')).toEqual([]);
    expect(calls.filter((r) => r.name !== 'write').map((r) => r.pid)).toEqual(Array(6).fill(restarted));
  });

  it('a call cut off by the kill: the read-only one is made again after the restart, the write says it may have run', async () => {
    const { c, received } = await mount({ table: ['restart_delay_ms = 500'] });
    const killed = serverPid();
    let inFlight = 0;
    let bothReceived = () => {};
    const received2 = new Promise<void>((resolve) => (bothReceived = resolve));
    const onprogress = () => {
      inFlight += 1;
      if (inFlight === 2) bothReceived();
    };
    const read = c.client.callTool({ name: 'cc__hold_read', arguments: { tag: 'h1' } }, { onprogress });
    const write = c.client.callTool({ name: 'cc__hold_write', arguments: { tag: 'h2' } }, { onprogress });
    await received2;
    await killServer(c);

    const written = await write;
    expect(written.isError).toBe(true);
    expect(textOf(written)).toBe(
      `the upstream MCP server ${SERVER} is unavailable, restarting (attempt 1): the server process exited on signal SIGKILL; ` +
        'it went away while the call was in flight, so the call may or may not have taken effect: check before making it again',
    );
    const answered = await read;
    const restarted = serverPid();
    expect(answered.isError ?? false).toBe(false);
    expect(textOf(answered)).toBe(`hold_read h1 by ${restarted}`);
    // Each process received the read once; the write only the first.
    expect(await received()).toEqual([
      expect.objectContaining({ pid: killed }),
      expect.objectContaining({ pid: killed }),
      { pid: restarted, name: 'hold_read', tag: 'h1' },
    ]);
    expect((await received()).filter((r) => r.name === 'hold_write')).toEqual([
      { pid: killed, name: 'hold_write', tag: 'h2' },
    ]);
  });
});

describe('a read-only call whose deadline comes before the restart', () => {
  it('fails with a timeout that says it waited for the restart, and was not sent', async () => {
    const { c, records, received } = await mount({
      // The restart begins within the call's deadline, but the new server answers only long after it.
      table: ['restart_delay_ms = 500', 'deadline_ms = 1500'],
      env: { START_DELAY_MS: '5000' },
    });
    await killServer(c);

    const read = await call(c, 'cc__read', 'late');
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(
      new RegExp(
        `^the call waited \\d+ ms for the upstream MCP server ${escape(SERVER)} to restart, and its deadline came first: ` +
          'the call was not sent; the server is unavailable, restarting \\(attempt 1\\): the server process exited on signal SIGKILL$',
      ),
    );
    expect(reconnected(records)).toBe(false);
    // Once back, it serves again; the call that gave up never reached it.
    await vi.waitFor(async () => expect(textOf(await call(c, 'cc__read', 'back'))).toMatch(/^read back by/), {
      timeout: 20_000,
      interval: 200,
    });
    expect((await received()).map((r) => r.tag)).toEqual(['back']);
  });

  it('fails at once, unsent, when the next restart attempt is due after its deadline', async () => {
    const { c, records, received } = await mount({
      table: ['restart_delay_ms = 8000', 'deadline_ms = 1500'],
    });
    await killServer(c);

    const read = await call(c, 'cc__read', 'early');
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(
      new RegExp(
        `^the upstream MCP server ${escape(SERVER)} is unavailable, restarting \\(attempt 1\\): the server process exited on signal SIGKILL; ` +
          "the call was not sent \\(the next attempt is due in \\d+ ms, after the call's deadline\\), so it is safe to make again once the server is back$",
      ),
    );
    expect(reconnected(records)).toBe(false);
    expect(await received()).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
