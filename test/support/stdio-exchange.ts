// A host's stdio server driven in process: one 2025 client's handshake, then requests written at once, and their
// answers by id once every one has come back.
import { PassThrough } from 'node:stream';
import { expect } from 'vitest';
import type { ForesightHost } from '../../src/create-host.js';

export interface StdioAnswer {
  id?: number;
  result?: Record<string, unknown> & {
    tools?: { name: string }[];
    resources?: { uri: string }[];
    contents?: unknown[];
    isError?: boolean;
  };
  error?: { code: number; message: string };
}

/**
 * Serves `host` over stdio, sends `initialize` (id 1) and `notifications/initialized`, then each of `requests` with
 * ids 2, 3, …; resolves with every answer by id once all of them have come, the server closed again.
 */
export async function exchangeOverStdio(
  host: Pick<ForesightHost, 'serveStdio'>,
  requests: readonly { method: string; params?: object }[],
): Promise<Map<number, StdioAnswer>> {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers = new Map<number, StdioAnswer>();
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const message = JSON.parse(buffered.slice(0, newline)) as StdioAnswer;
      buffered = buffered.slice(newline + 1);
      if (typeof message.id === 'number') answers.set(message.id, message);
    }
  });
  const serving = await host.serveStdio({ input, output });
  const line = (message: object) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
  const initialize = {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio', version: '1' } },
  };
  input.write(
    [initialize, { method: 'notifications/initialized' }, ...requests.map((r, i) => ({ id: i + 2, ...r }))]
      .map(line)
      .join(''),
  );
  await expect.poll(() => requests.every((_r, i) => answers.has(i + 2))).toBe(true);
  input.end();
  await serving.closed;
  return answers;
}
