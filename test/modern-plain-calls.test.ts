// A 2026-07-28 request that declares nothing it could be asked (no elicitation, sampling or roots) runs its call on
// the request itself, without the input flow a multi round-trip call needs: what the call sees of its request must
// be the same either way (cancellation, progress, the capabilities it declared, a question it cannot be asked).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { definePlugin } from '../src/index.js';
import type { HttpServing } from '../src/protocol/index.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { MODERN_VERSION } from './support/modern-wire.js';

interface Seen {
  cancelledWith?: unknown;
  capabilities?: unknown;
  carries?: boolean;
}
const seen: Seen = {};

const plain = definePlugin({
  id: 'plain',
  version: '1.0.0',
  build: () => ({
    tools: () =>
      ['wait', 'chatty', 'ask', 'look'].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
    callTool: async (name, _args, rc) => {
      if (name === 'wait')
        return new Promise((_resolve, reject) => {
          rc.signal.addEventListener('abort', () => {
            seen.cancelledWith = rc.signal.reason;
            reject(rc.signal.reason as Error);
          });
        });
      if (name === 'chatty') {
        await rc.reportProgress(1, 2, 'half');
        await rc.reportProgress(2, 2, 'done');
        return { content: [{ type: 'text', text: 'spoke' }] };
      }
      if (name === 'ask') {
        const answer = await rc.elicit({
          message: 'Go?',
          requestedSchema: { type: 'object', properties: {} },
        });
        return { content: [{ type: 'text', text: answer.action }] };
      }
      seen.capabilities = rc.clientCapabilities;
      seen.carries = rc.carryInput !== undefined;
      return { content: [{ type: 'text', text: 'looked' }] };
    },
  }),
});

let host: ForesightHost;
let http: HttpServing;

async function modernClient(capabilities: Record<string, object> = {}): Promise<Client> {
  const client = new Client(
    { name: 'plain-test', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN_VERSION } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

beforeAll(async () => {
  host = createHost({ plugins: [plain], logger: createMemoryLogger(), planner: { enabled: false } });
  http = await host.serveHttp({ port: 0 });
});

afterAll(async () => {
  await host.close();
});

describe('a 2026-07-28 call whose request declares nothing it could be asked', () => {
  it('is cancelled with its request: the plugin signal aborts with E_CANCELLED', async () => {
    const client = await modernClient();
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'plain__wait', arguments: {} }, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      await expect
        .poll(() => (seen.cancelledWith as { code?: string } | undefined)?.code)
        .toBe('E_CANCELLED');
    } finally {
      await client.close();
    }
  });

  it('reports progress on its request', async () => {
    const client = await modernClient();
    try {
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'plain__chatty', arguments: {} },
        { onprogress: (p) => void progress.push(`${p.progress}/${p.total} ${p.message}`) },
      );
      expect(textOf(result)).toBe('spoke');
      expect(progress).toEqual(['1/2 half', '2/2 done']);
    } finally {
      await client.close();
    }
  });

  it('sees the capabilities its request declared, and has no input state to carry', async () => {
    const client = await modernClient({ experimental: { note: {} } });
    try {
      expect(textOf(await client.callTool({ name: 'plain__look', arguments: {} }))).toBe('looked');
      expect(seen.capabilities).toMatchObject({ experimental: { note: {} } });
      expect(seen.carries).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('cannot be asked: a question is refused as the missing capability (-32021)', async () => {
    const client = await modernClient();
    try {
      await expect(client.callTool({ name: 'plain__ask', arguments: {} })).rejects.toMatchObject({
        code: -32021,
      });
    } finally {
      await client.close();
    }
  });

  it('while a request that declares elicitation is asked through input_required and its retry', async () => {
    const client = await modernClient({ elicitation: {} });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: {} }));
    try {
      expect(textOf(await client.callTool({ name: 'plain__ask', arguments: {} }))).toBe('accept');
      await client.callTool({ name: 'plain__look', arguments: {} });
      expect(seen.carries).toBe(true);
    } finally {
      await client.close();
    }
  });
});
