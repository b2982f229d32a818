import { describe, expect, it } from 'vitest';
import { type Plugin, type PluginHealth, definePlugin } from '../src/index.js';
import { connect } from './support/in-memory.js';

function withHealth(id: string, health?: () => PluginHealth): Plugin {
  return definePlugin({
    id,
    version: '1.0.0',
    build: () => ({
      tools: () => [],
      callTool: async () => ({ content: [] }),
      ...(health ? { health } : {}),
    }),
  });
}

describe('plugin health', () => {
  it('shows what each plugin reports (degraded included): ready when it reports nothing, down when health() throws', async () => {
    const { host, close } = await connect({
      plugins: [
        { plugin: withHealth('quiet') },
        { plugin: withHealth('remote', () => ({ state: 'ready', detail: 'connected to x' })) },
        {
          plugin: withHealth('plain', () => ({
            state: 'degraded',
            detail: 'metadata failed; generic schemas',
          })),
        },
        {
          plugin: withHealth('broken', () => {
            throw new Error('no idea');
          }),
        },
      ],
    });
    try {
      expect(host.plugins.mountedPlugins().map(({ name, health }) => ({ name, health }))).toEqual([
        { name: 'quiet', health: { state: 'ready' } },
        { name: 'remote', health: { state: 'ready', detail: 'connected to x' } },
        { name: 'plain', health: { state: 'degraded', detail: 'metadata failed; generic schemas' } },
        { name: 'broken', health: { state: 'down', detail: 'health() failed: no idea' } },
      ]);
    } finally {
      await close();
    }
  });
});
