// Resource subscriptions through an upstream: the agent's subscribe reaches the server (it sends updates only
// for what it was asked about), `notifications/resources/updated` comes back under the published URI, and
// when the last subscriber leaves, the server is told to stop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { EVERYTHING } from './support/everything-http.js';
import { type Connected, connect, createMemoryLogger } from './support/in-memory.js';

let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

const SERVER_URI = 'demo://resource/static/document/architecture.md';
const PUBLISHED_URI = `ev://${SERVER_URI}`;

describe('upstream resource subscriptions (server-everything over stdio)', () => {
  it('passes subscribe and unsubscribe to the server, and its updates back under the published URI', async () => {
    const records: Record<string, unknown>[] = [];
    const config = parseConfig(
      ['[plugins.ev]', 'use = "upstream"', `command = ["node", ${JSON.stringify(EVERYTHING)}]`].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    const c = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
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
    await vi.waitFor(() =>
      expect(records).toContainEqual(
        expect.objectContaining({
          msg: 'upstream: log message',
          data: expect.stringContaining(`Received Subscribe Resource request for URI: ${SERVER_URI}`),
        }),
      ),
    );
    // The server sends updates for subscribed URIs once this tool turns them on (at once, then every 5 s).
    await c.client.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
    await vi.waitFor(() => expect(updated).toContain(PUBLISHED_URI), { timeout: 10_000, interval: 50 });

    await c.client.unsubscribeResource({ uri: PUBLISHED_URI });
    await vi.waitFor(() =>
      expect(records).toContainEqual(
        expect.objectContaining({
          msg: 'upstream: log message',
          data: expect.stringContaining(`Received Unsubscribe Resource request: ${SERVER_URI}`),
        }),
      ),
    );
  });
});
