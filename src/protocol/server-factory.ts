// Builds the SDK Server that answers one connection's requests (a stdio connection, a legacy HTTP session) or one
// modern HTTP request, routing every request through the plugin host; the same handlers serve both eras.
import { Server } from '@modelcontextprotocol/server';
import { toCacheHint } from './cache-hints.js';
import { registerCallHandlers } from './call-handlers.js';
import { withClientErrorCodes } from './client-error-codes.js';
import { registerListHandlers } from './list-handlers.js';
import { createServerScope } from './server-scope.js';
import type { Binding, BoundServer, ServerFactoryOptions } from './server-types.js';
import { registerSessionHandlers } from './session-handlers.js';
import { TASKS_EXTENSION } from './tasks/index.js';

export type { Binding, BoundServer, BuiltinResource, ServerFactoryOptions } from './server-types.js';

const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

export function createBoundServer(binding: Binding, options: ServerFactoryOptions): BoundServer {
  const { host } = options;
  const { era, connection } = binding;
  const modern = era === 'modern';
  const tasks = modern ? options.tasks : undefined;
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: tasks ? { ...CAPABILITIES, extensions: { [TASKS_EXTENSION]: {} } } : CAPABILITIES,
      instructions: options.instructions,
      // The lists and reads carry their own (below): what an upstream says of its lists changes as they do.
      cacheHints: { 'server/discover': toCacheHint(options.listHints) },
    },
  );
  // Every entry (the stdio one, the HTTP handler, a session) connects the server it is given to its transport.
  const connect = server.connect.bind(server);
  server.connect = (transport) => connect(withClientErrorCodes(transport, era));
  const subscriptions = new Set<string>();
  const scope = createServerScope(server, binding, options);
  const { fixedTools } = scope;

  const builtins = new Map((options.builtinResources ?? []).map((entry) => [entry.resource.uri, entry]));
  registerListHandlers(scope, builtins);
  registerCallHandlers(scope, builtins);

  const detach: (() => void)[] = [];
  let disposed = false;
  if (!modern)
    registerSessionHandlers(scope, {
      subscriptions,
      disposed: () => disposed,
      onDispose: (off) => detach.push(off),
    });

  // A long-lived server tells its client of changes itself: unsolicited on a 2025 connection, on the listen
  // streams of a 2026-07-28 stdio connection (the SDK's stdio entry routes them). Modern HTTP requests are
  // told through the event bus instead.
  if (connection.stream) {
    const tools = fixedTools;
    detach.push(
      // The tool list clients see is the enriched one, so its changes come from the pipeline.
      tools?.onToolsChanged(() => server.sendToolListChanged().catch(() => {})) ?? (() => {}),
      host.on('listChanged', (kind) => {
        if (kind === 'tools') return;
        const send = kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
        send.catch(() => {});
      }),
      host.on('resourceUpdated', (uri) => {
        if (modern || subscriptions.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
      }),
    );
  }

  return {
    server,
    subscriptions,
    dropSubscriptions: (keep) => {
      for (const uri of [...subscriptions]) {
        if (keep(uri)) continue;
        subscriptions.delete(uri);
        host.unsubscribe(uri).catch(() => {});
      }
    },
    dispose: () => {
      if (disposed) return;
      disposed = true;
      for (const off of detach) off();
      // The plugins learn that this session no longer listens (an upstream stops sending what no one reads).
      for (const uri of subscriptions) host.unsubscribe(uri).catch(() => {});
      subscriptions.clear();
      fixedTools?.dispose?.();
    },
  };
}
