// Bad input over stdio and Streamable HTTP: each gets a clear, correctly coded answer, and after each
// one the same server still answers a normal call.
import { type Client, ProtocolError, type StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HttpServer,
  type JsonRpcMessage,
  RawStdioClient,
  connectHttp,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  spawnCli,
  startHttpServer,
  textOf,
} from './support/cli.js';

const LIMIT_BYTES = 4 * 1024 * 1024;

/** What came back for one request: a result, or a JSON-RPC error. */
interface Outcome {
  result?: { isError?: unknown; [key: string]: unknown };
  error?: { code: number; message: string };
}

/** The same requests over either transport. */
interface Wire {
  callTool(name: string, args: Record<string, unknown>): Promise<Outcome>;
  readResource(uri: string): Promise<Outcome>;
}

function rawWire(raw: RawStdioClient): Wire {
  const outcome = (message: JsonRpcMessage): Outcome => ({ result: message.result, error: message.error });
  return {
    callTool: async (name, args) => outcome(await raw.request('tools/call', { name, arguments: args })),
    readResource: async (uri) => outcome(await raw.request('resources/read', { uri })),
  };
}

function clientWire(client: Client): Wire {
  const settle = async (run: () => Promise<Outcome['result']>): Promise<Outcome> => {
    try {
      return { result: await run() };
    } catch (error) {
      if (error instanceof ProtocolError) return { error: { code: error.code, message: error.message } };
      throw error;
    }
  };
  return {
    callTool: (name, args) =>
      settle(() => client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>),
    readResource: (uri) => settle(() => client.readResource({ uri })),
  };
}

/** A normal call right after a bad one: proves the server kept serving. */
async function expectStillServing(wire: Wire): Promise<void> {
  const outcome = await wire.callTool('workspace__read_file', { path: 'a.txt' });
  expect(outcome.error).toBeUndefined();
  expect(outcome.result?.isError).toBeFalsy();
  expect(textOf(outcome.result ?? {})).toContain('alpha line one');
}

function toolError(outcome: Outcome): string {
  expect(outcome.error).toBeUndefined();
  expect(outcome.result?.isError).toBe(true);
  return textOf(outcome.result ?? {});
}

/** Request-level bad input, the same over both transports. */
function sharedCases(wire: () => Wire) {
  it('unknown tool: JSON-RPC -32602 naming the tool', async () => {
    const outcome = await wire().callTool('nope__missing_tool', {});
    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.code).toBe(-32602);
    expect(outcome.error?.message).toContain('"nope__missing_tool"');
    await expectStillServing(wire());
  });

  it('missing required argument: isError naming the parameter', async () => {
    const text = toolError(await wire().callTool('workspace__read_file', {}));
    expect(text).toMatch(/missing required parameter "path"/);
    expect(text).toContain('workspace__read_file');
    await expectStillServing(wire());
  });

  it('argument of the wrong type: isError naming the parameter, the value given and the type allowed', async () => {
    const text = toolError(await wire().callTool('workspace__read_file', { path: 42 }));
    expect(text).toMatch(/parameter "path"/);
    expect(text).toMatch(/must be string/);
    expect(text).toMatch(/got 42/);
    await expectStillServing(wire());
  });

  it('argument out of range: isError naming the parameter, the value given and the bound', async () => {
    const text = toolError(await wire().callTool('workspace__glob', { pattern: '*', max_results: 0 }));
    expect(text).toMatch(/parameter "max_results"/);
    expect(text).toMatch(/>= 1/);
    expect(text).toMatch(/got 0/);
    await expectStillServing(wire());
  });

  it('unknown argument: isError naming it and the parameters allowed', async () => {
    const text = toolError(await wire().callTool('workspace__glob', { pattern: '*', patern: '*.ts' }));
    expect(text).toMatch(/unknown parameter "patern"/);
    expect(text).toMatch(/allowed: .*pattern.*path.*max_results/);
    await expectStillServing(wire());
  });

  it('unknown resource URI: JSON-RPC -32002', async () => {
    const foreign = await wire().readResource('nowhere://nothing/here');
    expect(foreign.error?.code).toBe(-32002);
    expect(foreign.error?.message).toContain('nowhere://nothing/here');
    await expectStillServing(wire());

    const missing = await wire().readResource('workspace://file/no-such-file.txt');
    expect(missing.error?.code).toBe(-32002);
    expect(missing.error?.message).toContain('no-such-file.txt');
    await expectStillServing(wire());
  });

  it('path traversal out of the workspace: refused with a clear isError message', async () => {
    for (const [tool, args] of [
      ['workspace__read_file', { path: '../x' }],
      ['workspace__read_file', { path: '/etc/passwd' }],
      ['workspace__read_file', { path: 'src/../../outside.txt' }],
      ['workspace__list_directory', { path: '..' }],
      ['workspace__grep', { pattern: 'root', path: '/etc' }],
    ] as const) {
      const text = toolError(await wire().callTool(tool, args));
      expect(text, `${tool} ${JSON.stringify(args)}`).toContain(
        `path ${JSON.stringify(args.path)} is outside the workspace root`,
      );
      expect(text).not.toMatch(/root:x:0:0/);
      await expectStillServing(wire());
    }
  });

  it('path traversal through the resource template: refused, nothing read', async () => {
    const outcome = await wire().readResource('workspace://file/../../../etc/passwd');
    expect(outcome.result).toBeUndefined();
    expect(outcome.error?.message).toMatch(/outside the workspace root/);
    await expectStillServing(wire());
  });
}

describe('bad input over stdio', () => {
  let raw: RawStdioClient;

  beforeAll(async () => {
    const proc = spawnCli(['serve'], { cwd: await makeWorkspace() });
    raw = new RawStdioClient(proc);
    await proc.waitForStderr(/serving stdio/);
    await raw.initialize();
  });

  afterAll(async () => {
    await killAll();
    await removeWorkspaces();
  });

  sharedCases(() => rawWire(raw));

  it('malformed JSON line: -32700 with id null', async () => {
    await raw.sendLine('garbage{');
    const answer = await raw.next((m) => m.error?.code === -32700);
    expect(answer).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { message: expect.stringMatching(/parse error/i) },
    });
    await expectStillServing(rawWire(raw));
  });

  it('a JSON object that is not JSON-RPC: -32600, echoing its id', async () => {
    await raw.sendLine(JSON.stringify({ hello: 'world', id: 'x-7' }));
    const answer = await raw.next((m) => m.id === 'x-7');
    expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    await expectStillServing(rawWire(raw));

    await raw.sendLine('[1, 2, 3]');
    const batch = await raw.next((m) => m.error?.code === -32600);
    expect(batch.id).toBeNull();
    await expectStillServing(rawWire(raw));
  });

  it('a line over 4 MiB: one -32600 error with id null, the request inside it ignored', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 'huge-1',
      method: 'tools/call',
      params: { name: 'workspace__read_file', arguments: { path: 'a'.repeat(LIMIT_BYTES) } },
    });
    await raw.sendLine(huge);
    const answer = await raw.next((m) => m.error?.code === -32600);
    expect(answer.id).toBeNull();
    expect(answer.error?.message).toContain(`${LIMIT_BYTES}-byte limit`);
    await expectStillServing(rawWire(raw));
    // Nothing else came back: no answer to the request inside the oversized line, no second error.
    expect(raw.pending()).toEqual([]);
  });

  it('stays up through all of it and still exits 0 when stdin closes', async () => {
    await expectStillServing(rawWire(raw));
    raw.proc.child.stdin?.end();
    expect(await raw.proc.waitForExit()).toEqual({ code: 0, signal: null });
    expect(raw.proc.stderr()).toMatch(/"why":"stdin closed".*"msg":"shutting down"/);
  });
});

describe('bad input over Streamable HTTP', () => {
  let server: HttpServer;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  const post = (body: string | Uint8Array, sessionHeader = true): Promise<Response> =>
    fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(sessionHeader ? { 'mcp-session-id': transport.sessionId as string } : {}),
      },
      body,
    });

  beforeAll(async () => {
    server = await startHttpServer({ cwd: await makeWorkspace() });
    ({ client, transport } = await connectHttp(server.url));
  });

  afterAll(async () => {
    await client.close().catch(() => {});
    await killAll();
    await removeWorkspaces();
  });

  sharedCases(() => clientWire(client));

  it('malformed JSON body: 400 with -32700 and id null', async () => {
    for (const withSession of [true, false]) {
      const response = await post('garbage{', withSession);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      await expectStillServing(clientWire(client));
    }
  });

  it('a JSON body that is not JSON-RPC: 400 with -32600', async () => {
    for (const [body, withSession] of [
      ['{"hello":"world","id":1}', true],
      ['{"hello":"world","id":1}', false],
      ['[]', true],
      ['42', true],
    ] as const) {
      const response = await post(body, withSession);
      expect(response.status, body).toBe(400);
      expect(await response.json(), body).toMatchObject({ id: null, error: { code: -32600 } });
      await expectStillServing(clientWire(client));
    }
  });

  it('a body over 4 MiB: 413, and the session goes on', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'huge-1',
      method: 'tools/call',
      params: { name: 'workspace__read_file', arguments: { path: 'a'.repeat(LIMIT_BYTES) } },
    });
    const response = await post(body);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining(`${LIMIT_BYTES}-byte limit`) },
    });
    await expectStillServing(clientWire(client));
  });

  it('a streamed body without Content-Length that grows past 4 MiB: 413', async () => {
    const chunk = new TextEncoder().encode('a'.repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > LIMIT_BYTES + chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    await response.body?.cancel();
    await expectStillServing(clientWire(client));
  });
});
