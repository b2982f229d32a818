// Both protocol eras over real stdio, against the built CLI: the connection's opening decides its era (a
// server/discover probe or an enveloped request: 2026-07-28; initialize: 2025), through SDK v2 clients and raw lines.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf } from './support/in-memory.js';
import { MODERN_VERSION, type JsonRpcMessage, modernMeta } from './support/modern-wire.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('./fixtures/conformance.toml', import.meta.url));
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

const clients: Client[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

async function connected(client: Client): Promise<Client> {
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--config', CONFIG],
      stderr: 'ignore',
    }),
  );
  return client;
}

/** The CLI over raw lines: send messages, and wait for the ones that match. */
function rawServer() {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', CONFIG], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const received: JsonRpcMessage[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() !== '') received.push(JSON.parse(line) as JsonRpcMessage);
    }
  });
  const send = (message: Record<string, unknown>) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (
    id: string | number,
    method: string,
    params: Record<string, unknown> = {},
    meta = modernMeta(),
  ) => send({ id, method, params: { ...params, _meta: { ...(params._meta as object), ...meta } } });
  const waitFor = async (match: (message: JsonRpcMessage) => boolean): Promise<JsonRpcMessage> => {
    let found: JsonRpcMessage | undefined;
    await expect.poll(() => (found = received.find(match)), { timeout: 10_000 }).toBeDefined();
    return found!;
  };
  const answerTo = (id: string | number) =>
    waitFor((message) => message.id === id && message.method === undefined);
  return { child, received, send, request, waitFor, answerTo };
}

describe('SDK v2 clients over stdio', () => {
  it('a client that negotiates gets the 2026-07-28 revision, and its calls that ask for input complete', async () => {
    const client = new Client(
      { name: 'modern', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: {} } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: 'Grace' },
    }));
    await connected(client);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()).toMatchObject({ name: 'foresight' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('test_input_required_result_elicitation');
    const result = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    expect(textOf(result)).toBe('Hello, Grace!');
    const told: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      told.push('tools');
    });
    const subscription = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await expect.poll(() => told, { timeout: 5_000 }).toEqual(['tools']);
    await subscription.close();
  });

  it('a client of the 2025 revisions gets its own era, with its own not-found code', async () => {
    const client = await connected(new Client({ name: 'legacy', version: '1.0.0' }));
    expect(client.getProtocolEra()).toBe('legacy');
    const error = await client.readResource({ uri: 'test://nothing-here' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32002);
  });
});

describe('2026-07-28 over raw stdio lines', () => {
  it('a listen stream: acknowledged with its subscription id, told of changes, and its id cannot be reused while open', async () => {
    const server = rawServer();
    server.request('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    const ack = await server.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toMatchObject({
      notifications: { toolsListChanged: true },
      _meta: { [SUBSCRIPTION]: 'listen-1' },
    });

    // Opened twice under the same id: a clear error for the second; the first stays open.
    server.request('listen-1', 'subscriptions/listen', { notifications: { promptsListChanged: true } });
    const refused = await server.answerTo('listen-1');
    expect(refused.error).toMatchObject({ code: -32600 });
    expect(refused.error?.message).toMatch(/id "listen-1" is still in use/);

    server.request(2, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    await server.answerTo(2);
    const change = await server.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(change.params?._meta).toMatchObject({ [SUBSCRIPTION]: 'listen-1' });

    // Cancelled, it hears nothing more, and its id is free again.
    server.send({
      method: 'notifications/cancelled',
      params: { requestId: 'listen-1', _meta: modernMeta() },
    });
    server.request(3, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    await server.answerTo(3);
    server.request('listen-1', 'subscriptions/listen', { notifications: { promptsListChanged: true } });
    const again = await server.waitFor(
      (m) =>
        m.method === 'notifications/subscriptions/acknowledged' &&
        m.params?.notifications !== undefined &&
        'promptsListChanged' in (m.params.notifications as object),
    );
    expect(again.params?._meta).toMatchObject({ [SUBSCRIPTION]: 'listen-1' });
    expect(server.received.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
  });

  it('bad envelopes and versions get clear errors, and a 2025 handshake after the modern opening is refused', async () => {
    const server = rawServer();
    server.request(1, 'tools/list');
    expect((await server.answerTo(1)).result).toMatchObject({ resultType: 'complete' });

    server.request(
      2,
      'tools/list',
      {},
      { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': 'all' },
    );
    expect((await server.answerTo(2)).error).toMatchObject({ code: -32602 });

    server.request(
      3,
      'tools/list',
      {},
      { ...modernMeta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    );
    expect((await server.answerTo(3)).error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN_VERSION], requested: '2099-01-01' },
    });

    server.send({
      id: 4,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'late', version: '1' } },
    });
    const late = await server.answerTo(4);
    expect(late.error).toMatchObject({ code: -32022, data: { supported: [MODERN_VERSION] } });

    server.request(5, 'tools/call', { name: 'test_simple_text', arguments: {} });
    expect((await server.answerTo(5)).result).toMatchObject({ resultType: 'complete' });
  });

  it('exits 0 when stdin closes, even with a listen stream open', async () => {
    const server = rawServer();
    server.request('open', 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    await server.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    const exited = new Promise<number | null>((resolve) =>
      server.child.once('exit', (code) => resolve(code)),
    );
    server.child.stdin.end();
    expect(await exited).toBe(0);
  });
});
