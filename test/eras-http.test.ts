// One Streamable HTTP server, both protocol eras at once: a 2025 client in its session and a 2026-07-28 client
// (SDK v2 Clients, and raw requests where the wire itself is the point): discovery, identity, caching hints,
// listen streams, per-request log levels, the era's own error codes, and bad modern requests.
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { MODERN_VERSION, type JsonRpcMessage, modernMeta, modernPost } from './support/modern-wire.js';

const CONFIG = [
  '[plugins.conformance]',
  'prefix = ""',
  'watch_interval_ms = 50',
  'cache_ttl_ms = 60000',
  'cache_scope = "public"',
  '',
  '[plugins.workspace]',
  'root = "."',
  '',
].join('\n');

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

let host: ForesightHost;
let http: HttpServing;
let legacy: Client;
let modern: Client;

beforeAll(async () => {
  host = createHost({
    config: parseConfig(CONFIG, '/test/foresight.toml', process.cwd()),
    logger: createMemoryLogger(),
  });
  http = await host.serveHttp({ port: 0 });
  legacy = new Client({ name: 'legacy-client', version: '1.0.0' });
  await legacy.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  modern = new Client(
    { name: 'modern-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN_VERSION } } },
  );
  await modern.connect(new StreamableHTTPClientTransport(new URL(http.url)));
});

afterAll(async () => {
  await Promise.allSettled([legacy.close(), modern.close()]);
  await host.close();
});

describe('a 2025 client and a 2026-07-28 client on one server at once', () => {
  it('each speaks its own era: a session for the 2025 client, none for the other', () => {
    expect(legacy.getProtocolEra()).toBe('legacy');
    expect(modern.getProtocolEra()).toBe('modern');
    expect(modern.getServerVersion()).toMatchObject({ name: 'foresight' });
    expect(http.sessionCount()).toBe(1);
  });

  it('both get the same tools, in the same order, and both can call them', async () => {
    const [a, b] = await Promise.all([legacy.listTools(), modern.listTools()]);
    expect(b.tools.map((tool) => tool.name)).toEqual(a.tools.map((tool) => tool.name));
    const [x, y] = await Promise.all([
      legacy.callTool({ name: 'test_simple_text', arguments: {} }),
      modern.callTool({ name: 'test_simple_text', arguments: {} }),
    ]);
    expect(textOf(x)).toBe('This is a simple text response for testing.');
    expect(textOf(y)).toBe(textOf(x));
  });

  it('the 2026-07-28 client is asked for input through input_required and its retry; the 2025 client during the call', async () => {
    const asked: string[] = [];
    const answer = (who: string) => async () => {
      asked.push(who);
      return { action: 'accept' as const, content: { name: who } };
    };
    const legacyAsker = new Client({ name: 'asker', version: '1' }, { capabilities: { elicitation: {} } });
    legacyAsker.setRequestHandler('elicitation/create', answer('legacy'));
    await legacyAsker.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const modernAsker = new Client(
      { name: 'asker', version: '1' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN_VERSION } } },
    );
    modernAsker.setRequestHandler('elicitation/create', answer('modern'));
    await modernAsker.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      const [a, b] = await Promise.all([
        legacyAsker.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }),
        modernAsker.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }),
      ]);
      expect(textOf(a)).toBe('Hello, legacy!');
      expect(textOf(b)).toBe('Hello, modern!');
      expect(asked.sort()).toEqual(['legacy', 'modern']);
    } finally {
      await Promise.allSettled([legacyAsker.close(), modernAsker.close()]);
    }
  });

  it('answers an unknown resource as each revision defines it: -32002 to 2025, -32602 to 2026-07-28', async () => {
    const codes = await Promise.all(
      [legacy, modern].map((client) =>
        client.readResource({ uri: 'test://nothing-here' }).then(
          () => undefined,
          (error: unknown) => (error instanceof ProtocolError ? error.code : String(error)),
        ),
      ),
    );
    expect(codes).toEqual([-32002, -32602]);
  });

  it('tells the 2025 client of list changes unsolicited, the 2026-07-28 client on the listen stream it opened', async () => {
    const told: string[] = [];
    legacy.setNotificationHandler('notifications/tools/list_changed', () => {
      told.push('legacy');
    });
    modern.setNotificationHandler('notifications/tools/list_changed', () => {
      told.push('modern');
    });
    const subscription = await modern.listen({ toolsListChanged: true });
    try {
      await legacy.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      await expect.poll(() => [...told].sort(), { timeout: 5_000 }).toEqual(['legacy', 'modern']);
    } finally {
      await subscription.close();
    }
  });
});

describe('2026-07-28 requests on the wire', () => {
  it('server/discover names the supported revision and the capabilities, and every result names the server', async () => {
    const discover = await modernPost(http.url, 'server/discover');
    expect(discover.response?.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining([MODERN_VERSION]),
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true },
        prompts: { listChanged: true },
      },
      _meta: { [SERVER_INFO]: { name: 'foresight' } },
    });
    const list = await modernPost(http.url, 'tools/list');
    expect(list.response?.result?._meta).toMatchObject({ [SERVER_INFO]: { name: 'foresight' } });
  });

  it('lists carry the strictest caching hints of the plugins; a read carries its own plugin’s', async () => {
    // conformance: 60 s, public; workspace: default (0, private).
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const answer = await modernPost(http.url, method);
      expect(answer.response?.result, method).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    }
    const read = await modernPost(http.url, 'resources/read', { uri: 'test://static-text' });
    expect(read.response?.result).toMatchObject({ ttlMs: 60000, cacheScope: 'public' });
    // Foresight's own statistics depend on the moment and the caller: never shared.
    const stats = await modernPost(http.url, 'resources/read', { uri: 'foresight://planner/stats' });
    expect(stats.response?.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('sends log messages at or above the level the request asks for, and none when it asks for none', async () => {
    const levels = async (meta: Record<string, unknown>) => {
      const answer = await modernPost(
        http.url,
        'tools/call',
        { name: 'test_logging_tool', arguments: {} },
        { meta: { ...modernMeta(), ...meta } },
      );
      expect(answer.response?.result).toMatchObject({ resultType: 'complete' });
      return answer.messages
        .filter((message) => message.method === 'notifications/message')
        .map((message) => message.params?.level);
    };
    expect(await levels({ 'io.modelcontextprotocol/logLevel': 'warning' })).toEqual(['warning', 'error']);
    expect(await levels({})).toEqual([]);
  });

  it('a listen stream is acknowledged first, then carries what it asked for, each message with its subscription id', async () => {
    const id = 'listen-1';
    let triggered = false;
    const stream = modernPost(
      http.url,
      'subscriptions/listen',
      { notifications: { promptsListChanged: true, resourceSubscriptions: ['test://watched-resource'] } },
      {
        id,
        maxMessages: 4,
        readTimeoutMs: 4_000,
        onMessage: (message) => {
          if (message.method !== 'notifications/subscriptions/acknowledged' || triggered) return;
          triggered = true;
          // A tools change must not reach this stream; the prompts change must.
          void modernPost(http.url, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} });
          void modernPost(http.url, 'tools/call', { name: 'test_trigger_prompt_change', arguments: {} });
        },
      },
    );
    const { messages } = await stream;
    expect(messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { promptsListChanged: true, resourceSubscriptions: ['test://watched-resource'] },
        _meta: { [SUBSCRIPTION]: id },
      },
    });
    const methods = new Set(messages.slice(1).map((message: JsonRpcMessage) => message.method));
    expect(methods).toContain('notifications/prompts/list_changed');
    expect(methods).toContain('notifications/resources/updated');
    expect(methods).not.toContain('notifications/tools/list_changed');
    for (const message of messages) expect(message.params?._meta).toMatchObject({ [SUBSCRIPTION]: id });
  });
});

describe('bad 2026-07-28 requests get a clear error, and the server keeps serving both eras', () => {
  async function stillServing() {
    expect(textOf(await legacy.callTool({ name: 'test_simple_text', arguments: {} }))).toContain(
      'simple text',
    );
    const answer = await modernPost(http.url, 'tools/call', { name: 'test_simple_text', arguments: {} });
    expect(answer.response?.result).toMatchObject({ resultType: 'complete' });
  }

  it('an envelope without its protocol version: -32602 with HTTP 400 naming the key; without the header too, what each era needs', async () => {
    const meta = modernMeta();
    delete meta['io.modelcontextprotocol/protocolVersion'];
    const answer = await modernPost(http.url, 'tools/list', {}, { meta });
    expect(answer.status).toBe(400);
    expect(answer.response?.error).toMatchObject({
      code: -32602,
      data: { envelope: { missing: ['io.modelcontextprotocol/protocolVersion'] } },
    });
    // With neither the key nor the header nothing says 2026-07-28: a 2025 request outside any session.
    const bare = await modernPost(
      http.url,
      'tools/list',
      {},
      { meta, headers: { 'mcp-protocol-version': null } },
    );
    expect(bare.status).toBe(400);
    expect(bare.messages[0]?.error?.message).toMatch(
      /a 2025 client starts with initialize; a 2026-07-28 request carries _meta\["io.modelcontextprotocol\/protocolVersion"\]/,
    );
    await stillServing();
  });

  it('an envelope without client capabilities: -32602 with HTTP 400', async () => {
    const meta = modernMeta();
    delete meta['io.modelcontextprotocol/clientCapabilities'];
    const answer = await modernPost(http.url, 'tools/list', {}, { meta });
    expect(answer.status).toBe(400);
    expect(answer.response?.error).toMatchObject({ code: -32602 });
    expect(answer.response?.error?.message).toMatch(/clientCapabilities/);
    await stillServing();
  });

  it('an unknown revision: -32022 listing the supported ones', async () => {
    const answer = await modernPost(
      http.url,
      'tools/list',
      {},
      {
        meta: { ...modernMeta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
        headers: { 'mcp-protocol-version': '2099-01-01' },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.response?.error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN_VERSION], requested: '2099-01-01' },
    });
    await stillServing();
  });

  it('headers that disagree with the body: -32020 HeaderMismatch with HTTP 400', async () => {
    const version = await modernPost(
      http.url,
      'tools/list',
      {},
      { headers: { 'mcp-protocol-version': '2025-11-25' } },
    );
    expect(version.status).toBe(400);
    expect(version.response?.error).toMatchObject({ code: -32020 });
    const method = await modernPost(
      http.url,
      'tools/list',
      {},
      { headers: { 'mcp-method': 'prompts/list' } },
    );
    expect(method.response?.error).toMatchObject({ code: -32020 });
    const name = await modernPost(
      http.url,
      'tools/call',
      { name: 'test_simple_text', arguments: {} },
      { headers: { 'mcp-name': 'test_error_handling' } },
    );
    expect(name.status).toBe(400);
    expect(name.response?.error).toMatchObject({ code: -32020 });
    await stillServing();
  });

  it('a method the 2026-07-28 revision removed: -32601 with HTTP 404', async () => {
    const answer = await modernPost(http.url, 'logging/setLevel', { level: 'debug' });
    expect(answer.status).toBe(404);
    expect(answer.response?.error).toMatchObject({ code: -32601 });
    await stillServing();
  });

  it('two listen streams at once are two subscriptions, each acknowledged under its own id', async () => {
    const [a, b] = await Promise.all(
      ['one', 'two'].map((id) =>
        modernPost(
          http.url,
          'subscriptions/listen',
          { notifications: { toolsListChanged: true } },
          { id, maxMessages: 1 },
        ),
      ),
    );
    expect(a?.messages[0]?.params?._meta).toMatchObject({ [SUBSCRIPTION]: 'one' });
    expect(b?.messages[0]?.params?._meta).toMatchObject({ [SUBSCRIPTION]: 'two' });
    await stillServing();
  });
});
