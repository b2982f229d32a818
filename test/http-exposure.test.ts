// Binding beyond loopback: refused without authentication unless the risk is accepted by name, and then the Host
// check accepts the addresses the server is really reached at, never the wildcard it was bound to.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpGuard } from '../src/protocol/http-guard.js';
import {
  type CliProcess,
  MCP_HEADERS,
  WORKSPACE_FILES,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  runCli,
  spawnCli,
} from './support/cli.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'exposure-e2e', version: '1.0.0' },
  },
});

/** POSTs an initialize to `address:port` with the given Host header (node:http sends it as given). */
function initializeAt(address: string, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: address, port, path: '/mcp', method: 'POST', headers: { ...MCP_HEADERS, host } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.setTimeout(5_000, () =>
      request.destroy(new Error(`no answer from ${address}:${port} within 5 s`)),
    );
    request.on('error', reject);
    request.end(INITIALIZE);
  });
}

const SERVING = /serving Streamable HTTP on (http:\/\/[^\s"]+)/;
const REFUSAL =
  /refusing to serve HTTP on 0\.0\.0\.0:0 without authentication: .*Set server\.auth_token_env.*, or server\.allow_unauthenticated = true to accept the risk/;

async function workspaceWith(config: string): Promise<string> {
  return makeWorkspace({ ...WORKSPACE_FILES, 'foresight.toml': config });
}

describe('serve beyond loopback without authentication', () => {
  afterEach(async () => {
    await killAll();
    await removeWorkspaces();
  });

  it('refuses `serve --http 0.0.0.0:0`, naming the address and both ways out, before any plugin starts', async () => {
    const run = await runCli(['serve', '--http', '0.0.0.0:0'], { cwd: await makeWorkspace() });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(REFUSAL);
    expect(run.stderr).toContain('--http 0.0.0.0:0');
    expect(run.stderr).not.toMatch(/serving/);
  });

  it('refuses an [server] http = "[::]:0" from the file, naming the file', async () => {
    const cwd = await workspaceWith('[server]\ntransport = "http"\nhttp = "[::]:0"\n');
    const run = await runCli(['serve'], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${path.join(cwd, 'foresight.toml')}: refusing to serve HTTP on [::]:0`);
    expect(run.stderr).toContain('server.allow_unauthenticated = true');
  });

  it('serves 0.0.0.0 when clients must send a bearer token, with no warning', async () => {
    const cwd = await workspaceWith('[server]\nauth_token_env = "EXPOSURE_TOKEN"\n');
    const proc = spawnCli(['serve', '--http', '0.0.0.0:0'], { cwd, env: { EXPOSURE_TOKEN: randomUUID() } });
    const [, url = ''] = await proc.waitForStderr(SERVING);
    const port = Number(new URL(url).port);
    expect(await initializeAt('127.0.0.1', port, `127.0.0.1:${port}`)).toBe(401);
    expect(proc.stderr()).not.toMatch(/without authentication/);
  });
});

describe('serve 0.0.0.0 with allow_unauthenticated = true', () => {
  let proc: CliProcess;
  let port: number;
  let url: URL;

  beforeAll(async () => {
    const cwd = await workspaceWith('[server]\nallow_unauthenticated = true\n');
    proc = spawnCli(['serve', '--http', '0.0.0.0:0'], { cwd });
    url = new URL((await proc.waitForStderr(SERVING))[1] ?? '');
    port = Number(url.port);
  });

  afterAll(async () => {
    await killAll();
    await removeWorkspaces();
  });

  it('starts, warns once, and prints a URL a client can use (not 0.0.0.0)', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(port).toBeGreaterThan(0);
    expect(proc.stderr().match(/without authentication/g)).toHaveLength(1);
  });

  it('refuses the wildcard itself as Host, and a bogus Host', async () => {
    expect(await initializeAt('127.0.0.1', port, `0.0.0.0:${port}`)).toBe(403);
    expect(await initializeAt('127.0.0.1', port, `[::]:${port}`)).toBe(403);
    expect(await initializeAt('127.0.0.1', port, `evil.example:${port}`)).toBe(403);
  });

  it('accepts loopback at the real port, not another port', async () => {
    expect(await initializeAt('127.0.0.1', port, `127.0.0.1:${port}`)).toBe(200);
    expect(await initializeAt('127.0.0.1', port, `localhost:${port}`)).toBe(200);
    expect(await initializeAt('127.0.0.1', port, `127.0.0.1:${port + 1}`)).toBe(403);
  });

  const lan = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === 'IPv4' && !entry.internal)?.address;
  it.skipIf(lan === undefined)(
    `accepts a request to this machine's own address (${lan ?? 'skipped: no non-loopback IPv4 interface on this machine'})`,
    async () => {
      const address = lan ?? '';
      expect(await initializeAt(address, port, `${address}:${port}`)).toBe(200);
    },
  );
});

describe('the Host check of each kind of bind (injected interfaces)', () => {
  const interfaces = () =>
    [
      { address: '127.0.0.1', family: 'IPv4' },
      { address: '::1', family: 'IPv6' },
      { address: '192.0.2.7', family: 'IPv4' },
      { address: '2001:db8::5', family: 'IPv6' },
    ] as const;
  const verdict = (guard: ReturnType<typeof createHttpGuard>, host: string) => guard({ host }).ok;

  it('"::" accepts every own address, IPv6 bracketed, and no wildcard even when allowed_hosts lists it', () => {
    const guard = createHttpGuard({ host: '::', port: 4000, interfaces, allowedHosts: ['0.0.0.0:4000'] });
    for (const host of ['[2001:db8::5]:4000', '192.0.2.7:4000', '[::1]:4000', 'localhost:4000'])
      expect(verdict(guard, host), host).toBe(true);
    for (const host of ['[::]:4000', '0.0.0.0:4000', '192.0.2.8:4000', '[2001:db8::5]:4001'])
      expect(verdict(guard, host), host).toBe(false);
  });

  it('"0.0.0.0" takes no IPv6 connection, so it accepts no IPv6 address but loopback by name', () => {
    const guard = createHttpGuard({ host: '0.0.0.0', port: 4000, interfaces });
    expect(verdict(guard, '192.0.2.7:4000')).toBe(true);
    expect(verdict(guard, '[2001:db8::5]:4000')).toBe(false);
  });

  it('a specific address accepts that address only', () => {
    const guard = createHttpGuard({ host: '192.0.2.7', port: 4000, interfaces });
    expect(verdict(guard, '192.0.2.7:4000')).toBe(true);
    expect(verdict(guard, '127.0.0.1:4000')).toBe(false);
    expect(guard({ host: '192.0.2.7:4000', origin: 'http://192.0.2.7:4000' }).ok).toBe(true);
    expect(guard({ host: '192.0.2.7:4000', origin: 'http://localhost:4000' }).ok).toBe(false);
  });

  it('a wildcard bind learns an address that comes up after it started', () => {
    let addresses: { address: string; family: 'IPv4' | 'IPv6' }[] = [
      { address: '127.0.0.1', family: 'IPv4' },
    ];
    const guard = createHttpGuard({ host: '0.0.0.0', port: 4000, interfaces: () => addresses });
    expect(verdict(guard, '198.51.100.4:4000')).toBe(false);
    addresses = [...addresses, { address: '198.51.100.4', family: 'IPv4' }];
    expect(verdict(guard, '198.51.100.4:4000')).toBe(true);
  });
});
