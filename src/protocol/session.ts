// One client session: an SDK low-level Server whose handlers route every request through the plugin host.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type LoggingLevel,
  type ReadResourceResult,
  type Resource,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallEnvironment, PluginHost } from '../host/index.js';
import { RESOURCE_NOT_FOUND, requestFailure, toolCallFailure, type WireErrorOptions } from './wire-errors.js';

export interface SessionOptions extends WireErrorOptions {
  name: string;
  version: string;
  instructions?: string;
  /** The server's own resources (e.g. `foresight://planner/stats`), listed before the plugins'. */
  builtinResources?: readonly BuiltinResource[];
}

/** A resource the server itself serves, read fresh on every request. */
export interface BuiltinResource {
  resource: Resource;
  read(): ReadResourceResult;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Tools as clients see them: the enrichment pipeline in front of the plugin host. */
export interface ToolService {
  listTools(): Tool[];
  callTool(name: string, args: Record<string, unknown>, env?: CallEnvironment): Promise<CallToolResult>;
  /** Returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Called once when the session ends. */
  dispose?(): void;
}

const LEVELS = LoggingLevelSchema.options;

export interface Session {
  server: Server;
  /** Published URIs this session subscribed to. */
  subscriptions: Set<string>;
  /** Detaches the session from host events; call when its transport closes. */
  dispose(): void;
}

export function createSession(host: PluginHost, tools: ToolService, options: SessionOptions): Session {
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
      instructions: options.instructions,
    },
  );
  const subscriptions = new Set<string>();
  // No level set yet: every message goes out, as the spec leaves the default to the server.
  let minLevel: LoggingLevel | undefined;

  const environment = (extra: Extra, progressToken: string | number | undefined): CallEnvironment => {
    const capabilities = server.getClientCapabilities();
    return {
      signal: extra.signal,
      closeSSEStream: extra.closeSSEStream,
      sendProgress:
        progressToken === undefined
          ? undefined
          : (progress, total, message) =>
              extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress, total, message },
              }),
      sendLog: async (level, data, logger) => {
        if (minLevel && LEVELS.indexOf(level) < LEVELS.indexOf(minLevel)) return;
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level, data, ...(logger === undefined ? {} : { logger }) },
        });
      },
      createMessage: capabilities?.sampling
        ? (params, signal) =>
            extra.sendRequest({ method: 'sampling/createMessage', params }, CreateMessageResultSchema, {
              signal,
            })
        : undefined,
      elicit: capabilities?.elicitation
        ? (params, signal) =>
            extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, { signal })
        : undefined,
      listRoots: capabilities?.roots
        ? (signal) => extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { signal })
        : undefined,
    };
  };

  const guard = async <T>(target: string, fn: () => Promise<T>, notFoundCode?: number): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw requestFailure(error, target, options, notFoundCode);
    }
  };

  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    minLevel = request.params.level;
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    try {
      return options.redactResult(
        await tools.callTool(name, args ?? {}, environment(extra, request.params._meta?.progressToken)),
      );
    } catch (error) {
      return toolCallFailure(error, name, options);
    }
  });
  const builtins = new Map((options.builtinResources ?? []).map((entry) => [entry.resource.uri, entry]));
  // A prefix-less plugin (another Foresight mounted as an upstream) may list one of these URIs too: ours win.
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      ...[...builtins.values()].map((entry) => entry.resource),
      ...host.listResources().filter((resource) => !builtins.has(resource.uri)),
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: host.listResourceTemplates(),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    guard(
      `resource ${request.params.uri}`,
      async () =>
        builtins.get(request.params.uri)?.read() ??
        options.redactResult(
          await host.readResource(
            request.params.uri,
            environment(extra, request.params._meta?.progressToken),
          ),
        ),
      RESOURCE_NOT_FOUND,
    ),
  );
  server.setRequestHandler(SubscribeRequestSchema, (request, extra) => {
    const { uri } = request.params;
    return guard(`subscription to ${uri}`, async () => {
      if (subscriptions.has(uri)) return {};
      // Listening before the plugin is told, so an update it sends while subscribing is not lost.
      subscriptions.add(uri);
      try {
        await host.subscribe(uri, environment(extra, undefined));
      } catch (error) {
        subscriptions.delete(uri);
        throw error;
      }
      return {};
    });
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request, extra) => {
    const { uri } = request.params;
    return guard(`subscription to ${uri}`, async () => {
      if (!subscriptions.delete(uri)) return {};
      await host.unsubscribe(uri, environment(extra, undefined));
      return {};
    });
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: host.listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    guard(`prompt "${request.params.name}"`, async () =>
      options.redactResult(
        await host.getPrompt(
          request.params.name,
          request.params.arguments,
          environment(extra, request.params._meta?.progressToken),
        ),
      ),
    ),
  );
  server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
    guard('completion', () => host.complete(request.params, environment(extra, undefined))),
  );

  const detach = [
    // The tool list clients see is the enriched one, so its changes come from the pipeline.
    tools.onToolsChanged(() => {
      server.sendToolListChanged().catch(() => {});
    }),
    host.on('listChanged', (kind) => {
      if (kind === 'tools') return;
      const send = kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
      send.catch(() => {});
    }),
    host.on('resourceUpdated', (uri) => {
      if (subscriptions.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
    }),
  ];

  // A client with roots becomes a source the plugins can ask outside a call; its list_changed reaches them.
  server.oninitialized = () => {
    if (disposed || !server.getClientCapabilities()?.roots) return;
    detach.push(host.roots.addSource(async () => (await server.listRoots()).roots));
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => host.roots.changed());

  let disposed = false;
  return {
    server,
    subscriptions,
    dispose: () => {
      if (disposed) return;
      disposed = true;
      for (const off of detach) off();
      // The plugins learn that this session no longer listens (an upstream stops sending what no one reads).
      for (const uri of subscriptions) host.unsubscribe(uri).catch(() => {});
      subscriptions.clear();
      tools.dispose?.();
    },
  };
}
