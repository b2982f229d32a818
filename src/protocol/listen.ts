// Change events for 2026-07-28 clients: the host's changes go onto the ServerEventBus that listen streams read,
// and the resources those streams ask about are subscribed at their plugins while any stream wants them.
import type { JSONRPCMessage, ServerEventBus } from '@modelcontextprotocol/server';
import type { Logger } from '../contract/index.js';
import type { PluginHost } from '../host/index.js';

/** What publishes the tool list's changes (the enriched list changes with the pipeline, not the host). */
export interface ToolListSource {
  onToolsChanged(listener: () => void): () => void;
}

/** Publishes every change of the host's catalogs and resources on `bus`; returns the unsubscribe. */
export function publishHostEvents(host: PluginHost, tools: ToolListSource, bus: ServerEventBus): () => void {
  const off = [
    tools.onToolsChanged(() => bus.publish({ kind: 'tools_list_changed' })),
    host.on('listChanged', (kind) => {
      if (kind === 'resources') bus.publish({ kind: 'resources_list_changed' });
      else if (kind === 'prompts') bus.publish({ kind: 'prompts_list_changed' });
    }),
    host.on('resourceUpdated', (uri) => bus.publish({ kind: 'resource_updated', uri })),
  ];
  return () => {
    for (const unsubscribe of off) unsubscribe();
  };
}

/**
 * The resources open listen streams asked to hear about. The SDK's entries serve the streams themselves; this
 * tells the plugins (an upstream server subscribes on its side) on a URI's first listener and its last leaving.
 */
export class ListenSubscriptions {
  private readonly streams = new Map<string, readonly string[]>();

  constructor(
    private readonly host: PluginHost,
    private readonly logger: Logger,
  ) {}

  /** A listen stream (`id`, unique per connection or request) opened with these resource subscriptions. */
  opened(id: string, uris: readonly string[]): void {
    if (uris.length === 0 || this.streams.has(id)) return;
    const unique = [...new Set(uris)];
    this.streams.set(id, unique);
    for (const uri of unique) this.tell('subscribe', uri);
  }

  closed(id: string): void {
    const uris = this.streams.get(id);
    if (!uris) return;
    this.streams.delete(id);
    for (const uri of uris) this.tell('unsubscribe', uri);
  }

  closeAll(): void {
    for (const id of [...this.streams.keys()]) this.closed(id);
  }

  private tell(member: 'subscribe' | 'unsubscribe', uri: string): void {
    this.host[member](uri).catch((error: unknown) =>
      this.logger.debug({ uri, err: String(error) }, `listen: ${member} at the plugin failed`),
    );
  }
}

/** How many listen streams may be open at once, over every transport of the process. */
export class ListenStreamCap {
  private open = 0;

  constructor(readonly max: number) {}

  /** Takes a place for a new stream; false when every place is taken. Pair each true with `release()`. */
  take(): boolean {
    if (this.open >= this.max) return false;
    this.open++;
    return true;
  }

  release(): void {
    if (this.open > 0) this.open--;
  }

  get count(): number {
    return this.open;
  }
}

/** The resource URIs a `subscriptions/listen` request asks for; undefined for any other message. */
export function listenedResources(message: unknown): { id: string | number; uris: string[] } | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
  if (method !== 'subscriptions/listen' || (typeof id !== 'string' && typeof id !== 'number'))
    return undefined;
  const wanted = (params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)
    ?.notifications?.resourceSubscriptions;
  const uris = Array.isArray(wanted) ? wanted.filter((uri): uri is string => typeof uri === 'string') : [];
  return { id, uris };
}

/** The id a message ends, for a stdio connection: a response to a request, or the cancellation of one. */
export function endedRequestId(message: JSONRPCMessage): string | number | undefined {
  if ('method' in message) {
    if (message.method !== 'notifications/cancelled') return undefined;
    const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  }
  return 'id' in message && (typeof message.id === 'string' || typeof message.id === 'number')
    ? message.id
    : undefined;
}
