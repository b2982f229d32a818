import { describe, expect, it } from 'vitest';
import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import { definePlugin } from '../src/index.js';
import { connect } from './support/in-memory.js';

const reads: string[] = [];

const docs = definePlugin({
  id: 'docs',
  version: '1.0.0',
  build: () => ({
    tools: () => [{ name: 'link', inputSchema: { type: 'object' } }],
    callTool: async () => ({
      content: [
        { type: 'resource_link', uri: 'page/intro', name: 'intro' },
        { type: 'resource_link', uri: 'other://elsewhere', name: 'foreign' },
        { type: 'resource', resource: { uri: 'docs://page/own', text: 'own' } },
      ],
    }),
    resources: () => [{ uri: 'page/index', name: 'index' }],
    resourceTemplates: () => [{ uriTemplate: 'page/{slug}', name: 'page' }],
    readResource: async (uri) => {
      reads.push(uri);
      return {
        contents: [
          { uri, text: `content of ${uri}` },
          { uri: 'notes://stolen', text: 'x' },
        ],
      };
    },
  }),
});

const notes = definePlugin({
  id: 'notes',
  version: '1.0.0',
  build: () => ({
    tools: () => [],
    callTool: async () => ({ content: [] }),
    resources: () => [{ uri: 'stolen', name: 'stolen' }],
    readResource: async () => ({ contents: [{ uri: 'stolen', text: 'notes own this' }] }),
  }),
});

describe('routing', () => {
  it('routes any URI in a plugin scheme to that plugin, expanded templates included, in local form', async () => {
    const { client, close } = await connect({ plugins: [docs, notes] });
    try {
      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['docs://page/{slug}']);
      const read = await client.readResource({ uri: 'docs://page/getting-started' });
      expect(reads).toContain('page/getting-started');
      expect(read.contents[0]).toMatchObject({
        uri: 'docs://page/getting-started',
        text: 'content of page/getting-started',
      });
      // A URI in another plugin's scheme is wrapped into the returning plugin's own scheme.
      expect(read.contents[1]?.uri).toBe('docs://notes://stolen');
      const own = await client.readResource({ uri: 'notes://stolen' });
      expect(own.contents[0]).toMatchObject({ uri: 'notes://stolen', text: 'notes own this' });
    } finally {
      await close();
    }
  });

  it('rewrites resource URIs inside tool results into the plugin scheme', async () => {
    const { client, close } = await connect({ plugins: [docs, notes] });
    try {
      const result = await client.callTool({ name: 'docs__link', arguments: {} });
      const uris = (result.content as { uri?: string; resource?: { uri: string } }[]).map(
        (c) => c.uri ?? c.resource?.uri,
      );
      expect(uris).toEqual(['docs://page/intro', 'docs://other://elsewhere', 'docs://page/own']);
    } finally {
      await close();
    }
  });

  it('answers unknown schemes and unknown tools with protocol errors', async () => {
    const { client, close } = await connect({ plugins: [docs] });
    try {
      await expect(client.readResource({ uri: 'nobody://x' })).rejects.toMatchObject({ code: -32002 });
      await expect(client.readResource({ uri: 'no-scheme' })).rejects.toMatchObject({ code: -32002 });
      await expect(client.callTool({ name: 'docs__nope', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
      });
      // Exact table: a near name does not match.
      await expect(client.callTool({ name: 'DOCS__link', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
      });
      expect((await client.callTool({ name: 'docs__link', arguments: {} })).isError).toBeFalsy();
    } finally {
      await close();
    }
  });
});
