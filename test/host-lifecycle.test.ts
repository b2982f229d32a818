import { describe, expect, it } from 'vitest';
import { type Plugin, PluginError, definePlugin } from '../src/index.js';
import { createHost } from '../src/create-host.js';
import { createMemoryLogger } from './support/in-memory.js';

function recorder(events: string[], id: string, options: { failStart?: boolean } = {}): Plugin {
  return definePlugin({
    id,
    version: '1.0.0',
    build: (ctx) => {
      events.push(`build ${id}`);
      ctx.shutdown.addEventListener('abort', () => events.push(`signal ${id}`));
      return {
        tools: () => [],
        callTool: async () => ({ content: [] }),
        start: async () => {
          events.push(`start ${id}`);
          if (options.failStart) throw new Error(`${id} cannot reach its backend`);
        },
        shutdown: async () => {
          events.push(`shutdown ${id}`);
        },
      };
    },
  });
}

describe('lifecycle', () => {
  it('builds all, starts in mount order, fires the shutdown signal, then shuts down in reverse', async () => {
    const events: string[] = [];
    const host = createHost({
      plugins: [recorder(events, 'a'), recorder(events, 'b'), recorder(events, 'c')],
      logger: createMemoryLogger(),
    });
    await host.start();
    await host.start(); // idempotent
    expect(events).toEqual(['build a', 'build b', 'build c', 'start a', 'start b', 'start c']);
    events.length = 0;
    await host.close();
    expect(events).toEqual(['signal a', 'signal b', 'signal c', 'shutdown c', 'shutdown b', 'shutdown a']);
  });

  it('on a failed start, shuts the started plugins down in reverse and names the failing plugin', async () => {
    const events: string[] = [];
    const host = createHost({
      plugins: [
        recorder(events, 'a'),
        recorder(events, 'b'),
        recorder(events, 'c', { failStart: true }),
        recorder(events, 'd'),
      ],
      logger: createMemoryLogger(),
    });
    await expect(host.start()).rejects.toThrow(/plugin "c" failed to start: c cannot reach its backend/);
    expect(events.filter((e) => !e.startsWith('build') && !e.startsWith('signal'))).toEqual([
      'start a',
      'start b',
      'start c',
      'shutdown b',
      'shutdown a',
    ]);
  });

  it('applies the start deadline to a start() that never returns', async () => {
    const host = createHost({
      plugins: [
        {
          plugin: definePlugin({
            id: 'stuck',
            version: '1.0.0',
            build: () => ({
              tools: () => [],
              callTool: async () => ({ content: [] }),
              start: () => new Promise(() => {}),
            }),
          }),
          deadlines: { start: 50 },
        },
      ],
      logger: createMemoryLogger(),
    });
    await expect(host.start()).rejects.toThrow(
      /plugin "stuck" failed to start: start\(\) of plugin "stuck" did not finish within its deadline of 50 ms/,
    );
  });

  it('keeps shutting down the others when one shutdown() throws, and logs it', async () => {
    const events: string[] = [];
    const logger = createMemoryLogger();
    const broken = definePlugin({
      id: 'broken',
      version: '1.0.0',
      build: () => ({
        tools: () => [],
        callTool: async () => ({ content: [] }),
        shutdown: async () => {
          throw new Error('cannot flush');
        },
      }),
    });
    const host = createHost({ plugins: [recorder(events, 'a'), broken], logger });
    await host.start();
    await host.close();
    expect(events).toContain('shutdown a');
    expect(logger.records.some((r) => r.plugin === 'broken' && r.msg === 'shutdown failed')).toBe(true);
  });

  it('names the plugin when build() throws, whatever it throws', async () => {
    for (const thrown of [new Error('no store'), new PluginError('invalid_input', 'no store')]) {
      const host = createHost({
        plugins: [
          definePlugin({
            id: 'fragile',
            version: '1.0.0',
            build: () => {
              throw thrown;
            },
          }),
        ],
        logger: createMemoryLogger(),
      });
      await expect(host.start()).rejects.toThrow('plugin "fragile" failed to build: no store');
      await host.close();
    }
  });
});
