// The providers' shared health probe against a loopback server: `starting` until the first answer, `down` with the
// request and what to check while it fails, probed again while down, and the plugin's own account once it passes.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PluginHealth } from '../src/contract/index.js';
import { createHealthProbe, fetchProbe } from '../src/plugins/kit/index.js';
import { createMemoryLogger } from './support/in-memory.js';

let server: Server | undefined;
const stops: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/**
 * A server that answers each request with the next status of `statuses` (the last one again once all are used).
 * The second answer waits for `release()`, so a test sees the state the first one left before the probe re-checks.
 */
async function answering(statuses: number[]): Promise<{ url: string; seen: string[]; release: () => void }> {
  const seen: string[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  server = createServer((req, res) => {
    seen.push(String(req.headers.authorization));
    const status = statuses[Math.min(seen.length - 1, statuses.length - 1)] ?? 500;
    void (seen.length === 2 ? released : Promise.resolve()).then(() => res.writeHead(status).end('{}'));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/user`, seen, release };
}

const ready: PluginHealth = { state: 'ready', detail: 'serving' };

describe('health probe', () => {
  it('is down with the request and the variable to check, probes again while down, then defers to the plugin', async () => {
    const { url, seen, release } = await answering([401, 503, 200]);
    const logs: Record<string, unknown>[] = [];
    const probe = createHealthProbe(
      {
        request: `GET ${url}`,
        credentials: 'MY_TOKEN',
        target: "the token's user",
        recheckMs: 20,
        ...fetchProbe(url, { authorization: 'secret-value' }),
      },
      createMemoryLogger(logs),
    );
    stops.push(() => probe.stop());
    expect(probe.health(() => ready)).toEqual({ state: 'starting', detail: `checking GET ${url}` });
    probe.start();
    await vi.waitFor(() => expect(probe.health(() => ready).state).toBe('down'));
    expect(probe.health(() => ready)).toEqual({
      state: 'down',
      detail: `GET ${url}: token rejected (HTTP 401): check MY_TOKEN`,
    });
    release();
    await vi.waitFor(() => expect(probe.health(() => ready)).toEqual(ready));
    expect(seen).toEqual(['secret-value', 'secret-value', 'secret-value']);
    expect(JSON.stringify(logs)).not.toContain('secret-value');
    expect(logs.map((record) => record.err).filter(Boolean)).toEqual([
      `GET ${url}: token rejected (HTTP 401): check MY_TOKEN`,
      `GET ${url}: server error (HTTP 503): try again later`,
    ]);
  });

  it("shows the plugin's own starting until the probe answers, and a failing probe over it", async () => {
    const { url, seen, release } = await answering([500]);
    release();
    const probe = createHealthProbe(
      { request: `GET ${url}`, credentials: undefined, target: 'x', recheckMs: 20, ...fetchProbe(url, {}) },
      createMemoryLogger(),
    );
    const loading: PluginHealth = { state: 'starting', detail: 'loading its metadata' };
    expect(probe.health(() => loading)).toEqual(loading);
    probe.start();
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2));
    await probe.stop();
    expect(probe.health(() => loading)).toMatchObject({ state: 'down' });
  });
});
