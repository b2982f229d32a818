import { describe, expect, it } from 'vitest';
import { definePlugin } from '../src/index.js';
import { connect } from './support/in-memory.js';

const asked: unknown[] = [];

const words = definePlugin({
  id: 'words',
  version: '1.0.0',
  build: () => ({
    tools: () => [],
    callTool: async () => ({ content: [] }),
    prompts: () => [{ name: 'greet', arguments: [{ name: 'who' }] }],
    getPrompt: async () => ({ messages: [] }),
    resourceTemplates: () => [{ uriTemplate: 'word/{w}', name: 'word' }],
    complete: async (request) => {
      asked.push(request.ref);
      const values = Array.from({ length: 250 }, (_, i) => `${request.argument.value}${i}`);
      return { values };
    },
  }),
});

describe('completion', () => {
  it('routes ref/prompt by prompt name without the namespace and caps values at 100', async () => {
    const { client, close } = await connect({ plugins: [words] });
    try {
      const result = await client.complete({
        ref: { type: 'ref/prompt', name: 'words__greet' },
        argument: { name: 'who', value: 'a' },
      });
      expect(asked.at(-1)).toEqual({ type: 'ref/prompt', name: 'greet' });
      expect(result.completion.values).toHaveLength(100);
      expect(result.completion.values[0]).toBe('a0');
      expect(result.completion.hasMore).toBe(true);
      expect(result.completion.total).toBe(250);
    } finally {
      await close();
    }
  });

  it('routes ref/resource by scheme with the local URI template', async () => {
    const { client, close } = await connect({ plugins: [words] });
    try {
      await client.complete({
        ref: { type: 'ref/resource', uri: 'words://word/{w}' },
        argument: { name: 'w', value: 'b' },
      });
      expect(asked.at(-1)).toEqual({ type: 'ref/resource', uri: 'word/{w}' });
      await expect(
        client.complete({
          ref: { type: 'ref/prompt', name: 'nobody__greet' },
          argument: { name: 'x', value: '' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await close();
    }
  });
});
