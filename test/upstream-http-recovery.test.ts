// An HTTP upstream that goes away and comes back: while it is down its calls say so and its tools stay
// listed; when it is back on the same port, the session it forgot is initialised again and calls resume.
// Against server-everything (which answers 400 for an unknown session) and a second Foresight (2026-07-28:
// stateless, no session to forget); a 2025 server's 404 is in upstream-http-session-renewal.test.ts.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import {
  type CliProcess,
  START_LINE,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  spawnCli,
} from './support/cli.js';
import { type EverythingHttp, freePort, startEverythingHttp } from './support/everything-http.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

let connected: Connected | undefined;
const servers: EverythingHttp[] = [];

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  await Promise.all(servers.splice(0).map((server) => server.kill()));
  await killAll();
  await removeWorkspaces();
});

async function mountUrl(url: string, records: Record<string, unknown>[], extra: string[] = []) {
  const config = parseConfig(
    ['[plugins.web]', 'use = "upstream"', `url = ${JSON.stringify(url)}`, ...extra].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  connected = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
  return connected;
}

async function call(c: Connected, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return c.client.callTool({ name, arguments: args });
}

async function waitForTool(c: Connected, name: string): Promise<void> {
  await vi.waitFor(
    async () => expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain(name),
    { timeout: 15_000, interval: 50 },
  );
}

describe('upstream over Streamable HTTP: a server that restarts', () => {
  it('server-everything killed: writes say it is unreachable, unsent; a read-only call waits, and is answered once it is back', async () => {
    const first = await startEverythingHttp();
    servers.push(first);
    const records: Record<string, unknown>[] = [];
    const c = await mountUrl(first.url, records, ['restart_delay_ms = 200', 'max_restart_delay_ms = 400']);
    await waitForTool(c, 'web__get-sum');
    await first.kill();

    // The server says this tool is not read-only: it fails at once. The connection was refused: not sent.
    const down = await call(c, 'web__toggle-simulated-logging', {});
    expect(down.isError).toBe(true);
    expect(textOf(down)).toMatch(
      new RegExp(
        `the upstream MCP server "${first.url}" is unavailable, restarting \\(attempt \\d+\\): the server is unreachable \\(.*ECONNREFUSED.*\\); the call was not sent, so it is safe to make again`,
      ),
    );
    // Its tools stay listed while it is down.
    expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain('web__get-sum');

    // get-sum is read-only: made while the server is down, it waits for it.
    const waiting = call(c, 'web__get-sum', { a: 19, b: 23 });
    servers.push(await startEverythingHttp(first.port));
    const answer = await waiting;
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toContain('42');
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'upstream: lost',
        attempt: 1,
        retryInMs: 200,
        err: expect.stringContaining('the server is unreachable'),
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ level: 'info', msg: 'upstream: connected' }));
  });

  it('server-everything restarted between two calls: the forgotten session is initialised again and the call answered', async () => {
    const first = await startEverythingHttp();
    servers.push(first);
    const records: Record<string, unknown>[] = [];
    const c = await mountUrl(first.url, records);
    await waitForTool(c, 'web__get-sum');
    expect(textOf(await call(c, 'web__get-sum', { a: 1, b: 1 }))).toContain('2');
    await first.kill();
    servers.push(await startEverythingHttp(first.port));

    // The first call after the restart finds the session gone (400 from this server), renews it, and retries.
    const answer = await call(c, 'web__get-sum', { a: 20, b: 22 });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toContain('42');
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'upstream: the server forgot the session; initialising a new one' }),
    );
    expect(records).toContainEqual(expect.objectContaining({ msg: 'upstream: session renewed' }));
  });

  // Foresight serves the 2026-07-28 revision, which the upstream plugin now negotiates: stateless, so a restarted
  // Foresight has no session to forget (the 404 renewal is for legacy servers; server-everything's 400 above).
  it('a second Foresight restarted on its port: spoken to statelessly on 2026-07-28, the call answered with no session to renew', async () => {
    const workspace = await makeWorkspace();
    const port = await freePort();
    const serve = async (): Promise<CliProcess> => {
      const proc = spawnCli(['serve', '--http', `127.0.0.1:${port}`], { cwd: workspace });
      await proc.waitForStderr(START_LINE);
      return proc;
    };
    const first = await serve();
    const records: Record<string, unknown>[] = [];
    const c = await mountUrl(`http://127.0.0.1:${port}/mcp`, records);
    await waitForTool(c, 'web__workspace__read_file');
    first.child.kill('SIGKILL');
    await first.exited;
    await serve();

    const answer = await call(c, 'web__workspace__read_file', { path: 'notes.md' });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toContain('remember the milk');
    expect(records).toContainEqual(
      expect.objectContaining({ msg: 'upstream: connected', protocolVersion: '2026-07-28' }),
    );
    expect(records).not.toContainEqual(expect.objectContaining({ msg: 'upstream: session renewed' }));
  });
});
