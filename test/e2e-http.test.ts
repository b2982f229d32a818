// End to end over Streamable HTTP: the built CLI on a free loopback port serves real SDK Clients, keeps
// concurrent sessions apart, ends a session on DELETE and exits 0 on SIGTERM.
import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type HttpServer,
  MCP_HEADERS,
  START_LINE,
  WORKSPACE_FILES,
  connectHttp,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  startHttpServer,
  textOf,
} from './support/cli.js';

function rawToolsList(server: HttpServer, sessionId: string): Promise<Response> {
  return fetch(server.url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'tools/list' }),
  });
}

describe('foresight serve --http', () => {
  let server: HttpServer;
  const clients: Client[] = [];

  const connect = async (): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
    const connected = await connectHttp(server.url);
    clients.push(connected.client);
    return connected;
  };

  beforeAll(async () => {
    const root = await makeWorkspace();
    server = await startHttpServer({ cwd: root });
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await killAll();
    await removeWorkspaces();
  });

  it('prints the start line with a loopback URL on the port it listens on', () => {
    expect(START_LINE.exec(server.startLine)?.slice(1)).toEqual([
      '1',
      'workspace',
      '4',
      `Streamable HTTP on http://127.0.0.1:${server.port}/mcp`,
    ]);
    expect(server.port).toBeGreaterThan(0);
  });

  it('serves tools, resources and completion to an SDK client', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe('foresight');

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'workspace__glob',
      'workspace__grep',
      'workspace__list_directory',
      'workspace__read_file',
    ]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);

    const glob = await client.callTool({ name: 'workspace__glob', arguments: { pattern: '*.{txt,md}' } });
    expect(glob.structuredContent).toEqual({ paths: ['a.txt', 'notes.md'], truncated: false });
    const read = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'a.txt' } });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain('alpha line two');

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['workspace://file/{path}']);
    const resource = await client.readResource({ uri: 'workspace://file/src/index.ts' });
    expect(resource.contents[0]).toMatchObject({ text: WORKSPACE_FILES['src/index.ts'] });
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'workspace://file/{path}' },
      argument: { name: 'path', value: 'src/' },
    });
    expect(completion.completion.values).toEqual(['src/index.ts', 'src/util.ts']);
  });

  it('keeps two concurrent sessions apart', async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    expect(first.transport.sessionId).toBeDefined();
    expect(second.transport.sessionId).toBeDefined();
    expect(first.transport.sessionId).not.toBe(second.transport.sessionId);

    // Interleave calls on both sessions; each must get its own answers.
    const [a, b, c, d] = await Promise.all([
      first.client.callTool({ name: 'workspace__read_file', arguments: { path: 'a.txt' } }),
      second.client.callTool({ name: 'workspace__read_file', arguments: { path: 'notes.md' } }),
      first.client.callTool({ name: 'workspace__read_file', arguments: { path: 'src/index.ts' } }),
      second.client.listTools(),
    ]);
    expect(textOf(a)).toContain('alpha line one');
    expect(textOf(b)).toContain('remember the milk');
    expect(textOf(c)).toContain('answer = 42');
    expect(d.tools).toHaveLength(4);
  });

  it('ends a session on DELETE and leaves the others serving', async () => {
    const doomed = await connect();
    const survivor = await connect();
    const doomedId = doomed.transport.sessionId as string;

    const before = await rawToolsList(server, doomedId);
    expect(before.status).toBe(200);
    await before.body?.cancel();

    const deleted = await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': doomedId } });
    expect(deleted.status).toBe(200);

    const after = await rawToolsList(server, doomedId);
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: { code: -32001 }, id: null });
    await expect(doomed.client.listTools()).rejects.toThrow(/404|session/i);

    expect((await survivor.client.listTools()).tools).toHaveLength(4);
  });

  it('ends a session through the SDK client terminateSession', async () => {
    const { transport } = await connect();
    const id = transport.sessionId as string;
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    const after = await rawToolsList(server, id);
    expect(after.status).toBe(404);
    await after.body?.cancel();
  });
});

describe('foresight serve --http, shutdown', () => {
  afterEach(async () => {
    await killAll();
    await removeWorkspaces();
  });

  it('exits with code 0 on SIGTERM, with a client still connected', async () => {
    const server = await startHttpServer({ cwd: await makeWorkspace() });
    const { client } = await connectHttp(server.url);
    expect((await client.listTools()).tools).toHaveLength(4);

    server.child.kill('SIGTERM');
    expect(await server.waitForExit()).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toMatch(/"why":"SIGTERM".*"msg":"shutting down"/);
    // The listener is gone with the process.
    await expect(fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: '{}' })).rejects.toThrow();
    await client.close().catch(() => {});
  });
});
