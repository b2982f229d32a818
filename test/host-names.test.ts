import { describe, expect, it } from 'vitest';
import { type Plugin, definePlugin } from '../src/index.js';
import { type CreateHostOptions, createHost } from '../src/create-host.js';
import { connect, createMemoryLogger } from './support/in-memory.js';
import { PLANNER_STATS_URI } from '../src/planner/index.js';

function pluginWith(
  id: string,
  catalog: { tools?: string[]; prompts?: string[]; resources?: string[] },
): Plugin {
  return definePlugin({
    id,
    version: '1.0.0',
    build: () => ({
      tools: () => (catalog.tools ?? []).map((name) => ({ name, inputSchema: { type: 'object' as const } })),
      callTool: async () => ({ content: [] }),
      prompts: () => (catalog.prompts ?? []).map((name) => ({ name })),
      resources: () => (catalog.resources ?? []).map((uri) => ({ uri, name: uri })),
    }),
  });
}

async function startError(plugins: CreateHostOptions['plugins']): Promise<Error> {
  const host = createHost({ plugins, logger: createMemoryLogger() });
  const error = await host.start().then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  await host.close();
  if (!error) throw new Error('expected start-up to fail');
  return error;
}

describe('names', () => {
  it('publishes tools and prompts as <prefix>__<local> and resources as <prefix>://<local>', async () => {
    const { client, close } = await connect({
      plugins: [
        { plugin: pluginWith('notes', { tools: ['add'], prompts: ['summarize'], resources: ['all'] }) },
      ],
    });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['notes__add']);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['notes__summarize']);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
        PLANNER_STATS_URI,
        'notes://all',
      ]);
    } finally {
      await close();
    }
  });

  it('uses the configured prefix, "" for none, and "-" for "_" in URI schemes', async () => {
    const { client, close } = await connect({
      plugins: [
        { plugin: pluginWith('notes', { tools: ['add'], resources: ['all'] }), prefix: 'my_notes' },
        { plugin: pluginWith('bare', { tools: ['plain'], resources: ['bare://x'] }), prefix: '' },
      ],
    });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['my_notes__add', 'plain']);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
        PLANNER_STATS_URI,
        'my-notes://all',
        'bare://x',
      ]);
    } finally {
      await close();
    }
  });

  it('stops start-up on a tool collision, naming both owners', async () => {
    const error = await startError([
      { plugin: pluginWith('alpha', { tools: ['x__y'] }), prefix: '' },
      { plugin: pluginWith('x', { tools: ['y'] }) },
    ]);
    expect(error.message).toContain('tool "x__y"');
    expect(error.message).toContain('"alpha"');
    expect(error.message).toContain('"x"');
  });

  it('stops start-up on a prompt collision and on a URI scheme collision', async () => {
    const prompts = await startError([
      { plugin: pluginWith('a', { prompts: ['p'] }), prefix: 'same' },
      { plugin: pluginWith('b', { prompts: ['p'] }), prefix: 'same', name: 'b' },
    ]);
    expect(prompts.message).toMatch(/prompt "same__p" is published by both plugin "a" and plugin "b"/);
    const schemes = await startError([
      { plugin: pluginWith('a', { resources: ['thing'] }) },
      { plugin: pluginWith('b', { resources: ['a://other'] }), prefix: '' },
    ]);
    expect(schemes.message).toMatch(/URI scheme "a" is published by both plugin "a" and plugin "b"/);
  });

  it('stops start-up on two instances with one name', async () => {
    const error = await startError([pluginWith('twin', {}), pluginWith('twin', {})]);
    expect(error.message).toMatch(/plugin instance "twin" is published by both/);
  });

  it('rejects bad plugin ids, prefixes and published tool names', async () => {
    expect((await startError([pluginWith('Bad-Id', {})])).message).toContain('plugin id "Bad-Id"');
    expect((await startError([pluginWith('a__b', {})])).message).toContain('no "__"');
    expect((await startError([{ plugin: pluginWith('ok', {}), prefix: 'has space' }])).message).toContain(
      '"has space"',
    );
    const long = await startError([pluginWith('ok', { tools: ['t'.repeat(70)] })]);
    expect(long.message).toContain('^[A-Za-z0-9_-]{1,64}$');
    const dotted = await startError([pluginWith('ok', { tools: ['read.file'] })]);
    expect(dotted.message).toContain('"ok__read.file"');
  });

  it('keeps the foresight scheme for its own resources: no prefix of that name, and its stats listed once', async () => {
    const reserved = await startError([pluginWith('foresight', { resources: ['planner/stats'] })]);
    expect(reserved.message).toContain('prefix "foresight"');
    expect(reserved.message).toContain('reserved');
    // A prefix-less plugin (another Foresight mounted as an upstream) listing the same URI: one entry, ours.
    const c = await connect({
      plugins: [{ plugin: pluginWith('inner', { resources: [PLANNER_STATS_URI] }), prefix: '' }],
    });
    try {
      const uris = (await c.client.listResources()).resources.map((r) => r.uri);
      expect(uris.filter((uri) => uri === PLANNER_STATS_URI)).toHaveLength(1);
      const read = await c.client.readResource({ uri: PLANNER_STATS_URI });
      expect(JSON.stringify(read.contents)).toContain('wasteBudget');
    } finally {
      await c.close();
    }
  });

  it('refuses mounts after start', async () => {
    const host = createHost({ plugins: [pluginWith('one', {})], logger: createMemoryLogger() });
    await host.start();
    expect(() => host.plugins.mount({ plugin: pluginWith('two', {}) })).toThrow(/already started/);
    await host.close();
  });
});
