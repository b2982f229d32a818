// A 2026-07-28 agent's retry reaching a Foresight process that does not hold the upstream call its question came
// from (two processes sharing the requestState key, behind one address): a tool that may write is refused before
// anything is sent, so the server ran it once; a read-only tool runs again there, its question answered from the
// retry. The upstream is test/fixtures/upstreams/modern.mjs on the 2025 handshake, asking mid-call.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type FetchLike, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { createHost as createCompiledHost } from '../dist/create-host.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { MODERN_VERSION } from './support/modern-wire.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/upstreams/modern.mjs');
const KEY = 'r'.repeat(48);

/** The hosts to close: a compiled one (worker isolation) is the same host built from dist/. */
const hosts: Pick<ForesightHost, 'close'>[] = [];
const clients: Client[] = [];
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'foresight-replay-'));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** One Foresight process over HTTP with the fixture mounted as `up` (each spawns its own server). */
async function serve(
  protocol: '2025-11-25' | '2026-07-28' = '2025-11-25',
  isolation: 'inline' | 'worker' = 'inline',
): Promise<string> {
  const config = parseConfig(
    [
      '[plugins.up]',
      'use = "upstream"',
      `command = ["node", ${JSON.stringify(FIXTURE)}]`,
      `protocol = "${protocol}"`,
      `isolation = "${isolation}"`,
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  // A worker thread imports plain JavaScript: worker isolation runs the compiled host (dist/).
  const host = (isolation === 'worker' ? createCompiledHost : createHost)({
    config,
    requestStateKey: KEY,
    planner: { enabled: false },
    logger: createMemoryLogger(),
  });
  hosts.push(host);
  return (await host.serveHttp({ port: 0 })).url;
}

/** A 2026-07-28 agent that answers elicitation with `ok`; `fetch` decides where each of its requests goes. */
async function modernAgent(url: string, fetch?: FetchLike): Promise<Client> {
  const client = new Client(
    { name: 'replay-agent', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN_VERSION } } },
  );
  client.setRequestHandler('elicitation/create', () =>
    Promise.resolve({ action: 'accept', content: { ok: true } }),
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {}));
  clients.push(client);
  await vi.waitFor(
    async () => expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('up__write'),
    { timeout: 15_000, interval: 50 },
  );
  return client;
}

/**
 * An agent connected to `a` whose retries land on `b`; B's upstream is up first, so a refusal there is not a
 * connection's.
 */
async function agentRetryingOn(a: string, b: string): Promise<Client> {
  await modernAgent(b);
  return modernAgent(a, splitting(a, b));
}

/** A load balancer that sends the agent's first request to `first` and its retry (the one with state) to `retry`. */
function splitting(first: string, retry: string): FetchLike {
  return (url, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const to = body.includes('"requestState"') ? retry : first;
    return fetch(String(url) === first ? to : url, init);
  };
}

const runsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');

describe("a 2026-07-28 agent's retry on a Foresight process that does not hold the upstream call", () => {
  it('is refused for a tool that may write: nothing is sent again, and the server ran it once', async () => {
    const [a, b] = [await serve(), await serve()];
    const agent = await agentRetryingOn(a, b);
    const runs = path.join(dir, 'runs');

    const answer = await agent.callTool({ name: 'up__write', arguments: { runs } });

    expect(answer.isError).toBe(true);
    expect(answer._meta?.['foresight/error']).toEqual({
      code: 'E_UPSTREAM_CALL_NOT_HELD',
      kind: 'unavailable',
    });
    expect(textOf(answer)).toMatch(
      /waiting for your answers on another Foresight process, or its wait expired/,
    );
    expect(textOf(answer)).toMatch(/nothing was sent to the server again/);
    expect(textOf(answer)).toMatch(/Call the tool again/);
    expect(runsOf(runs)).toEqual(['write']);
  });

  it('runs a read-only tool again there, its question answered from the retry', async () => {
    const [a, b] = [await serve(), await serve()];
    const agent = await agentRetryingOn(a, b);
    const runs = path.join(dir, 'runs');

    const answer = await agent.callTool({ name: 'up__peek', arguments: { runs } });

    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toBe('confirmed: true (legacy)');
    // A's run waits for a retry that went elsewhere; B's ran from the start.
    expect(runsOf(runs)).toEqual(['peek', 'peek']);
  });

  it('goes on as before when the retry comes back to the process that holds the call', async () => {
    const url = await serve();
    const agent = await modernAgent(url);
    const runs = path.join(dir, 'runs');

    const answer = await agent.callTool({ name: 'up__write', arguments: { runs } });

    expect(textOf(answer)).toBe('confirmed: true (legacy)');
    expect(runsOf(runs)).toEqual(['write']);
  });
});

/** A run of the fixture on the modern revision: the process that ran it and the requestState it brought. */
const modernRun = (line: string) => {
  const [tool, pid, state] = line.split(' ');
  return { tool, pid, state };
};

describe.each(['inline', 'worker'] as const)(
  'a 2026-07-28 upstream (isolation %s), relayed round by round to a 2026-07-28 agent',
  (isolation) => {
    it("resumes the server's round on another process: the retry brings the server's own state there", async () => {
      const [a, b] = [await serve('2026-07-28', isolation), await serve('2026-07-28', isolation)];
      const agent = await agentRetryingOn(a, b);
      const runs = path.join(dir, 'runs');

      const answer = await agent.callTool({ name: 'up__write', arguments: { runs } });

      expect(answer.isError, textOf(answer)).toBeFalsy();
      expect(textOf(answer)).toBe('confirmed: true (input_required)');
      const [first, second, ...more] = runsOf(runs).map(modernRun);
      expect(more).toEqual([]);
      // A's server asked, and minted its state; B's server got that state with the answer, and nothing was rerun.
      expect(first).toEqual({ tool: 'write', pid: expect.stringMatching(/^\d+$/), state: '-' });
      expect(second?.state).toBe(`write@${first?.pid}`);
      expect(second?.pid).not.toBe(first?.pid);
    });

    it.runIf(isolation === 'inline')(
      'refuses a write whose carried round reaches a process that speaks 2025-11-25 to the server, which would run it afresh',
      async () => {
        const [a, b] = [await serve('2026-07-28'), await serve('2025-11-25')];
        const agent = await agentRetryingOn(a, b);
        const runs = path.join(dir, 'runs');

        const answer = await agent.callTool({ name: 'up__write', arguments: { runs } });

        expect(answer._meta?.['foresight/error']).toEqual({
          code: 'E_UPSTREAM_CALL_NOT_HELD',
          kind: 'unavailable',
        });
        // Only A's server ran it, when it asked.
        expect(runsOf(runs).map((line) => modernRun(line).state)).toEqual(['-']);
      },
    );

    it('sends the round back to the same server when the retry returns to the process that asked', async () => {
      const agent = await modernAgent(await serve('2026-07-28', isolation));
      const runs = path.join(dir, 'runs');

      const answer = await agent.callTool({ name: 'up__write', arguments: { runs } });

      expect(textOf(answer)).toBe('confirmed: true (input_required)');
      const [first, second, ...more] = runsOf(runs).map(modernRun);
      expect(more).toEqual([]);
      expect(second).toEqual({ tool: 'write', pid: first?.pid, state: `write@${first?.pid}` });
    });
  },
);
