// Resource subscriptions through an upstream: the agent's subscribe reaches the server (it sends updates only
// for what it was asked about), `notifications/resources/updated` comes back under the published URI, and
// when the last subscriber leaves, the server is told to stop. A 2026-07-28 agent subscribes on its
// `subscriptions/listen` stream, which becomes `resources/subscribe` to the 2025 server.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { EVERYTHING } from './support/everything-http.js';
import { type Connected, connect, createMemoryLogger } from './support/in-memory.js';
import { MODERN_VERSION } from './support/modern-wire.js';

let connected: Connected | undefined;
let served: { host: ForesightHost; agent: Client } | undefined;

afterEach(async () => {
  await connected?.close();
  await served?.agent.close();
  await served?.host.close();
  connected = served = undefined;
});

const EVERYTHING_CONFIG = () =>
  parseConfig(
    ['[plugins.ev]', 'use = "upstream"', `command = ["node", ${JSON.stringify(EVERYTHING)}]`].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );

/** What server-everything logs (outside any call, so to Foresight's log) when told of a (un)subscription. */
const serverSaid = (records: Record<string, unknown>[], text: string) =>
  expect(records).toContainEqual(
    expect.objectContaining({ msg: 'upstream: log message', data: expect.stringContaining(text) }),
  );

const SERVER_URI = 'demo://resource/static/document/architecture.md';
const PUBLISHED_URI = `ev://${SERVER_URI}`;

describe('upstream resource subscriptions (server-everything over stdio)', () => {
  it('passes subscribe and unsubscribe to the server, and its updates back under the published URI', async () => {
    const records: Record<string, unknown>[] = [];
    const c = await connect({
      config: EVERYTHING_CONFIG(),
      planner: { enabled: false },
      logger: createMemoryLogger(records),
    });
    connected = c;
    await vi.waitFor(
      async () => expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('ev__echo'),
      { timeout: 15_000, interval: 50 },
    );
    const updated: string[] = [];
    c.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(n.params.uri);
    });

    await c.client.subscribeResource({ uri: PUBLISHED_URI });
    // The server confirms a subscription with a log message sent outside any call: Foresight logs it.
    await vi.waitFor(() => serverSaid(records, `Received Subscribe Resource request for URI: ${SERVER_URI}`));
    // The server sends updates for subscribed URIs once this tool turns them on (at once, then every 5 s).
    await c.client.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
    await vi.waitFor(() => expect(updated).toContain(PUBLISHED_URI), { timeout: 10_000, interval: 50 });

    await c.client.unsubscribeResource({ uri: PUBLISHED_URI });
    await vi.waitFor(() => serverSaid(records, `Received Unsubscribe Resource request: ${SERVER_URI}`));
  });
});

describe('a 2026-07-28 agent subscribing through a 2025 upstream (server-everything over stdio)', () => {
  it("turns the agent's listen stream into resources/subscribe, its updates back on the stream, and its close into unsubscribe", async () => {
    const records: Record<string, unknown>[] = [];
    const host = createHost({
      config: EVERYTHING_CONFIG(),
      planner: { enabled: false },
      logger: createMemoryLogger(records),
    });
    const http = await host.serveHttp({ port: 0 });
    const agent = new Client(
      { name: 'modern-agent', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN_VERSION } } },
    );
    served = { host, agent };
    await agent.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    await vi.waitFor(
      async () => expect((await agent.listTools()).tools.map((t) => t.name)).toContain('ev__echo'),
      { timeout: 15_000, interval: 50 },
    );
    const updated: string[] = [];
    agent.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(n.params.uri);
    });

    const subscription = await agent.listen({ resourceSubscriptions: [PUBLISHED_URI] });
    await vi.waitFor(() => serverSaid(records, `Received Subscribe Resource request for URI: ${SERVER_URI}`));
    await agent.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
    await vi.waitFor(() => expect(updated).toContain(PUBLISHED_URI), { timeout: 10_000, interval: 50 });

    await subscription.close();
    await vi.waitFor(() => serverSaid(records, `Received Unsubscribe Resource request: ${SERVER_URI}`));
  });
});
