// The requests only a 2025 connection makes of its bound server: its log level, resource subscriptions, and the
// roots it offers the plugins outside a call.
import type { ServerScope } from './server-scope.js';

/** What the session handlers keep on the bound server. */
export interface SessionState {
  /** Published URIs the connection subscribed to. */
  subscriptions: Set<string>;
  /** True once the bound server is disposed. */
  disposed(): boolean;
  /** Keeps `off` to be called when the bound server is disposed. */
  onDispose(off: () => void): void;
}

export function registerSessionHandlers(scope: ServerScope, state: SessionState): void {
  const { server, options, guard, plainEnv } = scope;
  const { host } = options;
  const { subscriptions } = state;
  server.setRequestHandler('logging/setLevel', async (request) => {
    scope.sessionLogLevel = request.params.level;
    return {};
  });
  server.setRequestHandler('resources/subscribe', (request, ctx) => {
    const { uri } = request.params;
    return guard(`subscription to ${uri}`, async () => {
      if (subscriptions.has(uri)) return {};
      // Listening before the plugin is told, so an update it sends while subscribing is not lost.
      subscriptions.add(uri);
      try {
        await host.subscribe(uri, plainEnv(ctx));
      } catch (error) {
        subscriptions.delete(uri);
        throw error;
      }
      return {};
    });
  });
  server.setRequestHandler('resources/unsubscribe', (request, ctx) => {
    const { uri } = request.params;
    return guard(`subscription to ${uri}`, async () => {
      if (!subscriptions.delete(uri)) return {};
      await host.unsubscribe(uri, plainEnv(ctx));
      return {};
    });
  });
  // A client with roots becomes a source the plugins can ask outside a call; its list_changed reaches them.
  server.oninitialized = () => {
    if (state.disposed() || !server.getClientCapabilities()?.roots) return;
    state.onDispose(host.roots.addSource(async () => (await server.listRoots()).roots));
  };
  server.setNotificationHandler('notifications/roots/list_changed', () => host.roots.changed());
}
