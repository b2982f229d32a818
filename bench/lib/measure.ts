// The two measurements: tools/call in interleaved A/B rounds (sequential, or several calls in flight), and
// tools/list round trips.
import { addCpuNs, processCpuNs } from './cpu.js';
import type { Endpoint } from './endpoint.js';

/** What one side did across the call rounds. */
export interface CallSamples {
  latenciesMs: number[];
  /** Wall time of each round's batch, in round order. */
  roundMs: number[];
  /** The server's CPU time over all measured batches (ns); undefined where it cannot be read. */
  serverCpuNs: number | undefined;
  /** The very first call, made during warm-up: includes whatever the server does lazily on first use. */
  firstCallMs: number;
  /** Server stderr bytes written while measured; non-zero means it logs on the hot path. */
  stderrBytes: number;
}

/** How an echo tool takes its text and what it answers, so a call can check the answer came back. */
export interface EchoShape {
  /** The argument that carries the text. */
  argument: string;
  /** The text the tool answers with for `sent`. */
  reply(sent: string): string;
}

/** The bench's own echo tool (bench/fixtures/echo-tools.ts): `text`, answered verbatim. */
const BENCH_ECHO: EchoShape = { argument: 'text', reply: (sent) => sent };

export interface CallTarget {
  endpoint: Endpoint;
  /** Published name of the echo tool on this server. */
  tool: string;
  /** Default: the bench's own echo tool. */
  echo?: EchoShape;
}

async function callOnce(target: CallTarget, text: string): Promise<void> {
  const echo = target.echo ?? BENCH_ECHO;
  const result = await target.endpoint.client.callTool({
    name: target.tool,
    arguments: { [echo.argument]: text },
  });
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  if (result.isError || first?.text !== echo.reply(text)) {
    throw new Error(`${target.endpoint.label}: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
  }
}

/**
 * `calls` calls, `inFlight` at a time (each of `inFlight` loops starts its next call when its last one has
 * answered); each latency is pushed to `latenciesMs`. Returns wall time and the server's CPU time.
 */
async function callBatch(
  target: CallTarget,
  calls: number,
  latenciesMs: number[] | undefined,
  inFlight: number,
): Promise<{ ms: number; cpuNs: number | undefined }> {
  const cpuBefore = processCpuNs(target.endpoint.pid);
  const batchStart = performance.now();
  let next = 0;
  const loop = async () => {
    while (next < calls) {
      const i = next;
      next += 1;
      const start = performance.now();
      await callOnce(target, `ping ${i}`);
      latenciesMs?.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, calls)) }, loop));
  const ms = performance.now() - batchStart;
  return { ms, cpuNs: addCpuNs(0, cpuBefore, processCpuNs(target.endpoint.pid)) };
}

export interface CallRotationOptions {
  rounds: number;
  calls: number;
  warmupCalls: number;
  /** Calls kept in flight per side, warm-up included; default 1 (sequential). */
  inFlight?: number;
  /** After the warm-up, just before the first measured round. */
  onRoundsStart?(): void;
  /** After each round, with each side's batch time in the order the targets were given. */
  onRound?(round: number, roundMs: readonly number[]): void;
}

export interface CallRoundsOptions extends Omit<CallRotationOptions, 'onRound'> {
  onRound?(round: number, msA: number, msB: number): void;
}

/**
 * Warms both sides up, then runs `rounds` rounds of `calls` calls on each side: A then B on even rounds,
 * B then A on odd ones, so drift (thermal, background load, GC in this client) falls on both sides alike.
 */
export async function runCallRounds(
  a: CallTarget,
  b: CallTarget,
  options: CallRoundsOptions,
): Promise<{ a: CallSamples; b: CallSamples }> {
  const { onRound, ...rest } = options;
  const [sideA, sideB] = await runCallRotation([a, b], {
    ...rest,
    ...(onRound
      ? { onRound: (round, roundMs) => onRound(round, roundMs[0] ?? Number.NaN, roundMs[1] ?? Number.NaN) }
      : {}),
  });
  if (!sideA || !sideB) throw new Error('runCallRotation returned fewer sides than it was given');
  return { a: sideA, b: sideB };
}

/**
 * Warms every side up in turn, then runs `rounds` rounds of `calls` calls on each side. Round r starts with
 * side r mod n and goes on in order, so over n rounds every side takes every place once and drift (thermal,
 * background load, GC in this client) falls on all sides alike. With two sides: A B, B A, A B, …
 * Returns the samples in the order the targets were given.
 */
export async function runCallRotation(
  targets: readonly CallTarget[],
  options: CallRotationOptions,
): Promise<CallSamples[]> {
  const inFlight = options.inFlight ?? 1;
  /** Runs the warm-up calls; returns the very first call's latency. */
  const warmUp = async (target: CallTarget) => {
    const warmup: number[] = [];
    await callBatch(target, options.warmupCalls, warmup, inFlight);
    return warmup[0] ?? Number.NaN;
  };
  const firstCalls: number[] = [];
  for (const target of targets) firstCalls.push(await warmUp(target));
  // stderrBytes starts negative so that adding the final count leaves what was written while measured.
  const sides = targets.map((target, i) => {
    const data: CallSamples = {
      latenciesMs: [],
      roundMs: [],
      serverCpuNs: 0,
      firstCallMs: firstCalls[i] ?? Number.NaN,
      stderrBytes: -target.endpoint.stderrBytes(),
    };
    return { target, data };
  });
  options.onRoundsStart?.();
  for (let round = 0; round < options.rounds; round += 1) {
    const first = round % sides.length;
    for (const { target, data } of [...sides.slice(first), ...sides.slice(0, first)]) {
      const batch = await callBatch(target, options.calls, data.latenciesMs, inFlight);
      data.roundMs.push(batch.ms);
      data.serverCpuNs = addCpuNs(data.serverCpuNs, 0, batch.cpuNs);
    }
    options.onRound?.(
      round,
      sides.map(({ data }) => data.roundMs[round] ?? Number.NaN),
    );
  }
  for (const { target, data } of sides) data.stderrBytes += target.endpoint.stderrBytes();
  return sides.map(({ data }) => data);
}

export interface ListSamples {
  latenciesMs: number[];
  /** The server's CPU time over all measured lists (ns); undefined where it cannot be read. */
  serverCpuNs: number | undefined;
  tools: number;
  /** Size of the serialized tools array, to show both sides answer with the same payload. */
  payloadBytes: number;
  names: string[];
}

/** `warmup` unmeasured lists per side, then `calls` measured ones, alternating sides and flipping the order. */
export async function runListRounds(
  a: Endpoint,
  b: Endpoint,
  calls: number,
  warmup: number,
): Promise<{ a: ListSamples; b: ListSamples }> {
  const empty = (): ListSamples => ({
    latenciesMs: [],
    serverCpuNs: 0,
    tools: 0,
    payloadBytes: 0,
    names: [],
  });
  const sideA = { endpoint: a, data: empty() };
  const sideB = { endpoint: b, data: empty() };
  const sides = [sideA, sideB];
  for (const { endpoint, data } of sides) {
    for (let i = 0; i < warmup; i += 1) {
      const { tools } = await endpoint.client.listTools();
      data.names = tools.map((tool) => tool.name);
      data.tools = tools.length;
      data.payloadBytes = Buffer.byteLength(JSON.stringify(tools));
    }
  }
  for (let i = 0; i < calls; i += 1) {
    for (const { endpoint, data } of i % 2 === 0 ? sides : [...sides].reverse()) {
      const cpuBefore = processCpuNs(endpoint.pid);
      const start = performance.now();
      await endpoint.client.listTools();
      data.latenciesMs.push(performance.now() - start);
      data.serverCpuNs = addCpuNs(data.serverCpuNs, cpuBefore, processCpuNs(endpoint.pid));
    }
  }
  return { a: sideA.data, b: sideB.data };
}
