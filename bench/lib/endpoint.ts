// One benchmarked server: a child process spawned by the SDK's StdioClientTransport, and the SDK v2 Client
// talking to it in the protocol era the bench asks for.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

/** legacy: the 2025-11-25 initialize handshake (the client's default); modern: 2026-07-28, pinned. */
export type BenchEra = 'legacy' | 'modern';

export const MODERN_VERSION = '2026-07-28';

export interface Endpoint {
  label: string;
  client: Client;
  /** Spawn + connect (initialize, or the server/discover probe of a modern client), as the client saw it. */
  connectMs: number;
  /** The server's process id. */
  pid: number | undefined;
  /** Where an HTTP server listens (its MCP endpoint); undefined over stdio. */
  url?: URL;
  /** Bytes the server has written to stderr so far (logs). */
  stderrBytes(): number;
  close(): Promise<void>;
}

const STDERR_TAIL_CHARS = 4000;

export interface BenchClientOptions {
  /**
   * Declares form elicitation and accepts every question with `{ ok: true }`, counting them in `asked.count`;
   * default none (the client declares no capabilities).
   */
  elicitation?: { asked: { count: number } };
}

/** A bench client for `era`: the default options for legacy, a pin (no fallback) for modern. */
export function createBenchClient(era: BenchEra, options: BenchClientOptions = {}): Client {
  const client = new Client(
    { name: 'foresight-bench', version: '1.0.0' },
    {
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {}),
      ...(options.elicitation ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  const { elicitation } = options;
  if (elicitation) {
    // The same handler answers a 2025 elicitation/create request and a 2026-07-28 input_required round
    // (the client's auto-fulfilment dispatches the embedded request to it, then retries the call).
    client.setRequestHandler('elicitation/create', () => {
      elicitation.asked.count += 1;
      return Promise.resolve({ action: 'accept' as const, content: { ok: true } });
    });
  }
  return client;
}

/** Throws unless the connection landed on `era`: a cell must measure the era it is named for. */
export function assertEra(label: string, client: Client, era: BenchEra): void {
  const landed = client.getProtocolEra();
  if (landed !== era) throw new Error(`${label}: connected in the ${String(landed)} era, not ${era}`);
}

export async function startEndpoint(
  label: string,
  args: readonly string[],
  cwd: string,
  era: BenchEra = 'legacy',
  clientOptions: BenchClientOptions = {},
): Promise<Endpoint> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    cwd,
    // The SDK's default environment (no NODE_OPTIONS), so neither child inherits this process's tsx loader.
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  });
  let stderrBytes = 0;
  let stderrTail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrBytes += chunk.length;
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  // A modern pin probes with server/discover on a short-lived sibling process first (the SDK's stdio
  // transport does that so a legacy-only server's one process is not spent): connectMs includes it.
  const client = createBenchClient(era, clientOptions);
  const startedAt = performance.now();
  try {
    await client.connect(transport);
    assertEra(label, client, era);
  } catch (error) {
    await client.close().catch(() => {});
    throw new Error(`${label} did not start: ${(error as Error).message}\n${stderrTail}`, { cause: error });
  }
  return {
    label,
    client,
    connectMs: performance.now() - startedAt,
    pid: transport.pid ?? undefined,
    stderrBytes: () => stderrBytes,
    close: () => client.close(),
  };
}
