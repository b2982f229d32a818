// The host tells a plugin whether a tool call is read-only, from the planner's value model (the user's [tools]
// blocks over the tool's readOnlyHint), with the planner on or off, and in a worker thread too. The upstream
// plugin relies on it to let read-only calls wait out a restart (test/upstream-restart-calls.test.ts).
// Worker isolation runs the compiled host (dist/), since a worker thread imports plain JavaScript.
import { fileURLToPath } from 'node:url';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../dist/config/index.js';
import { type ForesightHost, createHost } from '../dist/create-host.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';

const MODULE = fileURLToPath(new URL('./fixtures/plugins/side-effects.mjs', import.meta.url));

let host: ForesightHost | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function readOnlyAsSeen(top: string[], pluginTable: string[] = []): Promise<Record<string, string>> {
  const config = parseConfig(
    [
      ...top,
      '[plugins.se]',
      `module = ${JSON.stringify(MODULE)}`,
      ...pluginTable,
      '[tools."se__unsure"]',
      'side_effect = "read_only"',
      // A block that says nothing of side effects leaves the tool's annotation in force.
      '[tools."se__look"]',
      'value_class = "critical"',
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  host = createHost({ config, logger: createMemoryLogger() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'read-only-test', version: '1.0.0' });
  await client.connect(clientSide);
  const seen: Record<string, string> = {};
  for (const tool of ['look', 'change', 'unsure'])
    seen[tool] = textOf(await client.callTool({ name: `se__${tool}`, arguments: {} }));
  return seen;
}

describe('RequestContext.readOnly', () => {
  const expected = { look: 'true', change: 'false', unsure: 'true' };

  it('follows the value model, planner on', async () => {
    expect(await readOnlyAsSeen([])).toEqual(expected);
  });

  it('follows the value model, planner off', async () => {
    expect(await readOnlyAsSeen(['[planner]', 'enabled = false'])).toEqual(expected);
  });

  it('reaches a plugin in a worker thread', async () => {
    expect(await readOnlyAsSeen([], ['isolation = "worker"'])).toEqual(expected);
  });
});
