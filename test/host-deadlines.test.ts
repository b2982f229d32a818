import { describe, expect, it } from 'vitest';
import { definePlugin } from '../src/index.js';
import { DEFAULT_CALL_DEADLINE_MS, parseConfig } from '../src/config/index.js';
import { createHost } from '../src/create-host.js';
import { connect, createMemoryLogger, textOf } from './support/in-memory.js';

const seenReasons: unknown[] = [];

const slow = definePlugin({
  id: 'slow',
  version: '1.0.0',
  build: () => ({
    tools: () => [{ name: 'hang', inputSchema: { type: 'object' } }],
    callTool: (_name, _args, ctx) =>
      new Promise(() => {
        ctx.signal.addEventListener('abort', () => seenReasons.push(ctx.signal.reason));
      }),
  }),
});

const fast = definePlugin({
  id: 'fast',
  version: '1.0.0',
  build: () => ({
    tools: () => [
      { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    ],
    callTool: async (_name, args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
  }),
});

describe('deadlines', () => {
  it('answers a hanging tool with a timeout naming the tool and the limit, while another plugin keeps serving', async () => {
    const deadlineMs = 300;
    const { client, close } = await connect({
      plugins: [{ plugin: slow, deadlines: { callTool: deadlineMs } }, { plugin: fast }],
    });
    try {
      const startedAt = performance.now();
      const hanging = client.callTool({ name: 'slow__hang', arguments: {} });
      const echoed = await client.callTool({ name: 'fast__echo', arguments: { text: 'still here' } });
      expect(textOf(echoed)).toBe('still here');

      const result = await hanging;
      const elapsed = performance.now() - startedAt;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('tool "slow__hang"');
      expect(textOf(result)).toContain(`${deadlineMs} ms`);
      // Not before its deadline; and the call never ends on its own, so what ended it is a timer: this plugin's
      // 300 ms, not the 30 s default (a generous bound, far from both: these machines are slow and shared).
      expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 5);
      expect(elapsed).toBeLessThan(DEFAULT_CALL_DEADLINE_MS / 2);
      expect(seenReasons).toHaveLength(1);
      expect((seenReasons[0] as { code: string }).code).toBe('E_DEADLINE');

      const again = await client.callTool({ name: 'fast__echo', arguments: { text: 'after' } });
      expect(textOf(again)).toBe('after');
    } finally {
      await close();
    }
  });
});

describe('deadlines from foresight.toml', () => {
  const module = new URL('./fixtures/plugins/sleepy.mjs', import.meta.url).pathname;

  it('applies deadline_ms to calls and deadlines_ms.start to start()', async () => {
    const config = parseConfig(
      `[plugins.sleepy]\nmodule = "${module}"\ndeadline_ms = 120\ndeadlines_ms = { start = 2000 }\nstart_ms = 50\n`,
      '/virtual/foresight.toml',
      '/virtual',
    );
    const { client, close } = await connect({ config });
    try {
      const result = await client.callTool({ name: 'sleepy__nap', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('tool "sleepy__nap" did not finish within its deadline of 120 ms');
    } finally {
      await close();
    }

    const tooSlow = parseConfig(
      `[plugins.sleepy]\nmodule = "${module}"\ndeadlines_ms = { start = 20 }\nstart_ms = 1000\n`,
      '/virtual/foresight.toml',
      '/virtual',
    );
    const host = createHost({ config: tooSlow, logger: createMemoryLogger() });
    await expect(host.start()).rejects.toThrow(/plugin "sleepy" failed to start: .*deadline of 20 ms/);
    await host.close();
  });
});
