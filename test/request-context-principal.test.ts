// RequestContext.principal: who the request comes from, as a plugin sees it, inline and in a worker thread.
// (Over HTTP with OAuth access tokens: test/oauth-http.test.ts.) Worker isolation runs the compiled host (dist/).
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../dist/config/index.js';
import { type ForesightHost, createHost } from '../dist/create-host.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';

const MODULE = fileURLToPath(new URL('./fixtures/plugins/whoami.mjs', import.meta.url));

let host: ForesightHost | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function principalSeen(pluginTable: string[]): Promise<string> {
  const config = parseConfig(
    ['[plugins.who]', `module = ${JSON.stringify(MODULE)}`, ...pluginTable].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  host = createHost({ config, logger: createMemoryLogger() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'principal-test', version: '1.0.0' });
  await client.connect(clientSide);
  return textOf(await client.callTool({ name: 'who__principal', arguments: {} }));
}

describe('RequestContext.principal', () => {
  it('is "local" for an in-memory (or stdio) connection', async () => {
    expect(await principalSeen([])).toBe('local');
  });

  it('reaches a plugin in a worker thread', async () => {
    expect(await principalSeen(['isolation = "worker"'])).toBe('local');
  });
});
