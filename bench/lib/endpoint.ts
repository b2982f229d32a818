// One benchmarked server: a child process spawned by the SDK's StdioClientTransport, and the SDK Client talking to it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface Endpoint {
  label: string;
  client: Client;
  /** Spawn + MCP initialize, as the client saw it. */
  connectMs: number;
  /** The server's process id. */
  pid: number | undefined;
  /** Bytes the server has written to stderr so far (logs). */
  stderrBytes(): number;
  close(): Promise<void>;
}

const STDERR_TAIL_CHARS = 4000;

export async function startEndpoint(label: string, args: readonly string[], cwd: string): Promise<Endpoint> {
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
  const client = new Client({ name: 'foresight-bench', version: '1.0.0' });
  const startedAt = performance.now();
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => {});
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
