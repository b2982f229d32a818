// Graceful drain on SIGTERM, with the real CLI as a child process: new requests get 503 and /readyz turns 503 at
// once, a call in flight still gets its result, and the process exits 0; a call longer than drain_timeout_s is
// ended at the deadline (its client gets an error, not a hang). Over stdio: no more input is read, the call in
// flight is answered, and the process exits. The calls in flight are held by a file the test creates (the slow
// plugin's `until`), so no step races a sleep.
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
import { PATIENCE_MS } from './support/patience.js';

const SLOW_PLUGIN = new URL('./fixtures/plugins/slow.mjs', import.meta.url).pathname;
/** A drain deadline no test here waits out: a process that exits within PATIENCE_MS did not wait for it. */
const LONG_DRAIN_S = (2 * PATIENCE_MS) / 1000;

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
    const cwd = await workspaceWith(LONG_DRAIN_S);
    const release = path.join(cwd, 'release-the-call');
    const server = await startHttpServer({ cwd });
    const { client } = await connectHttp(server.url);
    const call = client.callTool(
      { name: 'slow__sleep', arguments: { until: release } },
      { timeout: PATIENCE_MS },
    );
    await withTimeout(callsInFlight(server, 1), PATIENCE_MS, 'the slow call to start');
    expect((await fetch(opsUrl(server, '/readyz'))).status).toBe(200);
    server.child.kill('SIGTERM');

    // Both answered while the call is still held: the balancer stops sending, a straggler is told to go elsewhere.
    await withTimeout(
      (async () => {
        while ((await fetch(opsUrl(server, '/readyz'))).status !== 503);
      })(),
      PATIENCE_MS,
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
    await writeFile(release, '');
    expect(textOf(await withTimeout(call, PATIENCE_MS, 'the held call'))).toBe(`released by ${release}`);
    // The process waited for the call's answer, and then went without waiting out its drain deadline (far past
    // the wait for its exit here, and never reached: it says so when it is).
    expect(exitedFirst).toBe(false);
    const exit = await server.waitForExit(PATIENCE_MS);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.stderr()).not.toContain('drain deadline passed');
  });

  it('ends a call longer than drain_timeout_s at the deadline: the process exits 0, the client gets an error', async () => {
    const cwd = await workspaceWith(1);
    const server = await startHttpServer({ cwd });
    const { client } = await connectHttp(server.url);
    // Held by a file never created: only the drain deadline can end it.
    const call = client.callTool(
      { name: 'slow__sleep', arguments: { until: path.join(cwd, 'never-created') } },
      { timeout: PATIENCE_MS },
    );
    const settled = call.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    await withTimeout(callsInFlight(server, 1), PATIENCE_MS, 'the slow call to start');
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.waitForExit(PATIENCE_MS);
    expect(exit).toEqual({ code: 0, signal: null });
    // Not before the 1 s deadline, which the process counts from the signal it got after this one was sent.
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(900);
    expect(server.stderr()).toContain('drain deadline passed');
    // The call is ended through the shutdown signal and answered, so the client hears of it instead of waiting.
    const outcome = await withTimeout(settled, PATIENCE_MS, 'the cut call to settle');
    expect('result' in outcome && outcome.result).toMatchObject({
      isError: true,
      _meta: { 'foresight/error': { code: 'E_SHUTTING_DOWN', kind: 'unavailable' } },
    });
  });
});

describe('SIGTERM over stdio', () => {
  it('reads no more requests, answers the call in flight, and exits 0', async () => {
    const cwd = await workspaceWith(LONG_DRAIN_S);
    const release = path.join(cwd, 'release-the-call');
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
        params: { name: 'slow__sleep', arguments: { until: release } },
      }),
    );
    // The signal must find the call in flight: it is, until the test creates the file.
    await proc.waitForStderr(/slow: sleep started/);
    proc.child.kill('SIGTERM');
    await proc.waitForStderr(/"msg":"shutting down"/);
    // Sent once the drain began: never read, so never answered.
    await raw.sendLine(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).catch(() => {});
    await writeFile(release, '');
    const answer = await raw.next((message) => message.id === callId, PATIENCE_MS);
    expect(textOf(answer.result ?? {})).toBe(`released by ${release}`);
    expect(await proc.waitForExit(PATIENCE_MS)).toEqual({ code: 0, signal: null });
    expect(raw.pending().some((message) => message.id === 2)).toBe(false);
    expect(proc.stderr()).not.toContain('drain deadline passed');
  });
});
