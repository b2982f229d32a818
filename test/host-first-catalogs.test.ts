// The plugin contract's `catalogsSettled()`: any plugin whose catalogs arrive after start() holds the first lists
// until they are in; one that says `starting` in health() without the hook is waited for too; a hook that fails
// or never settles holds them no longer than that (its failure) or its start deadline.
import { afterEach, describe, expect, it } from 'vitest';
import { definePlugin, type Plugin, type ToolDescriptor } from '../src/contract/index.js';
import { type Connected, connect, createMemoryLogger } from './support/in-memory.js';
import { TEST_TIMEOUT_MS } from './support/patience.js';

let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
});

const tool = (name: string): ToolDescriptor => ({ name, inputSchema: { type: 'object', properties: {} } });
const ok = { content: [{ type: 'text' as const, text: 'ok' }] };

/** A plugin whose one tool arrives `afterMs` after start(), announced with list_changed. */
function late(
  id: string,
  afterMs: number,
  how: { hook?: 'resolves' | 'rejects' | 'never'; health?: boolean },
): Plugin {
  return definePlugin({
    id,
    version: '1.0.0',
    build: (ctx) => {
      const tools: ToolDescriptor[] = [];
      let arrived: () => void = () => {};
      const settled = new Promise<void>((resolve) => (arrived = resolve));
      return {
        tools: () => tools,
        callTool: async () => ok,
        start: async () => {
          setTimeout(() => {
            tools.push(tool('arrived'));
            ctx.notifyListChanged('tools');
            arrived();
          }, afterMs).unref();
        },
        ...(how.hook === 'resolves' ? { catalogsSettled: () => settled } : {}),
        ...(how.hook === 'rejects'
          ? { catalogsSettled: () => Promise.reject(new Error('no catalogs today')) }
          : {}),
        ...(how.hook === 'never' ? { catalogsSettled: () => new Promise<void>(() => {}) } : {}),
        ...(how.health ? { health: () => ({ state: tools.length ? 'ready' : 'starting' }) as const } : {}),
      };
    },
  });
}

const listed = async (c: Connected) => (await c.client.listTools()).tools.map((t) => t.name);

describe('catalogsSettled(), for any plugin', () => {
  it('holds the first tools/list until the plugin says its catalogs are in', async () => {
    connected = await connect({ plugins: [late('late', 200, { hook: 'resolves' })] });
    expect(await listed(connected)).toContain('late__arrived');
  });

  it('without it, a plugin that says `starting` is waited for until it does not', async () => {
    connected = await connect({ plugins: [late('late', 200, { health: true })] });
    expect(await listed(connected)).toContain('late__arrived');
  });

  it('a hook that rejects ends the wait at once, and is logged', async () => {
    const records: Record<string, unknown>[] = [];
    // The tools and the start deadline both come long after the test's own timeout: only the rejection can end
    // the wait, and the list answers while the deadline is still ahead.
    connected = await connect({
      plugins: [
        {
          plugin: late('late', 2 * TEST_TIMEOUT_MS, { hook: 'rejects' }),
          deadlines: { start: 2 * TEST_TIMEOUT_MS },
        },
      ],
      logger: createMemoryLogger(records),
    });
    expect(await listed(connected)).toEqual([]);
    expect(records.some((record) => /start deadline/.test(String(record.msg)))).toBe(false);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        plugin: 'late',
        err: expect.stringMatching(/no catalogs today/),
      }),
    );
  });

  it('a hook that never settles holds the lists no longer than about the start deadline', async () => {
    const startMs = 200;
    const records: Record<string, unknown>[] = [];
    connected = await connect({
      plugins: [
        { plugin: late('late', 2 * TEST_TIMEOUT_MS, { hook: 'never' }), deadlines: { start: startMs } },
      ],
      logger: createMemoryLogger(records),
    });
    // The hook never settles and the tools come after the test's timeout: the plugin's own start deadline (not
    // the 10 s default) is what let the list go, and the warning says which.
    expect(await listed(connected)).toEqual([]);
    expect(connected.host.plugins.catalogsSettled).toBe(true);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        plugin: 'late',
        msg: expect.stringMatching(/still starting at its start deadline/),
        err: expect.stringContaining(`within its deadline of ${startMs} ms`),
      }),
    );
  });
});
