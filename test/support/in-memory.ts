// Test seam: a real SDK v2 Client talking to a Foresight host through the SDK's in-memory transport pair.
import { Client, type ClientOptions, InMemoryTransport } from '@modelcontextprotocol/client';
import type { Logger } from '../../src/contract/index.js';
import { type CreateHostOptions, type ForesightHost, createHost } from '../../src/create-host.js';

export interface Connected {
  host: ForesightHost;
  client: Client;
  close(): Promise<void>;
}

/** Collects log records instead of printing them, so tests can assert on what the host logged. */
export function createMemoryLogger(
  records: Record<string, unknown>[] = [],
  bindings: Record<string, unknown> = {},
): Logger & { records: Record<string, unknown>[] } {
  const at = (level: string) => (obj: unknown, msg?: string) => {
    records.push({
      level,
      ...bindings,
      ...(typeof obj === 'object' && obj !== null ? obj : { value: obj }),
      msg,
    });
  };
  return {
    records,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => createMemoryLogger(records, { ...bindings, ...more }),
  };
}

/** `prepare` sets up the client before it connects (handlers the server may call at once, such as roots). */
export async function connect(
  options: CreateHostOptions,
  clientOptions: ClientOptions = { capabilities: {} },
  prepare?: (client: Client) => void,
): Promise<Connected> {
  const host = createHost({ logger: createMemoryLogger(), ...options });
  const client = await connectClient(host, clientOptions, prepare);
  return {
    host,
    client,
    close: async () => {
      await client.close();
      await host.close();
    },
  };
}

/**
 * Another session on `host`: a real SDK client over its own in-memory transport pair. The caller closes it. The
 * v2 Client's default handshake is `initialize`, so this is a 2025-era session, the one `host.connect` serves.
 */
export async function connectClient(
  host: ForesightHost,
  clientOptions: ClientOptions = { capabilities: {} },
  prepare?: (client: Client) => void,
): Promise<Client> {
  // Both halves come from the client package: each SDK package keeps its own copy of the pair's private state.
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' }, clientOptions);
  prepare?.(client);
  await client.connect(clientSide);
  return client;
}

/** The text blocks of a tool result, joined; takes any object, so a raw JSON-RPC result fits too. */
export function textOf(result: object): string {
  const content = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
