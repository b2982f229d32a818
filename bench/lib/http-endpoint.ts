// One benchmarked server over Streamable HTTP: a child process that listens on a local port, and the SDK v2
// Client talking to it with the SDK's StreamableHTTPClientTransport, in the protocol era the bench asks for.
import { type ChildProcess, spawn } from 'node:child_process';
import { once, setMaxListeners } from 'node:events';
import { createServer } from 'node:net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { type BenchEra, type Endpoint, assertEra, createBenchClient } from './endpoint.js';

export interface HttpServerSpec {
  label: string;
  /** Arguments of `node` (this process's executable). */
  args: readonly string[];
  cwd: string;
  /**
   * The MCP endpoint, once the server's output (stdout and stderr so far) says it is listening;
   * undefined until then.
   */
  urlFromOutput(output: string): URL | undefined;
  /** Default legacy. */
  era?: BenchEra;
  /** Variables added to the server's environment (e.g. the one naming its static bearer token); default none. */
  env?: Readonly<Record<string, string>>;
  /** Headers sent with every request (e.g. `authorization`); default none. */
  headers?: Readonly<Record<string, string>>;
}

const OUTPUT_TAIL_CHARS = 4000;
const READY_TIMEOUT_MS = 20_000;
const RETRY_MS = 50;
const EXIT_GRACE_MS = 5000;

/** A TCP port free right now on 127.0.0.1, for a server that cannot report the port it bound. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no port from the probe socket');
  return address.port;
}

/** Ends the child with SIGTERM (so it can write a CPU profile), then SIGKILL if it lingers. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * fetch, after lifting the listener cap of the request's signal. The SDK passes one long-lived signal to every
 * request of a session, and undici leaves an abort listener on it per request until that Request is garbage
 * collected; past undici's cap of 1500 Node prints a warning per call. Both HTTP sides pay the same.
 */
const fetchWithoutListenerCap: typeof fetch = (input, init) => {
  if (init?.signal) setMaxListeners(0, init.signal);
  return fetch(input, init);
};

/** The `code` of an error and of each error in its `cause` chain (the SDK wraps fetch's failure). */
function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let at = error, depth = 0; typeof at === 'object' && at !== null && depth < 5; depth += 1) {
    const { code, cause } = at as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    at = cause;
  }
  return codes;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns the server, waits for its output to name the URL, then connects; a server may print before its
 * socket is bound, so a refused connection is retried until READY_TIMEOUT_MS.
 */
export async function startHttpEndpoint(spec: HttpServerSpec): Promise<Endpoint> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...spec.args], {
    cwd: spec.cwd,
    // As for stdio endpoints: the SDK's default environment, so no child inherits the bench's tsx loader.
    env: { ...getDefaultEnvironment(), ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderrBytes = 0;
  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrBytes += chunk.length;
    record(chunk);
  });
  const fail = async (why: string, cause?: unknown) => {
    await stop(child);
    return new Error(`${spec.label} did not start: ${why}\n${output}`, { cause });
  };

  const deadline = performance.now() + READY_TIMEOUT_MS;
  let url: URL | undefined;
  while ((url = spec.urlFromOutput(output)) === undefined) {
    if (child.exitCode !== null) throw await fail(`exited with code ${child.exitCode}`);
    if (performance.now() > deadline) throw await fail('no URL in its output');
    await sleep(RETRY_MS);
  }
  const era = spec.era ?? 'legacy';
  let client = createBenchClient(era);
  for (;;) {
    try {
      await client.connect(
        new StreamableHTTPClientTransport(url, {
          fetch: fetchWithoutListenerCap,
          ...(spec.headers ? { requestInit: { headers: { ...spec.headers } } } : {}),
        }),
      );
      assertEra(spec.label, client, era);
      break;
    } catch (error) {
      const refused = causeCodes(error).includes('ECONNREFUSED');
      if (!refused || performance.now() > deadline) throw await fail((error as Error).message, error);
      // A client whose connect failed is not reused: a fresh one negotiates from scratch.
      await client.close().catch(() => {});
      client = createBenchClient(era);
      await sleep(RETRY_MS);
    }
  }
  return {
    label: spec.label,
    client,
    connectMs: performance.now() - startedAt,
    pid: child.pid,
    url,
    stderrBytes: () => stderrBytes,
    close: async () => {
      await client.close().catch(() => {});
      await stop(child);
    },
  };
}
