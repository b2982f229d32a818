// The HTTP listener's front door: Host and Origin checks against DNS rebinding, and the optional bearer
// token from server.auth_token_env, whose value must never reach the server's stderr.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HttpServer,
  MCP_HEADERS,
  connectHttp,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  startHttpServer,
  textOf,
} from './support/cli.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'security-e2e', version: '1.0.0' },
  },
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** fetch() drops a caller's Host header, so the Host checks go through node:http. */
function postWithHost(url: URL, host: string, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { ...MCP_HEADERS, host } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
    });
    request.setTimeout(5_000, () => request.destroy(new Error(`no answer from ${url.href} within 5 s`)));
    request.on('error', reject);
    request.end(body);
  });
}

function initialize(url: URL, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: INITIALIZE });
}

describe('Host and Origin checks', () => {
  let server: HttpServer;

  beforeAll(async () => {
    server = await startHttpServer({ cwd: await makeWorkspace() });
  });

  afterAll(async () => {
    await killAll();
    await removeWorkspaces();
  });

  it('refuses a foreign Host header with 403', async () => {
    const refused = await postWithHost(server.url, `evil.example:${server.port}`, INITIALIZE);
    expect(refused.status).toBe(403);
    expect(refused.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { message: expect.stringContaining('evil.example') },
    });

    // Same name, wrong port: still not this server.
    const otherPort = await postWithHost(server.url, `127.0.0.1:${server.port + 1}`, INITIALIZE);
    expect(otherPort.status).toBe(403);
  });

  it('accepts the loopback Host names it listens on', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      const accepted = await postWithHost(server.url, host, INITIALIZE);
      expect(accepted.status, host).toBe(200);
      expect(accepted.headers['mcp-session-id'], host).toBeDefined();
    }
  });

  it('refuses a foreign Origin with 403', async () => {
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${server.port}`,
      `https://localhost:${server.port}`,
    ]) {
      const refused = await initialize(server.url, { origin });
      expect(refused.status, origin).toBe(403);
      expect(refused.headers.get('mcp-session-id'), origin).toBeNull();
      expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining('Origin') } });
    }
  });

  it('lets a localhost origin through, and an SDK client that sends one works', async () => {
    const origin = `http://localhost:${server.port}`;
    const accepted = await initialize(server.url, { origin });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('mcp-session-id')).toBeTruthy();
    await accepted.body?.cancel();

    const { client } = await connectHttp(server.url, { headers: { origin } });
    try {
      const result = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'a.txt' } });
      expect(textOf(result)).toContain('alpha line one');
    } finally {
      await client.close();
    }
  });
});

/** A plugin that logs what it is given, as a careless plugin would: the log must come out redacted. */
const ECHO_PLUGIN = `
export default {
  id: 'echo',
  version: '1.0.0',
  build(ctx) {
    return {
      tools: () => [{ name: 'say', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
      async callTool(name, args) {
        ctx.logger.warn({ text: args.text }, 'echo plugin was given some text');
        return { content: [{ type: 'text', text: 'said it' }] };
      },
    };
  },
};
`;

describe('bearer token from server.auth_token_env', () => {
  const token = `tok-${randomUUID()}`;
  let server: HttpServer;

  beforeAll(async () => {
    const root = await makeWorkspace();
    const config = path.join(root, 'foresight.toml');
    // Trace level: every log line the server can write is written, so a leak would show.
    await writeFile(
      config,
      [
        '[server]',
        'auth_token_env = "FORESIGHT_TEST_TOKEN"',
        'allowed_origins = ["https://app.example"]',
        'log_level = "trace"',
        '',
        '[plugins.workspace]',
        'root = "."',
        '',
        '[plugins.echo]',
        'module = "./echo-plugin.mjs"',
        '',
      ].join('\n'),
    );
    await writeFile(path.join(root, 'echo-plugin.mjs'), ECHO_PLUGIN);
    server = await startHttpServer({ cwd: root, config, env: { FORESIGHT_TEST_TOKEN: token } });
  });

  afterAll(async () => {
    await killAll();
    await removeWorkspaces();
  });

  it('answers 401 with WWW-Authenticate: Bearer when the token is missing', async () => {
    const response = await initialize(server.url);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringMatching(/bearer token/i) },
    });
  });

  it('answers 401 to a wrong token, a near miss and another scheme', async () => {
    for (const authorization of [
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      `Basic ${token}`,
      token,
    ]) {
      const response = await initialize(server.url, { authorization });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      await response.body?.cancel();
    }
  });

  it('serves an SDK client that sends the right token, also from a configured origin', async () => {
    const { client } = await connectHttp(server.url, {
      headers: { authorization: `Bearer ${token}`, origin: 'https://app.example' },
    });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('workspace__read_file');
      const read = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'notes.md' } });
      expect(textOf(read)).toContain('remember the milk');
    } finally {
      await client.close();
    }
  });

  it('never writes the token to stderr, even when a client echoes it back', async () => {
    const { client } = await connectHttp(server.url, { headers: { authorization: `Bearer ${token}` } });
    try {
      // A failing call whose argument holds the token: the error path is where values get logged.
      const failed = await client.callTool({
        name: 'workspace__read_file',
        arguments: { path: `missing-${token}.txt` },
      });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).not.toContain(token);
      // A plugin that logs the token it was handed.
      const said = await client.callTool({ name: 'echo__say', arguments: { text: `the token is ${token}` } });
      expect(textOf(said)).toBe('said it');
    } finally {
      await client.close();
    }
    const wrong = await initialize(server.url, { authorization: `Bearer ${token}-wrong` });
    expect(wrong.status).toBe(401);
    await wrong.body?.cancel();

    // The plugin's log line is written, with the value replaced.
    const logged = await server.waitForStderr(/^.*echo plugin was given some text.*$/m);
    expect(logged[0]).toContain('the token is [redacted]');
    const stderr = server.stderr();
    expect(stderr).toMatch(/serving Streamable HTTP/);
    expect(stderr).not.toContain(token);
  });
});
