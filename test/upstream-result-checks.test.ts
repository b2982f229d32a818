// What a 2025 upstream's tool results are checked against on their way to the agent. A tool without an output
// schema is called by name with the spec's CallToolResult schema (the provider's lean path); one with an output
// schema through the SDK client's callTool, which also checks the structured content against it. A real Foresight
// host mounts a real SDK 1.x server (fixtures/upstreams/checked-results.mjs) over stdio.
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const CHECKED_RESULTS = fileURLToPath(new URL('./fixtures/upstreams/checked-results.mjs', import.meta.url));

let c: Connected;

beforeAll(async () => {
  const config = parseConfig(
    ['[plugins.cr]', 'use = "upstream"', `command = ["node", ${JSON.stringify(CHECKED_RESULTS)}]`].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  c = await connect({ config, logger: createMemoryLogger([]) });
  await vi.waitFor(
    async () => expect((await c.client.listTools()).tools.map((tool) => tool.name)).toContain('cr__plain'),
    { timeout: 15_000, interval: 50 },
  );
});

afterAll(async () => {
  await c?.close();
});

const call = (name: string, answer: string) =>
  c.client.callTool({ name, arguments: { answer } }) as Promise<CallToolResult>;

describe('a 2025 upstream tool without an output schema', () => {
  it('answers what the server answered', async () => {
    const result = await call('cr__plain', 'good');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('plain answer');
  });

  it('refuses an answer that is not a tool result, naming what was wrong', async () => {
    const result = await call('cr__plain', 'malformed');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/protocol error[^]*invalid tools\/call result[^]*content/i);
    // The connection serves on.
    expect(textOf(await call('cr__plain', 'good'))).toBe('plain answer');
  });
});

describe('a 2025 upstream tool with an output schema', () => {
  it('answers structured content that fits the schema', async () => {
    const result = await call('cr__reading', 'good');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ celsius: 21 });
  });

  it('refuses structured content the schema does not allow', async () => {
    const result = await call('cr__reading', 'off-schema');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /protocol error[^]*does not match the tool's output schema: data\/celsius/,
    );
  });
});
