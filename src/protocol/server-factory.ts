// Builds the SDK Server that answers one connection's requests (a stdio connection, a legacy HTTP session) or one
// modern HTTP request, routing every request through the plugin host; the same handlers serve both eras.
import {
  type CallToolResult,
  type LoggingLevel,
  type ReadResourceResult,
  type Resource,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { type CacheHint, type CatalogList, errors, isForesightError } from '../contract/index.js';
import type { CallEnvironment, PluginHost } from '../host/index.js';
import { AdmissionRefused, type Release, type RequestAdmission } from './admission.js';
import { CallRateExceeded, type CallRateLimiter } from './call-rate.js';
import type { AgentStreams } from './agent-streams.js';
import {
  type CacheHints,
  type CacheHintsOf,
  PRIVATE_UNCACHED,
  stricterHints,
  toCacheHint,
} from './cache-hints.js';
import { type Connection, type ProtocolEra, envelopeOf, modernStreamKey } from './caller.js';
import type { Escalation, InputRounds } from './input-rounds.js';
import { withClientErrorCodes } from './client-error-codes.js';
import {
  type CatalogCheck,
  type ScopeCheck,
  requestCatalogCheck,
  requestScopeCheck,
} from './request-auth.js';
import { LegacyRequestEnvironment, type LogThresholdOf, RequestChannel } from './request-channel.js';
import { mayBeAsked } from './input-flow.js';
import {
  TASKS_EXTENSION,
  type TaskPolicy,
  isCreateTaskResult,
  registerTaskMethods,
  taskEscalation,
  withoutTaskSupport,
} from './tasks/index.js';
import type { StreamOrigin, ToolService } from './tool-service.js';
import { RESOURCE_NOT_FOUND, requestFailure, toolCallFailure, type WireErrorOptions } from './wire-errors.js';

/** A resource the server itself serves, read fresh on every request. */
export interface BuiltinResource {
  resource: Resource;
  /** What `principal` (the reader) may see: on a shared gateway, one person's view, not another's. */
  read(principal: string): ReadResourceResult;
}

export interface ServerFactoryOptions extends WireErrorOptions {
  name: string;
  version: string;
  instructions?: string;
  host: PluginHost;
  /** The server's own resources (e.g. `foresight://planner/stats`), listed before the plugins'. */
  builtinResources?: readonly BuiltinResource[];
  /** Multi round-trip requests of modern clients. */
  rounds: InputRounds;
  /** Each plugin's configured caching hints for modern clients (its resource reads). */
  cacheHints: CacheHintsOf;
  /**
   * The configured hints of the lists, which gather every plugin's entries (see `combinedHints`); what the
   * plugins' sources say of their lists can only make them stricter. Also those of `server/discover`.
   */
  listHints: CacheHints;
  /** Opens the tools of one agent stream (the planner's view). */
  openTools(stream: StreamOrigin): ToolService;
  /** The tools of modern requests that name their stream per request. */
  streams: AgentStreams;
  /** Tasks (the io.modelcontextprotocol/tasks extension) for modern clients; none without it. */
  tasks?: TaskPolicy;
  /** Bounds the calls running at once, in all and per client. */
  admission: RequestAdmission;
  /** Bounds the calls a client makes per minute. Default: no limit. */
  callRate?: CallRateLimiter;
}

/** What one Server serves: its era, and where its requests come from. */
export interface Binding {
  era: ProtocolEra;
  connection: Connection;
}

export interface BoundServer {
  server: Server;
  /** Published URIs this (legacy) connection subscribed to. */
  subscriptions: Set<string>;
  /** Ends the subscriptions `keep` refuses (a session's new token may not read them); their plugins are told. */
  dropSubscriptions(keep: (uri: string) => boolean): void;
  /** Detaches from host events and ends the connection's agent stream; call when its transport closes. */
  dispose(): void;
}

const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

type Env = CallEnvironment;

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
  let sessionLogLevel: LoggingLevel | undefined;
  // A connection that is one agent has one stream; a modern HTTP request names its own.
  const fixedTools = connection.stream
    ? options.openTools({
        id: connection.stream,
        principal: connection.principal,
        era,
        transport: connection.transport,
      })
    : undefined;
  const via = { era, transport: connection.transport };
  const toolsFor = (ctx: ServerContext): ToolService =>
    fixedTools ?? options.streams.get(modernStreamKey(connection.principal, ctx), connection.principal, via);

  // 2026-07-28: only at or above the level the request asks for, and nothing when it asks for none;
  // 2025: at or above the session's level, everything until the client sets one.
  const logThreshold: LogThresholdOf = modern
    ? (ctx) => envelopeOf(ctx).logLevel ?? 'none'
    : () => sessionLogLevel ?? 'all';
  const legacyEnv = (ctx: ServerContext): Env =>
    new LegacyRequestEnvironment(ctx, logThreshold, server.getClientCapabilities());

  /** A request of a modern client asks nothing during the call (completion, subscriptions). */
  const plainEnv = (ctx: ServerContext): Env =>
    modern ? new RequestChannel(ctx, logThreshold) : legacyEnv(ctx);

  /**
   * Runs a call that may ask for input: for a 2025 client during the call; for a 2026-07-28 client through
   * multi round-trip requests (an `input_required` answer, completed on the retry).
   */
  const withInput = <R, E = never>(
    ctx: ServerContext,
    target: { method: string; name: string; args: unknown },
    run: (env: Env) => Promise<R>,
    escalation?: Escalation<R, E>,
  ) => {
    if (!modern) return run(legacyEnv(ctx));
    const capabilities = envelopeOf(ctx).clientCapabilities;
    // A request that declares nothing it could be asked, and answers no earlier round, can never be answered with
    // input_required: its call runs on the request itself, as a 2025 call does, without a flow to resume (about
    // 40 µs a proxied call in a profile of the upstream bench). A call that may become a task keeps its flow.
    if (
      escalation === undefined &&
      !mayBeAsked(capabilities) &&
      ctx.mcpReq.requestState() === undefined &&
      ctx.mcpReq.inputResponses === undefined
    )
      return run(new RequestChannel(ctx, logThreshold, capabilities));
    return options.rounds.serve(
      {
        ctx,
        principal: connection.principal,
        target,
        // A call that may become a task runs under the plugin's task deadline from its start.
        channel: new RequestChannel(ctx, logThreshold, capabilities, escalation ? 'task' : undefined),
      },
      run,
      escalation,
    );
  };

  // A connection that is one agent is one client; modern HTTP requests are known by their principal alone, since
  // what else they say of themselves (clientInfo, trace id) is theirs to vary.
  const client = connection.client ?? connection.stream ?? connection.principal;
  const callRate = options.callRate?.limited ? options.callRate : undefined;
  /**
   * Counts one call against the client's rate, or refuses it (E_RATE_LIMITED). A 2026-07-28 retry that answers
   * the server's own question (it carries requestState) is the same call going on, and is not counted again.
   */
  const countCall = (ctx: ServerContext): void => {
    if (callRate === undefined || (modern && ctx.mcpReq.requestState() !== undefined)) return;
    try {
      callRate.take(client);
    } catch (error) {
      throw error instanceof CallRateExceeded
        ? errors.rateLimited(error.perMinute, error.retryAfterS)
        : error;
    }
  };
  /**
   * A slot for one call (see RequestAdmission): at once when one is free, else once the client's turn comes; a
   * client whose queue is full is refused. Handlers take it as `tryAdmit(client) ?? (await slotLater(ctx))` and
   * release it in a `finally` around the await they make anyway: with a slot free, no promise or turn is added to
   * the call (an extra await delayed 2025 HTTP answers behind the planner's work after each call, and sequential
   * calls/s halved in `npm run bench`).
   */
  const slotLater = async (ctx: ServerContext): Promise<Release> => {
    try {
      return await options.admission.admit(client, ctx.mcpReq.signal);
    } catch (error) {
      throw error instanceof AdmissionRefused ? errors.serverBusy(error.running, error.waiting) : error;
    }
  };

  const guard = async <T>(target: string, fn: () => Promise<T>, notFoundCode?: number): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw requestFailure(error, target, options, notFoundCode, era);
    }
  };

  /**
   * A modern read result carries its plugin's configured caching hints, made stricter by those its source gave in
   * the result itself (a 2026-07-28 upstream's); a 2025 result carries none, whatever the source sent.
   */
  const withReadHints = (
    uri: string,
    result: ReadResourceResult,
    configured: CacheHints | undefined,
  ): ReadResourceResult => {
    const { ttlMs, cacheScope, ...rest } = result;
    if (!modern) return rest;
    const owner = configured ?? options.cacheHints(host.ownerOfUri(uri) ?? '') ?? PRIVATE_UNCACHED;
    return { ...rest, ...toCacheHint(stricterHints(owner, [{ ttlMs, cacheScope } as CacheHint])) };
  };

  /**
   * A modern list carries the configured hints of the lists, made stricter by those the plugins' sources gave
   * their own lists (an upstream's tools/list on the 2026-07-28 revision); a 2025 list carries none.
   */
  const withListHints = <R extends object>(list: CatalogList, result: R): R =>
    modern
      ? { ...result, ...toCacheHint(stricterHints(options.listHints, host.reportedHints(list))) }
      : result;

  /**
   * A list handler that first waits for the plugins still loading their first catalogs (an upstream server
   * connecting, bounded by its start deadline), so a client that lists once sees what `foresight tools` shows.
   * Once they have, the flag is all a listing reads: no promise is made.
   */
  const listing =
    <A extends unknown[], R>(list: (...args: A) => R) =>
    async (...args: A): Promise<R> => {
      if (!host.catalogsSettled) await host.settle();
      return list(...args);
    };

  // The plugins' JSON Schemas pass through unchanged; the SDK types their property schemas as JSON values.
  // A 2025 client gets no tasks, so it is not told which tools have them (the 2026-07-28 codec drops the field).
  // Lists are redacted like results: an upstream server or a provider's metadata may echo a credential into a
  // description. The tool list is the same array until it is rebuilt, so its redacted copy is made once.
  server.setRequestHandler(
    'tools/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestScopeCheck(ctx);
      const all = options.redactListing(toolsFor(ctx).listTools());
      if (!check)
        return withListHints('tools', { tools: (modern ? all : withoutTaskSupport(all)) as Tool[] });
      // Under [auth.scopes] a tool the token may not call is not listed to it, so the list is this caller's own.
      const listed = all.filter((tool) => check(tool.name).missing.length === 0);
      const result = withListHints('tools', {
        tools: (modern ? listed : withoutTaskSupport(listed)) as Tool[],
      });
      return modern ? { ...result, cacheScope: 'private' as const } : result;
    }),
  );
  /**
   * Runs a tool call made while plugins still load their first catalogs (an upstream connecting): one that finds
   * no such tool runs again once they have, so a client that calls a tool it knows without listing first finds
   * it, as the first listing would have. Calls made once they have settled do not come here.
   */
  const whileSettling = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (!isForesightError(error) || error.code !== errors.toolNotFound.code) throw error;
      await host.settle();
      return call();
    }
  };
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const tools = toolsFor(ctx);
    try {
      const escalation =
        tasks &&
        taskEscalation(
          tasks,
          { tool: name, principal: connection.principal, capabilities: envelopeOf(ctx).clientCapabilities },
          options,
        );
      countCall(ctx);
      const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
      let result;
      try {
        result = await withInput(
          ctx,
          { method: 'tools/call', name, args: args ?? {} },
          (env) =>
            host.catalogsSettled
              ? tools.callTool(name, args ?? {}, env)
              : whileSettling(() => tools.callTool(name, args ?? {}, env)),
          escalation,
        );
      } finally {
        release();
      }
      // The SDK's tools/call result type has no CreateTaskResult; its 2026-07-28 codec passes resultType "task".
      if (isCreateTaskResult(result)) return result as unknown as CallToolResult;
      return options.redactResult(result as CallToolResult);
    } catch (error) {
      return toolCallFailure(error, name, options, era);
    }
  });
  if (tasks) registerTaskMethods(server, tasks.store, connection.principal, options);

  /**
   * Under [auth.scopes] a plugin's resources and prompts the token may not read are left out of its lists, which
   * are then this caller's own (`cacheScope: "private"` for a 2026-07-28 client, as for tools/list).
   */
  const onlyReadable = <T>(entries: T[], check: ((entry: T) => ScopeCheck) | undefined): T[] =>
    check ? entries.filter((entry) => check(entry).missing.length === 0) : entries;
  const ownList = <R extends object>(check: CatalogCheck | undefined, result: R): R =>
    check && modern ? { ...result, cacheScope: 'private' as const } : result;

  const builtins = new Map((options.builtinResources ?? []).map((entry) => [entry.resource.uri, entry]));
  // A prefix-less plugin (another Foresight mounted as an upstream) may list one of these URIs too: ours win.
  server.setRequestHandler(
    'resources/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestCatalogCheck(ctx);
      const plugins = host.listResources().filter((resource) => !builtins.has(resource.uri));
      return ownList(
        check,
        withListHints('resources', {
          resources: [
            ...[...builtins.values()].map((entry) => entry.resource),
            ...options.redactResult(
              onlyReadable(plugins, check && ((resource) => check.resource(resource.uri))),
            ),
          ],
        }),
      );
    }),
  );
  server.setRequestHandler(
    'resources/templates/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestCatalogCheck(ctx);
      const templates = onlyReadable(
        host.listResourceTemplates(),
        check && ((template) => check.resource(template.uriTemplate)),
      );
      return ownList(
        check,
        withListHints('resourceTemplates', { resourceTemplates: options.redactResult(templates) }),
      );
    }),
  );
  server.setRequestHandler('resources/read', (request, ctx) => {
    const { uri } = request.params;
    return guard(
      `resource ${uri}`,
      async () => {
        const builtin = builtins.get(uri);
        // Foresight's own resources describe this process as it runs: fresh each time, never shared.
        if (builtin) return withReadHints(uri, builtin.read(connection.principal), PRIVATE_UNCACHED);
        countCall(ctx);
        const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
        let result;
        try {
          result = await withInput(ctx, { method: 'resources/read', name: uri, args: {} }, (env) =>
            host.readResource(uri, env),
          );
        } finally {
          release();
        }
        if ('resultType' in result) return result;
        return withReadHints(uri, options.redactResult(result), undefined);
      },
      RESOURCE_NOT_FOUND,
    );
  });
  server.setRequestHandler(
    'prompts/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestCatalogCheck(ctx);
      const prompts = onlyReadable(host.listPrompts(), check && ((prompt) => check.prompt(prompt.name)));
      return ownList(check, withListHints('prompts', { prompts: options.redactResult(prompts) }));
    }),
  );
  server.setRequestHandler('prompts/get', (request, ctx) => {
    const { name, arguments: args } = request.params;
    return guard(`prompt "${name}"`, async () => {
      countCall(ctx);
      const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
      let result;
      try {
        result = await withInput(ctx, { method: 'prompts/get', name, args: args ?? {} }, (env) =>
          host.getPrompt(name, args, env),
        );
      } finally {
        release();
      }
      return 'resultType' in result ? result : options.redactResult(result);
    });
  });
  server.setRequestHandler('completion/complete', (request, ctx) =>
    guard('completion', async () => {
      const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
      try {
        return await host.complete(request.params, plainEnv(ctx));
      } finally {
        release();
      }
    }),
  );

  const detach: (() => void)[] = [];
  let disposed = false;
  if (!modern) {
    server.setRequestHandler('logging/setLevel', async (request) => {
      sessionLogLevel = request.params.level;
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
      if (disposed || !server.getClientCapabilities()?.roots) return;
      detach.push(host.roots.addSource(async () => (await server.listRoots()).roots));
    };
    server.setNotificationHandler('notifications/roots/list_changed', () => host.roots.changed());
  }

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
