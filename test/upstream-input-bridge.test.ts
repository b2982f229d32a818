// A 2026-07-28 agent calling through Foresight a tool of an upstream that asks for input mid-call: a 2025 upstream
// (test/fixtures/upstreams/modern.mjs spoken to on the legacy handshake, where it sends elicitation/create) and a
// 2026-07-28 one (the same fixture, which answers input_required). The agent's own elicitation handler is asked,
// under the upstream's key where it has one, and the call completes; an agent without elicitation gets -32021.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { MODERN_VERSION } from './support/modern-wire.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/upstreams/modern.mjs');

let host: ForesightHost | undefined;
let http: HttpServing | undefined;
let agent: Client | undefined;

afterEach(async () => {
  await agent?.close();
  await http?.close();
  await host?.close();
  agent = http = host = undefined;
});

/** Foresight over HTTP with the fixture mounted as `up`, spoken to on `protocol`. */
async function serve(protocol: '2025-11-25' | '2026-07-28'): Promise<string> {
  const config = parseConfig(
    [
      '[plugins.up]',
      'use = "upstream"',
      `command = ["node", ${JSON.stringify(FIXTURE)}]`,
      `protocol = "${protocol}"`,
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  host = createHost({ config, planner: { enabled: false }, logger: createMemoryLogger() });
  http = await host.serveHttp({ port: 0 });
  return http.url;
}

/** A 2026-07-28 agent; with `asked`, it declares elicitation and answers `ok`, noting each message and key. */
async function modernAgent(url: string, asked?: { message: string; key: unknown }[]): Promise<Client> {
  const client = new Client(
    { name: 'modern-agent', version: '1.0.0' },
    {
      capabilities: asked ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: { pin: MODERN_VERSION } },
    },
  );
  if (asked)
    client.setRequestHandler('elicitation/create', (request, ctx) => {
      asked.push({ message: request.params.message, key: ctx.mcpReq.id });
      return Promise.resolve({ action: 'accept', content: { ok: true } });
    });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  agent = client;
  await vi.waitFor(
    async () => expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('up__confirm'),
    { timeout: 15_000, interval: 50 },
  );
  return client;
}

describe.each([
  ['2025-11-25', 'legacy', /^elicitation-1$/],
  ['2026-07-28', 'input_required', /^confirm$/],
] as const)('a 2026-07-28 agent through a %s upstream', (protocol, how, key) => {
  it("is asked the upstream's mid-call elicitation as input_required, and its answer completes the call", async () => {
    const asked: { message: string; key: unknown }[] = [];
    const client = await modernAgent(await serve(protocol), asked);
    const answer = await client.callTool({ name: 'up__confirm', arguments: {} });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toBe(`confirmed: true (${how})`);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toBe('Go ahead?');
    // A modern upstream's own key reaches the agent; a 2025 one has none, so Foresight numbers it.
    expect(String(asked[0]?.key)).toMatch(key);
  });

  it('without the elicitation capability gets MissingRequiredClientCapability, not a failed tool', async () => {
    const client = await modernAgent(await serve(protocol));
    const failure = await client.callTool({ name: 'up__confirm', arguments: {} }).then(
      (result) => result,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(ProtocolErrorCode.MissingRequiredClientCapability);
  });
});
