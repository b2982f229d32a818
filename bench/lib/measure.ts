// The two measurements: sequential tools/call in interleaved A/B rounds, and tools/list round trips.
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

export interface CallTarget {
  endpoint: Endpoint;
  /** Published name of the echo tool on this server. */
  tool: string;
}

async function callOnce(target: CallTarget, text: string): Promise<void> {
  const result = await target.endpoint.client.callTool({ name: target.tool, arguments: { text } });
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  if (result.isError || first?.text !== text) {
    throw new Error(`${target.endpoint.label}: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
  }
}

/** `calls` sequential calls; each latency is pushed to `latenciesMs`. Returns wall time and the server's CPU time. */
async function callBatch(
  target: CallTarget,
  calls: number,
  latenciesMs: number[] | undefined,
): Promise<{ ms: number; cpuNs: number | undefined }> {
  const cpuBefore = processCpuNs(target.endpoint.pid);
  const batchStart = performance.now();
  for (let i = 0; i < calls; i += 1) {
    const start = performance.now();
    await callOnce(target, `ping ${i}`);
    latenciesMs?.push(performance.now() - start);
  }
  const ms = performance.now() - batchStart;
  return { ms, cpuNs: addCpuNs(0, cpuBefore, processCpuNs(target.endpoint.pid)) };
}

export interface CallRoundsOptions {
  rounds: number;
  calls: number;
  warmupCalls: number;
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
  /** Runs the warm-up calls; returns the very first call's latency. */
  const warmUp = async (target: CallTarget) => {
    const warmup: number[] = [];
    await callBatch(target, options.warmupCalls, warmup);
    return warmup[0] ?? Number.NaN;
  };
  const firstA = await warmUp(a);
  const firstB = await warmUp(b);
  // stderrBytes starts negative so that adding the final count leaves what was written while measured.
  const side = (target: CallTarget, firstCallMs: number) => {
    const data: CallSamples = {
      latenciesMs: [],
      roundMs: [],
      serverCpuNs: 0,
      firstCallMs,
      stderrBytes: -target.endpoint.stderrBytes(),
    };
    return { target, data };
  };
  const sideA = side(a, firstA);
  const sideB = side(b, firstB);
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? [sideA, sideB] : [sideB, sideA];
    for (const { target, data } of order) {
      const batch = await callBatch(target, options.calls, data.latenciesMs);
      data.roundMs.push(batch.ms);
      data.serverCpuNs = addCpuNs(data.serverCpuNs, 0, batch.cpuNs);
    }
    options.onRound?.(
      round,
      sideA.data.roundMs[round] ?? Number.NaN,
      sideB.data.roundMs[round] ?? Number.NaN,
    );
  }
  for (const { target, data } of [sideA, sideB]) data.stderrBytes += target.endpoint.stderrBytes();
  return { a: sideA.data, b: sideB.data };
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
