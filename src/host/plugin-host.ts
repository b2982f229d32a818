// The plugin host: mounts plugins, keeps the route table, and runs every call through the guarded boundary.
import {
  CallToolResultSchema,
  GetPromptResultSchema,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/core';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import {
  type CacheHint,
  type CatalogKind,
  type CatalogList,
  type CompletionRequest,
  describeThrown,
  errors,
  isForesightError,
  type Logger,
  type PluginContext,
  type PluginHealth,
  type SecretRegistry,
  type SharedPluginState,
  type SharedRateLimits,
} from '../contract/index.js';
import { readCatalog, readCatalogPart, readHealth } from './catalog.js';
import { ClientRoots } from './client-roots.js';
import { capCompletion } from './completion.js';
import { FirstCatalogs } from './first-catalogs.js';
import { innerMessage, invokePlugin } from './invoke.js';
import { installIsolationHandlers } from './isolation.js';
import { loadPluginModule } from './load.js';
import { readPluginEnrichers } from './plugin-enrichers.js';
import { DEFAULT_DEADLINES, type Mount, type MountSpec, type PluginMethod, mountLabel } from './mount.js';
import {
  type ToolPublisher,
  checkPluginId,
  checkPrefix,
  publishUnchanged,
  publishUri,
  schemeForPrefix,
} from './names.js';
import type { CallEnvironment, ToolCallOptions } from './request-context.js';
import {
  type PublishedToolEntry,
  type RouteTable,
  buildRouteTable,
  publishedPrompt,
  publishedResource,
  publishedTemplate,
  publishedToolEntry,
  routeUri,
} from './routes.js';
import {
  createUriRewriter,
  hasResourceBlocks,
  rewritePromptResult,
  rewriteReadResult,
  rewriteToolResult,
} from './uri-ownership.js';
import { createWorkerProvider } from './worker.js';

export type HostState = 'new' | 'starting' | 'started' | 'stopping' | 'stopped';

export interface PluginHostOptions {
  logger: Logger;
  /** Offered to plugins as `PluginContext.secrets`; none by default. */
  secrets?: SecretRegistry;
  /** Offered to plugins (not those in a worker) as `PluginContext.rateLimits`; none by default. */
  rateLimits?: SharedRateLimits;
  /** Which tools are published and under what name (the config's tool rules); default all, as the plugin names them. */
  publishTool?: ToolPublisher;
  /** Offered to plugins as `PluginContext.sharedState` (not to worker-isolated ones); none by default. */
  sharedState?: SharedPluginStates;
}

/** Where each plugin instance's `PluginContext.sharedState` comes from: a cluster's store, one scope per instance. */
export interface SharedPluginStates {
  /** The store of one plugin instance; `scope` names it (table name, plugin id and version). */
  forPlugin(scope: string): SharedPluginState;
}

/** One mounted plugin, as `foresight check` and `foresight tools` show it. */
export interface MountedPlugin {
  name: string;
  id: string;
  prefix: string;
  tools: number;
  /** The plugin's own names of its tools, published or not. */
  toolNames: readonly string[];
  health: PluginHealth;
}

export interface HostEvents {
  listChanged: (kind: CatalogKind) => void;
  resourceUpdated: (uri: string) => void;
}

const EMPTY_ROUTES: RouteTable = { tools: new Map(), prompts: new Map(), schemes: new Map() };

export class PluginHost {
  private readonly specs: MountSpec[] = [];
  private mounts: Mount[] = [];
  private readonly started: Mount[] = [];
  private routes: RouteTable = EMPTY_ROUTES;
  private state: HostState = 'new';
  /** Sessions subscribed to each published URI. */
  private readonly subscribers = new Map<string, number>();
  private readonly shutdownController = new AbortController();
  private readonly firstCatalogs = new FirstCatalogs(this.shutdownController.signal);
  private stopping: Promise<void> | undefined;
  private releaseIsolation: (() => void) | undefined;
  private readonly listeners: { [K in keyof HostEvents]: Set<HostEvents[K]> } = {
    listChanged: new Set(),
    resourceUpdated: new Set(),
  };

  /** The connected clients' roots, for plugins outside a call. */
  readonly roots: ClientRoots;

  constructor(private readonly options: PluginHostOptions) {
    this.roots = new ClientRoots(options.logger);
  }

  private get publishTool(): ToolPublisher {
    return this.options.publishTool ?? publishUnchanged;
  }

  get logger(): Logger {
    return this.options.logger;
  }

  get status(): HostState {
    return this.state;
  }

  /** Fires when shutdown begins. */
  get shutdownSignal(): AbortSignal {
    return this.shutdownController.signal;
  }

  mount(spec: MountSpec): this {
    if (this.state !== 'new')
      throw errors.registerAfterStart(spec.name ?? spec.plugin?.id ?? String(spec.module));
    this.specs.push(spec);
    return this;
  }

  on<K extends keyof HostEvents>(event: K, listener: HostEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  /** Builds every plugin, checks all names, then starts them in mount order. Idempotent. */
  async start(): Promise<void> {
    if (this.state !== 'new') return;
    this.state = 'starting';
    this.releaseIsolation = installIsolationHandlers(this.logger);
    try {
      this.mounts = [];
      for (const spec of this.specs) this.mounts.push(await this.build(spec));
      this.routes = buildRouteTable(this.mounts, this.publishTool);
      for (const mount of this.mounts) {
        await this.startOne(mount);
        this.started.push(mount);
        this.firstCatalogs.watch(mount);
      }
      this.firstCatalogs.seal();
    } catch (error) {
      await this.shutdown();
      throw error;
    }
    this.state = 'started';
  }

  private async build(spec: MountSpec): Promise<Mount> {
    const owner = spec.name ? `"${spec.name}"` : spec.module ? `from ${spec.module}` : 'given to createHost';
    const plugin = spec.plugin ?? (spec.module ? await loadPluginModule(spec.module, owner) : undefined);
    if (!plugin) throw errors.pluginLoad(owner, 'a mount needs a plugin object or a module path');
    checkPluginId(plugin.id, `plugin ${owner}`);
    const name = spec.name ?? plugin.id;
    checkPluginId(name, `instance name of plugin ${plugin.id}`);
    const previous = this.mounts.find((m) => m.name === name);
    if (previous)
      throw errors.nameConflict('plugin instance', name, `plugin ${previous.label}`, `plugin ${plugin.id}`);
    const prefix = spec.prefix ?? name;
    checkPrefix(prefix, `plugin "${name}"`);
    const mount: Mount = {
      name,
      prefix,
      scheme: prefix === '' ? undefined : schemeForPrefix(prefix),
      plugin,
      provider: { tools: () => [], callTool: () => Promise.reject(errors.toolNotFound(name)) },
      deadlines: { ...DEFAULT_DEADLINES, ...spec.deadlines },
      logger: this.logger.child({ plugin: name }),
      catalog: { tools: [], resources: [], templates: [], prompts: [] },
      enrichers: [],
      label: mountLabel(name, plugin.id),
    };
    const context: PluginContext = {
      config: spec.options ?? {},
      logger: mount.logger,
      shutdown: this.shutdownSignal,
      notifyListChanged: (kind) => this.refreshCatalog(mount, kind),
      notifyResourceUpdated: (uri) => this.emit('resourceUpdated', publishUri(mount.scheme, uri)),
      clientRoots: () => this.roots.current(),
      onRootsChanged: (listener) => this.roots.onChanged(listener),
      ...(this.options.secrets ? { secrets: this.options.secrets } : {}),
      // The version is in the scope: another release may shape what it stores differently. A worker-isolated
      // plugin gets none (the worker relays only the members it knows).
      ...(this.options.sharedState && spec.isolation !== 'worker'
        ? { sharedState: this.options.sharedState.forPlugin(`${name}/${plugin.id}@${plugin.version}`) }
        : {}),
      ...(this.options.rateLimits ? { rateLimits: this.options.rateLimits } : {}),
    };
    const target = `plugin ${mount.label}`;
    try {
      if (spec.isolation === 'worker') {
        if (!spec.module)
          throw errors.pluginLoad(owner, 'isolation = "worker" needs the plugin as a module path');
        mount.provider = await createWorkerProvider({ module: spec.module, mount, context, host: this });
      } else {
        mount.provider = await invokePlugin(
          { mount, method: 'start', target, shutdown: this.shutdownSignal },
          () => plugin.build(context),
        );
      }
    } catch (error) {
      // Load errors already name the plugin; anything else from build() is reported with its name.
      throw isForesightError(error) && error.code === errors.pluginLoad.code
        ? error
        : errors.pluginBuild(mount.label, innerMessage(error));
    }
    if (typeof mount.provider?.tools !== 'function' || typeof mount.provider.callTool !== 'function') {
      throw errors.pluginBuild(mount.label, 'build() must return a provider with tools() and callTool()');
    }
    mount.catalog = readCatalog(mount.provider, mount.label);
    mount.enrichers = readPluginEnrichers(mount.provider, mount);
    return mount;
  }

  private async startOne(mount: Mount): Promise<void> {
    const provider = mount.provider;
    if (!provider.start) return;
    try {
      await this.invoke(mount, 'start', `start() of plugin ${mount.label}`, () => provider.start?.());
    } catch (error) {
      throw errors.pluginStart(mount.label, innerMessage(error));
    }
    mount.logger.debug({}, 'started');
  }

  /** Stops accepting calls, fires the shutdown signal, then shuts plugins down in reverse mount order. */
  shutdown(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    this.state = 'stopping';
    this.shutdownController.abort(errors.shuttingDown('the host'));
    for (const mount of [...this.started].reverse()) {
      const provider = mount.provider;
      try {
        if (provider.shutdown) {
          await this.invoke(mount, 'shutdown', `shutdown() of plugin ${mount.label}`, () =>
            provider.shutdown?.(),
          );
        }
      } catch (error) {
        mount.logger.error({ err: describeThrown(error) }, 'shutdown failed');
      }
    }
    this.started.length = 0;
    this.releaseIsolation?.();
    this.state = 'stopped';
  }

  // ---- catalogs ---------------------------------------------------------------------------------

  /** Every published tool with its plugin's enrichers, in mount order: what the enrichment pipeline builds on. */
  publishedTools(): PublishedToolEntry[] {
    return [...this.routes.tools.values()].map(publishedToolEntry);
  }

  listResources(): Resource[] {
    return this.mounts.flatMap((m) => m.catalog.resources.map((r) => publishedResource(m, r)));
  }

  listResourceTemplates(): ResourceTemplate[] {
    return this.mounts.flatMap((m) => m.catalog.templates.map((t) => publishedTemplate(m, t)));
  }

  listPrompts(): Prompt[] {
    return this.mounts.flatMap((m) => m.catalog.prompts.map((p) => publishedPrompt(m, p)));
  }

  /** The caching hints every plugin that reports them gave `list` with its catalogs, in mount order. */
  reportedHints(list: CatalogList): CacheHint[] {
    return this.mounts.flatMap((m) => m.catalog.hints?.[list] ?? []);
  }

  /** The instance name of the plugin that owns a published URI; undefined when none does. */
  ownerOfUri(uri: string): string | undefined {
    return routeUri(this.routes, uri)?.mount.name;
  }

  /** The instance name of the plugin that owns a published prompt name; undefined when none does. */
  ownerOfPrompt(name: string): string | undefined {
    return this.routes.prompts.get(name)?.mount.name;
  }

  mountedPlugins(): readonly MountedPlugin[] {
    return this.mounts.map((m) => ({
      name: m.name,
      id: m.plugin.id,
      prefix: m.prefix,
      tools: m.catalog.tools.length,
      toolNames: m.catalog.tools.map((tool) => tool.name),
      health: this.healthOf(m),
    }));
  }

  /** A plugin's own account of its health; one that gives none is taken as ready. */
  private healthOf(mount: Mount): PluginHealth {
    return readHealth(mount.provider) ?? { state: 'ready' };
  }

  /**
   * True once every plugin loading its catalogs in the background (an upstream server connecting) has them, or
   * its start deadline has passed: from then on, lists answer without waiting.
   */
  get catalogsSettled(): boolean {
    return this.firstCatalogs.settled;
  }

  /**
   * Resolves when `catalogsSettled` turns true (at once before `start()`), so lists and one-shot commands show
   * what a plugin connecting in the background serves. Check `catalogsSettled` first: this makes a promise.
   */
  settle(): Promise<void> {
    return this.firstCatalogs.wait();
  }

  /**
   * Re-reads one catalog of a plugin. During start-up (a plugin loading its catalog in start()) the
   * snapshot is updated quietly; once serving, the route table is rebuilt and sessions are told.
   */
  private refreshCatalog(mount: Mount, kind: CatalogKind): void {
    const building = this.state === 'starting' && this.routes === EMPTY_ROUTES;
    if (!this.mounts.includes(mount) || (this.state !== 'starting' && this.state !== 'started')) return;
    const previous = mount.catalog;
    try {
      mount.catalog = readCatalogPart(mount.provider, mount.label, kind, mount.catalog);
      if (!building) this.routes = buildRouteTable(this.mounts, this.publishTool);
    } catch (error) {
      mount.catalog = previous;
      mount.logger.error(
        { err: describeThrown(error), kind },
        'catalog change rejected; keeping the previous one',
      );
      return;
    }
    if (this.state === 'started') this.emit('listChanged', kind);
  }

  private emit<K extends keyof HostEvents>(event: K, ...args: Parameters<HostEvents[K]>): void {
    for (const listener of this.listeners[event]) {
      try {
        (listener as (...a: Parameters<HostEvents[K]>) => void)(...args);
      } catch (error) {
        this.logger.error({ err: describeThrown(error), event }, 'host event listener failed');
      }
    }
  }

  // ---- calls ------------------------------------------------------------------------------------
  // callTool runs the plugin as asked: arguments are checked by the enrichment pipeline in front of it.

  private invoke<T>(
    mount: Mount,
    method: PluginMethod,
    target: string,
    fn: Parameters<typeof invokePlugin<T>>[1],
    env?: CallEnvironment,
    readOnly?: boolean,
  ): Promise<T> {
    return invokePlugin({ mount, method, target, shutdown: this.shutdownSignal, env, readOnly }, fn);
  }

  private assertServing(target: string): void {
    if (this.state === 'stopping' || this.state === 'stopped') throw errors.shuttingDown(target);
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    env?: CallEnvironment,
    options?: ToolCallOptions,
  ): Promise<CallToolResult> {
    const target = `tool "${name}"`;
    this.assertServing(target);
    const route = this.routes.tools.get(name);
    if (!route) throw errors.toolNotFound(name);
    const { mount, local } = route;
    const result = await this.invoke(
      mount,
      'callTool',
      target,
      (ctx) => mount.provider.callTool(local, args, ctx),
      env,
      options?.readOnly,
    );
    // The SDK validates results in depth; this cheap shape check keeps the common case off the full parse
    // and turns a malformed result into an error that names the tool.
    if (!looksLikeToolResult(result)) {
      const parsed = CallToolResultSchema.safeParse(result);
      throw errors.badResult(
        target,
        parsed.success ? 'expected { content: [...] }' : firstIssue(parsed.error),
      );
    }
    return hasResourceBlocks(result)
      ? rewriteToolResult(result, createUriRewriter(mount, this.routes))
      : result;
  }

  async readResource(uri: string, env?: CallEnvironment): Promise<ReadResourceResult> {
    const target = `resource ${uri}`;
    this.assertServing(target);
    const route = routeUri(this.routes, uri);
    const read = route?.mount.provider.readResource?.bind(route.mount.provider);
    if (!route || !read) throw errors.resourceNotFound(uri);
    const result = await this.invoke(
      route.mount,
      'readResource',
      target,
      (ctx) => read(route.local, ctx),
      env,
    );
    const parsed = ReadResourceResultSchema.safeParse(result);
    if (!parsed.success) throw errors.badResult(target, firstIssue(parsed.error));
    return rewriteReadResult(result, createUriRewriter(route.mount, this.routes));
  }

  /**
   * A session subscribed to a published URI: the plugin owning it is told when the first session subscribes
   * (under the readResource deadline). A URI no plugin owns is accepted, as it may appear later.
   */
  async subscribe(uri: string, env?: CallEnvironment): Promise<void> {
    const count = this.subscribers.get(uri) ?? 0;
    this.subscribers.set(uri, count + 1);
    if (count > 0) return;
    try {
      this.assertServing(`subscription to ${uri}`);
      await this.tellOwner(uri, 'subscribe', env);
    } catch (error) {
      this.release(uri);
      throw error;
    }
  }

  /** A session unsubscribed from `uri` (or ended); the owning plugin is told when it was the last one. */
  async unsubscribe(uri: string, env?: CallEnvironment): Promise<void> {
    if (this.release(uri) > 0 || this.state !== 'started') return;
    await this.tellOwner(uri, 'unsubscribe', env);
  }

  /** Calls the owning plugin's `subscribe` or `unsubscribe` for `uri`, if it has one. */
  private async tellOwner(uri: string, member: 'subscribe' | 'unsubscribe', env?: CallEnvironment) {
    const route = routeUri(this.routes, uri);
    const tell = route?.mount.provider[member]?.bind(route.mount.provider);
    if (!route || !tell) return;
    const target = `${member === 'subscribe' ? 'subscription to' : 'unsubscription from'} ${uri}`;
    await this.invoke(route.mount, 'readResource', target, (ctx) => tell(route.local, ctx), env);
  }

  /** One subscriber fewer; returns how many remain. */
  private release(uri: string): number {
    const left = (this.subscribers.get(uri) ?? 1) - 1;
    if (left > 0) this.subscribers.set(uri, left);
    else this.subscribers.delete(uri);
    return left;
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    env?: CallEnvironment,
  ): Promise<GetPromptResult> {
    const target = `prompt "${name}"`;
    this.assertServing(target);
    const route = this.routes.prompts.get(name);
    const get = route?.mount.provider.getPrompt?.bind(route.mount.provider);
    if (!route || !get) throw errors.promptNotFound(name);
    const result = await this.invoke(
      route.mount,
      'getPrompt',
      target,
      (ctx) => get(route.local, args, ctx),
      env,
    );
    const parsed = GetPromptResultSchema.safeParse(result);
    if (!parsed.success) throw errors.badResult(target, firstIssue(parsed.error));
    return rewritePromptResult(result, createUriRewriter(route.mount, this.routes));
  }

  /** Routes `ref/prompt` by prompt name and `ref/resource` by scheme, in local names; caps values at 100. */
  async complete(request: CompletionRequest, env?: CallEnvironment): Promise<CompleteResult> {
    const ref = request.ref;
    const target =
      ref.type === 'ref/prompt' ? `completion of prompt "${ref.name}"` : `completion of ${ref.uri}`;
    this.assertServing(target);
    let mount: Mount;
    let localRef: CompletionRequest['ref'];
    if (ref.type === 'ref/prompt') {
      const route = this.routes.prompts.get(ref.name);
      if (!route) throw errors.promptNotFound(ref.name);
      mount = route.mount;
      localRef = { ...ref, name: route.local };
    } else {
      const route = routeUri(this.routes, ref.uri);
      if (!route) throw errors.resourceNotFound(ref.uri);
      mount = route.mount;
      localRef = { ...ref, uri: route.local };
    }
    const complete = mount.provider.complete?.bind(mount.provider);
    if (!complete) return { completion: { values: [], hasMore: false, total: 0 } };
    const local: CompletionRequest = { ...request, ref: localRef };
    const completion = await this.invoke(mount, 'complete', target, (ctx) => complete(local, ctx), env);
    if (!completion || !Array.isArray(completion.values))
      throw errors.badResult(target, 'expected { values: string[] }');
    return { completion: capCompletion(completion) };
  }
}

function looksLikeToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const content = (value as { content?: unknown }).content;
  if (!Array.isArray(content)) return false;
  return content.every((block) => typeof (block as { type?: unknown } | null)?.type === 'string');
}

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not match the MCP schema';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
