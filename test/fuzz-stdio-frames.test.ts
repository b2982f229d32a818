// Fuzz: random JSON-RPC frames on the built CLI's stdin (a legacy session, a modern 2026-07-28 connection, and a
// connection whose opening the fuzzer itself decides). Each request with a fresh id gets a well-formed answer
// that is never an internal error, stdout carries only JSON-RPC lines, the server answers a probe after every
// run and never dies, and no secret shows on stdout or stderr.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, killAll, spawnCli, withTimeout } from './support/cli.js';
import {
  ANSWER_TIMEOUT_MS,
  type FuzzRig,
  fuzzRuns,
  fuzzSeed,
  leakIn,
  makeFuzzRig,
  unclearAnswer,
  wireProblem,
} from './support/fuzz.js';
import { type Era, type Frame, frames } from './support/fuzz-frames.js';
import { modernMeta } from './support/modern-wire.js';

let rig: FuzzRig;

beforeAll(async () => {
  rig = await makeFuzzRig();
});

afterAll(async () => {
  await killAll();
  await rig?.remove();
});

type Opening = Era | 'none';

/** One CLI over stdio, read line by line: every stdout line is kept raw and, when it parses, as a message. */
class StdioServer {
  readonly lines: string[] = [];
  readonly messages: Record<string, unknown>[] = [];
  private buffer = '';
  private readonly waiters = new Set<() => void>();
  private checkedLines = 0;
  private checkedStderr = 0;

  constructor(readonly proc: CliProcess) {
    proc.child.stdout?.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let at = this.buffer.indexOf('\n'); at !== -1; at = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        this.lines.push(line);
        try {
          this.messages.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // Kept in `lines`; the run's check reports it.
        }
        for (const wake of this.waiters) wake();
      }
    });
  }

  async write(line: string): Promise<void> {
    const stdin = this.proc.child.stdin;
    if (!stdin) throw new Error('no stdin');
    await new Promise<void>((resolve, reject) =>
      stdin.write(`${line}\n`, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** The response to `id` (a message with that id and no method), waiting for it as long as an answer may take. */
  answerTo(id: string | number): Promise<Record<string, unknown>> {
    const found = new Promise<Record<string, unknown>>((resolve) => {
      const check = () => {
        const message = this.messages.find((m) => m.id === id && !('method' in m));
        if (!message) return;
        this.waiters.delete(check);
        resolve(message);
      };
      this.waiters.add(check);
      check();
    });
    const exited = this.proc.exited.then((exit) => {
      throw new Error(
        `the server died (${JSON.stringify(exit)}); stderr tail:\n${this.proc.stderr().slice(-2000)}`,
      );
    });
    return withTimeout(
      Promise.race([found, exited]),
      ANSWER_TIMEOUT_MS,
      `an answer to id ${JSON.stringify(id)}`,
    );
  }

  /** Problems in what the server printed since the last call: non-JSON-RPC lines, internal errors, secrets. */
  newProblems(): string[] {
    const problems: string[] = [];
    for (const line of this.lines.slice(this.checkedLines)) {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        problems.push(`stdout line is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
        continue;
      }
      const problem = wireProblem(message) ?? unclearAnswer(message as Record<string, unknown>);
      if (problem) problems.push(`${problem}: ${line.slice(0, 300)}`);
      const leak = leakIn(rig, line);
      if (leak) problems.push(`stdout: ${leak}`);
    }
    this.checkedLines = this.lines.length;
    const stderr = this.proc.stderr();
    const leak = leakIn(rig, stderr.slice(this.checkedStderr));
    if (leak) problems.push(`stderr: ${leak}`);
    this.checkedStderr = stderr.length;
    return problems;
  }
}

let ids = 0;
const freshId = (): string | number => (++ids % 2 === 0 ? `fz-${ids}` : 1_000_000 + ids);

async function startServer(opening: Opening): Promise<StdioServer> {
  const proc = spawnCli(['serve', '--config', rig.config], { cwd: rig.dir, env: rig.env });
  const server = new StdioServer(proc);
  await proc.waitForStderr(/serving stdio/);
  if (opening === 'legacy') {
    const id = freshId();
    await server.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'fuzz', version: '1' },
        },
      }),
    );
    expect((await server.answerTo(id)).result).toBeDefined();
    await server.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  } else if (opening === 'modern') {
    // An enveloped request opens the 2026-07-28 era for good (a server/discover opening does not: see the known
    // bugs below).
    const id = freshId();
    await server.write(
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: modernMeta() } }),
    );
    expect((await server.answerTo(id)).result).toBeDefined();
  }
  return server;
}

/** Asks the server something every connection of its era answers; `needResult` when the era is known. */
async function probe(server: StdioServer, era: Opening, needResult: boolean): Promise<void> {
  const id = `probe-${++ids}`;
  const request =
    era === 'modern'
      ? { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: modernMeta() } }
      : { jsonrpc: '2.0', id, method: 'ping' };
  await server.write(JSON.stringify(request));
  const answer = await server.answerTo(id);
  if (needResult) expect(answer.result, `probe ${JSON.stringify(answer)}`).toBeDefined();
}

/** One run: write the frames, probe, then every tracked request must have its answer; then check the output. */
async function runFrames(server: StdioServer, era: Opening, lines: readonly Frame[]): Promise<void> {
  for (const frame of lines) await server.write(frame.line);
  // The answers first, with no further input: an answer held back until the next line arrives is a hang.
  for (const frame of lines)
    if (frame.tracked !== undefined) {
      const answer = await server.answerTo(frame.tracked);
      expect(wireProblem(answer), `answer to ${frame.line.slice(0, 300)}`).toBeUndefined();
    }
  await probe(server, era, era !== 'none');
  expect(
    server.newProblems(),
    `after frames ${JSON.stringify(lines.map((f) => f.line.slice(0, 200)))}`,
  ).toEqual([]);
  expect(server.proc.child.exitCode).toBeNull();
}

describe.each([
  { opening: 'legacy' as const, seed: 170_101, runs: 120 },
  { opening: 'modern' as const, seed: 170_102, runs: 120 },
])('fuzz: random JSON-RPC frames over stdio, $opening era', ({ opening, seed, runs }) => {
  let server: StdioServer;

  beforeAll(async () => {
    server = await startServer(opening);
  });

  it('answers every request with a well-formed, non-internal answer, keeps serving, leaks nothing', async () => {
    await fc.assert(
      fc.asyncProperty(frames(opening, freshId), async (lines) => {
        // A death fails the run that caused it; a fresh server lets fast-check shrink to the lines that kill.
        if (server.proc.child.exitCode !== null || server.proc.child.signalCode !== null)
          server = await startServer(opening);
        await runFrames(server, opening, lines);
      }),
      { seed: fuzzSeed(seed), numRuns: fuzzRuns(runs), endOnFailure: true },
    );
    await probe(server, opening, true);
  });
});

describe('fuzz: random JSON-RPC frames over stdio, the opening left to the fuzzer', () => {
  it('whatever comes first decides the era; every request still gets a well-formed answer', async () => {
    // A fresh server every few runs, so many different first lines get to open a connection.
    const RUNS_PER_SERVER = 8;
    let runs = 0;
    let server: StdioServer | undefined;
    const either = fc.oneof(frames('legacy', freshId), frames('modern', freshId));
    await fc.assert(
      fc.asyncProperty(either, async (lines) => {
        if (server === undefined || runs++ % RUNS_PER_SERVER === 0) {
          server?.proc.child.stdin?.end();
          server = await startServer('none');
        }
        await runFrames(server, 'none', lines);
      }),
      { seed: fuzzSeed(170_103), numRuns: fuzzRuns(24), endOnFailure: true },
    );
  });
});

// Found by this suite: bad params answered as internal errors, and requests served before the connection opened.
describe('fuzz: what the suite found, fixed', () => {
  it('bad params of any method but tools/call: -32602 with a sentence, not -32603 with a zod issue dump', async () => {
    const server = await startServer('legacy');
    const methods = [
      'prompts/get',
      'completion/complete',
      'resources/read',
      'resources/subscribe',
      'resources/unsubscribe',
      'logging/setLevel',
      'initialize',
    ] as const;
    const request = fc.record({
      method: fc.constantFrom(...methods),
      params: fc.option(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ method, params }) => {
        const id = freshId();
        await server.write(
          JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === null ? {} : { params }) }),
        );
        const answer = await server.answerTo(id);
        expect(unclearAnswer(answer), JSON.stringify(answer).slice(0, 300)).toBeUndefined();
      }),
      { seed: fuzzSeed(170_104), numRuns: fuzzRuns(40) },
    );
  });

  it('after a server/discover opening, an un-enveloped request is refused at once and discover keeps working', async () => {
    const server = await startServer('none');
    await probe(server, 'modern', true);
    const id = freshId();
    await server.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
    // Not served as a 2025 request: the connection never sent initialize.
    const answer = await server.answerTo(id);
    expect((answer.error as { code?: number } | undefined)?.code).toBe(-32600);
    // The refusal did not pin the connection to 2025: discover is still served.
    await probe(server, 'modern', true);
  });
});
