// Graceful drain on SIGTERM, with the real CLI as a child process: new requests get 503 and /readyz turns 503 at
// once, a call in flight still gets its result, and the process exits 0; a call longer than drain_timeout_s is
// ended at the deadline (its client gets an error, not a hang). Over stdio: no more input is read, the call in
// flight is answered, and the process exits.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type HttpServer,
  MCP_HEADERS,
  RawStdioClient,
  connectHttp,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  spawnCli,
  startHttpServer,
  textOf,
  withTimeout,
} from './support/cli.js';

const SLOW_PLUGIN = new URL('./fixtures/plugins/slow.mjs', import.meta.url).pathname;

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

async function workspaceWith(drainTimeoutS: number): Promise<string> {
  const dir = await makeWorkspace({});
  await writeFile(
    path.join(dir, 'foresight.toml'),
    `[server]\nmetrics = true\ndrain_timeout_s = ${drainTimeoutS}\n\n[plugins.slow]\nmodule = "${SLOW_PLUGIN}"\n`,
  );
  return dir;
}

const opsUrl = (server: HttpServer, at: string) => new URL(at, server.url).href;

/** Polls /metrics until the server runs `count` calls: the SIGTERM must land while the call is in flight. */
async function callsInFlight(server: HttpServer, count: number): Promise<void> {
  for (;;) {
    const text = await (await fetch(opsUrl(server, '/metrics'))).text();
    if (text.includes(`\nforesight_calls_in_flight ${count}\n`)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('SIGTERM over HTTP', () => {
  it('refuses new requests with 503, turns /readyz 503, lets the call in flight finish, then exits 0', async () => {
    const cwd = await workspaceWith(10);
    const server = await startHttpServer({ cwd });
    const { client } = await connectHttp(server.url);
    const call = client.callTool({ name: 'slow__sleep', arguments: { ms: 1_500 } });
    await withTimeout(callsInFlight(server, 1), 5_000, 'the slow call to start');
    expect((await fetch(opsUrl(server, '/readyz'))).status).toBe(200);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');

    // Both answered while the call still runs: the balancer stops sending, a straggler is told to go elsewhere.
    await withTimeout(
      (async () => {
        while ((await fetch(opsUrl(server, '/readyz'))).status !== 503);
      })(),
      2_000,
      '/readyz to turn 503',
    );
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const ready = (await (await fetch(opsUrl(server, '/readyz'))).json()) as { draining: boolean };
    expect(ready.draining).toBe(true);

    let exitedFirst = false;
    void server.exited.then(() => (exitedFirst = true));
    expect(textOf(await withTimeout(call, 5_000, 'the slow call'))).toBe('slept 1500 ms');
    // The process waited for the call's answer, and then went without waiting out the 10 s deadline.
    expect(exitedFirst).toBe(false);
    const exit = await server.waitForExit(5_000);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(8_000);
  }, 30_000);

  it('ends a call longer than drain_timeout_s at the deadline: the process exits 0, the client gets an error', async () => {
    const cwd = await workspaceWith(1);
    const server = await startHttpServer({ cwd });
    const { client } = await connectHttp(server.url);
    const call = client.callTool({ name: 'slow__sleep', arguments: { ms: 20_000 } });
    const settled = call.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await withTimeout(callsInFlight(server, 1), 5_000, 'the slow call to start');
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.waitForExit(6_000);
    expect(exit).toEqual({ code: 0, signal: null });
    const waitedMs = Date.now() - signalledAt;
    expect(waitedMs).toBeGreaterThanOrEqual(900);
    expect(waitedMs).toBeLessThan(5_000);
    // The call is ended through the shutdown signal and answered, so the client hears of it instead of waiting.
    const outcome = await withTimeout(settled, 3_000, 'the cut call to settle');
    expect('result' in outcome && outcome.result).toMatchObject({
      isError: true,
      _meta: { 'foresight/error': { code: 'E_SHUTTING_DOWN', kind: 'unavailable' } },
    });
    expect(server.stderr()).toContain('drain deadline passed');
  }, 30_000);
});

describe('SIGTERM over stdio', () => {
  it('reads no more requests, answers the call in flight, and exits 0', async () => {
    const cwd = await workspaceWith(10);
    const proc = spawnCli(['serve'], { cwd });
    await proc.waitForStderr(/serving stdio/);
    const raw = new RawStdioClient(proc);
    await raw.initialize();
    const callId = 1;
    await raw.sendLine(
      JSON.stringify({
        jsonrpc: '2.0',
        id: callId,
        method: 'tools/call',
        params: { name: 'slow__sleep', arguments: { ms: 1_000 } },
      }),
    );
    // The signal must find the call in flight.
    await proc.waitForStderr(/slow: sleep started/);
    proc.child.kill('SIGTERM');
    await proc.waitForStderr(/"msg":"shutting down"/);
    // Sent once the drain began: never read, so never answered.
    await raw.sendLine(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).catch(() => {});
    const answer = await raw.next((message) => message.id === callId, 5_000);
    expect(textOf(answer.result ?? {})).toBe('slept 1000 ms');
    expect(await proc.waitForExit(5_000)).toEqual({ code: 0, signal: null });
    expect(raw.pending().some((message) => message.id === 2)).toBe(false);
  }, 30_000);
});
