import { describe, expect, it, vi } from 'vitest';
import { type PluginContext, definePlugin } from '../src/index.js';
import { connect, connectClient, textOf } from './support/in-memory.js';

let context: PluginContext | undefined;
let extraTool = false;
let cancelledWith: unknown;
let clientSignalAborted: boolean | undefined;
let keptSignal: AbortSignal | undefined;

const live = definePlugin({
  id: 'live',
  version: '1.0.0',
  build: (ctx) => {
    context = ctx;
    return {
      tools: () => [
        { name: 'base', inputSchema: { type: 'object' } },
        { name: 'wait', inputSchema: { type: 'object' } },
        { name: 'chatty', inputSchema: { type: 'object' } },
        { name: 'ask', inputSchema: { type: 'object' } },
        { name: 'keep', inputSchema: { type: 'object' } },
        { name: 'left', inputSchema: { type: 'object' } },
        ...(extraTool ? [{ name: 'extra', inputSchema: { type: 'object' as const } }] : []),
      ],
      resources: () => [{ uri: 'feed', name: 'feed' }],
      readResource: async (uri) => ({ contents: [{ uri, text: 'x' }] }),
      callTool: async (name, _args, rc) => {
        if (name === 'wait') {
          return new Promise((_resolve, reject) => {
            rc.signal.addEventListener('abort', () => {
              clientSignalAborted = rc.clientSignal.aborted;
              cancelledWith = rc.signal.reason;
              reject(rc.signal.reason as Error);
            });
          });
        }
        if (name === 'left') return { content: [{ type: 'text', text: String(rc.timeLeftMs()) }] };
        if (name === 'keep') {
          keptSignal = rc.signal;
          return { content: [{ type: 'text', text: 'kept' }] };
        }
        if (name === 'chatty') {
          await rc.reportProgress(1, 2, 'half');
          await rc.log('info', { step: 'one' });
          await rc.log('debug', { step: 'hidden below the level' });
          await rc.reportProgress(2, 2, 'done');
          return { content: [{ type: 'text', text: 'spoke' }] };
        }
        if (name === 'ask') {
          const sampled = await rc.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
            maxTokens: 10,
          });
          const elicited = await rc.elicit({
            message: 'name?',
            requestedSchema: { type: 'object', properties: {} },
          });
          return {
            content: [{ type: 'text', text: `${JSON.stringify(sampled.content)} ${elicited.action}` }],
          };
        }
        return { content: [{ type: 'text', text: name }] };
      },
    };
  },
});

describe('notifications and request context', () => {
  it('sends tools/list_changed when a plugin reports a new catalog', async () => {
    const { client, close } = await connect({ plugins: [live] });
    try {
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
      );
      extraTool = true;
      context?.notifyListChanged('tools');
      await changed;
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('live__extra');
    } finally {
      extraTool = false;
      await close();
    }
  });

  it('sends resources/updated with the published URI to subscribed clients only', async () => {
    const { client, close } = await connect({ plugins: [live] });
    try {
      const updates: string[] = [];
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void updates.push(n.params.uri),
      );
      context?.notifyResourceUpdated('feed'); // not subscribed yet
      await client.subscribeResource({ uri: 'live://feed' });
      context?.notifyResourceUpdated('feed');
      await client.unsubscribeResource({ uri: 'live://feed' });
      context?.notifyResourceUpdated('feed');
      await client.ping();
      expect(updates).toEqual(['live://feed']);
    } finally {
      await close();
    }
  });

  it('aborts the plugin signal when the client cancels the request', async () => {
    const { client, close } = await connect({ plugins: [live] });
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'live__wait', arguments: {} }, { signal: controller.signal });
      await new Promise((r) => setTimeout(r, 20));
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      await client.ping();
      expect((cancelledWith as { code?: string }).code).toBe('E_CANCELLED');
      expect(clientSignalAborted).toBe(true);
    } finally {
      await close();
    }
  });

  it('tells the plugin how long its call has left before the deadline', async () => {
    const { client, close } = await connect({ plugins: [live] });
    try {
      const left = Number(textOf(await client.callTool({ name: 'live__left', arguments: {} })));
      // The default call deadline is 30 s, in milliseconds, and the call has only just started.
      expect(left).toBeGreaterThan(1_000);
      expect(left).toBeLessThanOrEqual(30_000);
    } finally {
      await close();
    }
  });

  it('leaves the signal of a call that has settled alone when its request is cancelled afterwards', async () => {
    const { host, close } = await connect({ plugins: [live] });
    try {
      const request = new AbortController();
      const result = await host.plugins.callTool('live__keep', {}, { signal: request.signal });
      expect(result.content).toEqual([{ type: 'text', text: 'kept' }]);
      expect(keptSignal?.aborted).toBe(false);
      request.abort('too late');
      expect(keptSignal?.aborted).toBe(false);
    } finally {
      await close();
    }
  });

  it('delivers progress and logging (respecting logging/setLevel) to the client', async () => {
    const { client, close } = await connect({ plugins: [live] });
    try {
      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
      await client.setLoggingLevel('info');
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'live__chatty', arguments: {} },
        { onprogress: (p) => void progress.push(`${p.progress}/${p.total} ${p.message}`) },
      );
      expect(textOf(result)).toBe('spoke');
      expect(progress).toEqual(['1/2 half', '2/2 done']);
      expect(logs).toEqual([{ step: 'one' }]);
    } finally {
      await close();
    }
  });

  it('relays sampling and elicitation to a client that supports them, and refuses otherwise', async () => {
    const capable = await connect({ plugins: [live] }, { capabilities: { sampling: {}, elicitation: {} } });
    try {
      capable.client.setRequestHandler('sampling/createMessage', async () => ({
        model: 'test',
        role: 'assistant',
        content: { type: 'text', text: 'sampled' },
      }));
      capable.client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
      const result = await capable.client.callTool({ name: 'live__ask', arguments: {} });
      expect(textOf(result)).toBe('{"type":"text","text":"sampled"} decline');
    } finally {
      await capable.close();
    }
    const plain = await connect({ plugins: [live] });
    try {
      const result = await plain.client.callTool({ name: 'live__ask', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('does not support sampling');
    } finally {
      await plain.close();
    }
  });
});

describe('subscriptions reach the plugin', () => {
  it('counts subscribers across sessions, tells the plugin on the first and the last, and delivers an update sent while subscribing', async () => {
    const told: string[] = [];
    const watched = definePlugin({
      id: 'watched',
      version: '1.0.0',
      build: (ctx) => ({
        tools: () => [],
        callTool: async () => ({ content: [] }),
        resources: () => [{ uri: 'doc', name: 'doc' }],
        readResource: async (uri) => ({ contents: [{ uri, text: 'x' }] }),
        subscribe: async (uri) => {
          told.push(`subscribe ${uri}`);
          // At once, before the subscribe request has been answered.
          ctx.notifyResourceUpdated(uri);
        },
        unsubscribe: async (uri) => {
          told.push(`unsubscribe ${uri}`);
        },
      }),
    });
    const c = await connect({ plugins: [watched], planner: { enabled: false } });
    try {
      const updated: string[] = [];
      c.client.setNotificationHandler('notifications/resources/updated', (n) => {
        updated.push(n.params.uri);
      });
      await c.client.subscribeResource({ uri: 'watched://doc' });
      await vi.waitFor(() => expect(updated).toEqual(['watched://doc']));
      // A second session subscribing does not tell the plugin again; the first one leaving neither.
      const other = await connectClient(c.host);
      await other.subscribeResource({ uri: 'watched://doc' });
      await c.client.unsubscribeResource({ uri: 'watched://doc' });
      expect(told).toEqual(['subscribe doc']);
      // The last one going (its session ends) does.
      await other.close();
      await vi.waitFor(() => expect(told).toEqual(['subscribe doc', 'unsubscribe doc']));
    } finally {
      await c.close();
    }
  });
});
