// A 2025 HTTP upstream that forgets its sessions answers 404 to the old one, as the spec says: Foresight
// initialises a new session and makes the call again, once, and the agent gets its answer. (server-everything
// answers 400 instead, and a 2026-07-28 server has no sessions: upstream-http-recovery.test.ts has those.)
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';
import { type LegacyHttpUpstream, serveLegacyHttp } from './support/legacy-http-upstream.js';

let connected: Connected | undefined;
let upstream: LegacyHttpUpstream | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  await upstream?.close();
  upstream = undefined;
});

async function mount(url: string, protocol: string, records: Record<string, unknown>[]): Promise<Connected> {
  const config = parseConfig(
    ['[plugins.web]', 'use = "upstream"', `url = ${JSON.stringify(url)}`, `protocol = "${protocol}"`].join(
      '\n',
    ),
    '/proj/foresight.toml',
    '/proj',
  );
  connected = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
  await vi.waitFor(
    async () =>
      expect((await connected!.client.listTools()).tools.map((tool) => tool.name)).toContain('web__echo'),
    { timeout: 5_000, interval: 20 },
  );
  return connected;
}

function echo(c: Connected, text: string): Promise<CallToolResult> {
  return c.client.callTool({ name: 'web__echo', arguments: { text } });
}

describe('upstream over Streamable HTTP: a 2025 server that forgets the session', () => {
  it.each(['2025-11-25', 'auto'])(
    'protocol = "%s": the call after the 404 is answered on a renewed session',
    async (protocol) => {
      upstream = await serveLegacyHttp();
      const records: Record<string, unknown>[] = [];
      const c = await mount(upstream.url, protocol, records);
      expect(textOf(await echo(c, 'before'))).toBe('echo: before');
      expect(upstream.sessionsOpened()).toBe(1);

      upstream.forget();
      const answer = await echo(c, 'after');
      expect(answer.isError, textOf(answer)).toBeFalsy();
      expect(textOf(answer)).toBe('echo: after');
      // A new session, not a restart: no failure was counted, and the log says why it initialised again.
      expect(upstream.sessionsOpened()).toBe(2);
      expect(records).toContainEqual(
        expect.objectContaining({ msg: 'upstream: the server forgot the session; initialising a new one' }),
      );
      expect(records).toContainEqual(
        expect.objectContaining({
          level: 'info',
          msg: 'upstream: session renewed',
          protocolVersion: '2025-11-25',
        }),
      );
      expect(records).not.toContainEqual(expect.objectContaining({ msg: 'upstream: lost' }));
    },
  );
});
