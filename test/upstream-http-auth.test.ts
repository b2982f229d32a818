// An HTTP upstream that wants a bearer token: Foresight sends the one from the variable the table names, and a
// wrong one ends in a clear "could not connect" whose message and logs never hold the token.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { START_LINE, killAll, makeWorkspace, removeWorkspaces, spawnCli } from './support/cli.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const SERVER_TOKEN = 'upstream-token-5b2e91';
const CLIENT_VARIABLE = 'FORESIGHT_TEST_REMOTE_TOKEN';
let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  delete process.env[CLIENT_VARIABLE];
  await killAll();
  await removeWorkspaces();
});

/** A Foresight serving its workspace over HTTP that requires `SERVER_TOKEN`; resolves with its URL. */
async function protectedUpstream(): Promise<string> {
  const cwd = await makeWorkspace();
  await writeFile(
    path.join(cwd, 'foresight.toml'),
    ['[server]', 'auth_token_env = "UPSTREAM_SERVER_TOKEN"', '', '[plugins.workspace]', 'root = "."'].join(
      '\n',
    ),
  );
  const proc = spawnCli(['serve', '--http', '127.0.0.1:0'], {
    cwd,
    env: { UPSTREAM_SERVER_TOKEN: SERVER_TOKEN },
  });
  const [, , , , serving] = await proc.waitForStderr(START_LINE);
  return (serving ?? '').replace(/^Streamable HTTP on /, '');
}

async function mountWith(url: string, token: string, records: Record<string, unknown>[]): Promise<Connected> {
  process.env[CLIENT_VARIABLE] = token;
  const config = parseConfig(
    [
      '[plugins.remote]',
      'use = "upstream"',
      `url = ${JSON.stringify(url)}`,
      `token_env = "${CLIENT_VARIABLE}"`,
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  connected = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
  return connected;
}

describe('upstream over Streamable HTTP with a bearer token', () => {
  it('sends the token from the variable named, and the server lets it in', async () => {
    const url = await protectedUpstream();
    const c = await mountWith(url, SERVER_TOKEN, []);
    await vi.waitFor(
      async () =>
        expect((await c.client.listTools()).tools.map((t) => t.name)).toContain(
          'remote__workspace__read_file',
        ),
      { timeout: 15_000, interval: 50 },
    );
    const read = await c.client.callTool({
      name: 'remote__workspace__read_file',
      arguments: { path: 'notes.md' },
    });
    expect(textOf(read)).toContain('remember the milk');
  });

  it('with a wrong token: could not connect (401), shown as down, and neither token shows anywhere', async () => {
    const url = await protectedUpstream();
    const records: Record<string, unknown>[] = [];
    const wrong = 'wrong-token-7c4d20';
    const c = await mountWith(url, wrong, records);
    await vi.waitFor(
      () => expect(records).toContainEqual(expect.objectContaining({ msg: 'upstream: could not connect' })),
      { timeout: 15_000, interval: 50 },
    );
    const health = c.host.plugins.mountedPlugins().find((p) => p.name === 'remote')?.health;
    expect(health?.state).toBe('down');
    expect(health?.detail).toMatch(/^unavailable, restarting \(attempt \d+\): /);
    // It never connected, so it lists nothing: its tools are unknown, not half-served.
    expect((await c.client.listTools()).tools.filter((t) => t.name.startsWith('remote__'))).toEqual([]);
    const everything = JSON.stringify({ records, health });
    expect(health?.detail).toContain(
      `the server refused the bearer token from ${CLIENT_VARIABLE} (HTTP 401: missing or wrong bearer token)`,
    );
    expect(everything).not.toContain(wrong);
    expect(everything).not.toContain(SERVER_TOKEN);
  });
});
