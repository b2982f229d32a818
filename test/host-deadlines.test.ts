import { describe, expect, it } from 'vitest';
import { definePlugin } from '../src/index.js';
import { connect, textOf } from './support/in-memory.js';

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
      expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 5);
      expect(elapsed).toBeLessThan(deadlineMs + 250);
      expect(seenReasons).toHaveLength(1);
      expect((seenReasons[0] as { code: string }).code).toBe('E_DEADLINE');

      const again = await client.callTool({ name: 'fast__echo', arguments: { text: 'after' } });
      expect(textOf(again)).toBe('after');
    } finally {
      await close();
    }
  });
});
