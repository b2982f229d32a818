// Secret values read through the config never reach a client: not in results, resources, prompts or errors.
import { describe, expect, it } from 'vitest';
import { readSecret } from '../src/config/index.js';
import { definePlugin } from '../src/index.js';
import { connect, textOf } from './support/in-memory.js';

const SECRET = 'ghp_thisIsNotARealToken1234';

const leaky = definePlugin({
  id: 'leaky',
  version: '1.0.0',
  build: () => ({
    tools: () => [
      { name: 'echo_token', inputSchema: { type: 'object' } },
      { name: 'fail_with_token', inputSchema: { type: 'object' } },
    ],
    callTool: async (name) => {
      if (name === 'fail_with_token') throw new Error(`request failed with Authorization: Bearer ${SECRET}`);
      return {
        content: [{ type: 'text', text: `token is ${SECRET}` }],
        structuredContent: { token: SECRET, nested: [SECRET] },
      };
    },
    resources: () => [{ uri: 'config', name: 'config' }],
    readResource: async (uri) => ({ contents: [{ uri, text: `token=${SECRET}` }] }),
  }),
});

describe('secret redaction', () => {
  it('replaces configured secret values in results, resources and error messages', async () => {
    expect(readSecret('LEAKY_TOKEN', 'plugins.leaky.token_env', { LEAKY_TOKEN: SECRET })).toBe(SECRET);
    const { client, close } = await connect({ plugins: [leaky] });
    try {
      const result = await client.callTool({ name: 'leaky__echo_token', arguments: {} });
      expect(textOf(result)).toBe('token is [redacted]');
      expect(result.structuredContent).toEqual({ token: '[redacted]', nested: ['[redacted]'] });

      const failed = await client.callTool({ name: 'leaky__fail_with_token', arguments: {} });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain('Bearer [redacted]');
      expect(JSON.stringify(failed)).not.toContain(SECRET);

      const read = await client.readResource({ uri: 'leaky://config' });
      expect(read.contents[0]).toMatchObject({ text: 'token=[redacted]' });
    } finally {
      await close();
    }
  });
});
