import { describe, expect, it } from 'vitest';
import { definePlugin } from '../src/index.js';
import { connect, createMemoryLogger, textOf } from './support/in-memory.js';

const faulty = definePlugin({
  id: 'faulty',
  version: '1.0.0',
  build: () => ({
    tools: () =>
      ['sync_throw', 'reject', 'timer_rejection', 'timer_throw', 'ok'].map((name) => ({
        name,
        inputSchema: { type: 'object' as const },
      })),
    callTool: (name) => {
      switch (name) {
        case 'sync_throw':
          throw new Error('thrown synchronously');
        case 'reject':
          return Promise.reject(new Error('rejected on purpose'));
        case 'timer_rejection':
          // The rejection escapes the handler: nobody awaits the promise created in the timer.
          return new Promise(() => {
            setTimeout(() => void Promise.reject(new Error('rejection from a timer')), 5);
          });
        case 'timer_throw':
          return new Promise(() => {
            setTimeout(() => {
              throw new Error('exception from a timer');
            }, 5);
          });
        default:
          return Promise.resolve({ content: [{ type: 'text', text: 'fine' }] });
      }
    },
  }),
});

describe('isolation', () => {
  it.each([
    ['sync_throw', 'thrown synchronously'],
    ['reject', 'rejected on purpose'],
    ['timer_rejection', 'rejection from a timer'],
    ['timer_throw', 'exception from a timer'],
  ])('turns %s into one failed call and keeps serving', async (tool, message) => {
    const logger = createMemoryLogger();
    const { client, close } = await connect({ plugins: [faulty], logger });
    try {
      const failed = await client.callTool({ name: `faulty__${tool}`, arguments: {} });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain(`tool "faulty__${tool}" failed`);
      expect(textOf(failed)).toContain(message);
      expect(textOf(failed)).not.toMatch(/\n\s+at /); // no stack trace
      const ok = await client.callTool({ name: 'faulty__ok', arguments: {} });
      expect(textOf(ok)).toBe('fine');
    } finally {
      await close();
    }
  });

  it('attributes an escaped error to the plugin in the log', async () => {
    const logger = createMemoryLogger();
    const { client, close } = await connect({ plugins: [faulty], logger });
    try {
      await client.callTool({ name: 'faulty__timer_rejection', arguments: {} });
      const record = logger.records.find((r) => r.msg === 'unhandled rejection in plugin');
      expect(record).toMatchObject({ plugin: 'faulty', target: 'tool "faulty__timer_rejection"' });
    } finally {
      await close();
    }
  });
});
