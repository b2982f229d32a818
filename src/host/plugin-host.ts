// The plugin host: mounts plugins, keeps the route table and catalogs, and runs the lifecycle (start in mount
// order, shutdown in reverse); each call it serves goes through PluginCalls.
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
  type Logger,
  type PluginHealth,
} from '../contract/index.js';
import { buildMount } from './build-mount.js';
import { readCatalogPart, readHealth } from './catalog.js';
import { ClientRoots } from './client-roots.js';
import { FirstCatalogs } from './first-catalogs.js';
import type { HostEvents, HostState, MountedPlugin, PluginHostOptions } from './host-types.js';
import { innerMessage, invokePlugin } from './invoke.js';
import { installIsolationHandlers } from './isolation.js';
import type { Mount, MountSpec } from './mount.js';
import { type ToolPublisher, publishUnchanged } from './names.js';
import { PluginCalls } from './plugin-calls.js';
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

export type {
  HostEvents,
  HostState,
  MountedPlugin,
  PluginHostOptions,
  SharedPluginStates,
} from './host-types.js';

const EMPTY_ROUTES: RouteTable = { tools: new Map(), prompts: new Map(), schemes: new Map() };

export class PluginHost {
  private readonly specs: MountSpec[] = [];
  private mounts: Mount[] = [];
  private readonly started: Mount[] = [];
  private routes: RouteTable = EMPTY_ROUTES;
  private state: HostState = 'new';
  private readonly shutdownController = new AbortController();
  private readonly firstCatalogs = new FirstCatalogs(this.shutdownController.signal);
  private stopping: Promise<void> | undefined;
  private releaseIsolation: (() => void) | undefined;
  private readonly listeners: { [K in keyof HostEvents]: Set<HostEvents[K]> } = {
    listChanged: new Set(),
    resourceUpdated: new Set(),
  };

  private readonly calls = new PluginCalls({
    routes: () => this.routes,
    state: () => this.state,
    shutdownSignal: this.shutdownController.signal,
  });

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
      for (const spec of this.specs) this.mounts.push(await buildMount(spec, this.buildHost()));
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

  /** What building a mount takes from this host. */
  private buildHost(): Parameters<typeof buildMount>[1] {
    return {
      options: this.options,
      logger: this.logger,
      shutdownSignal: this.shutdownSignal,
      roots: this.roots,
      built: this.mounts,
      refreshCatalog: (mount, kind) => this.refreshCatalog(mount, kind),
      resourceUpdated: (uri) => this.emit('resourceUpdated', uri),
    };
  }

  private async startOne(mount: Mount): Promise<void> {
    const provider = mount.provider;
    if (!provider.start) return;
    try {
      await this.invokeLifecycle(mount, 'start', () => provider.start?.());
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
          await this.invokeLifecycle(mount, 'shutdown', () => provider.shutdown?.());
        }
      } catch (error) {
        mount.logger.error({ err: describeThrown(error) }, 'shutdown failed');
      }
    }
    this.started.length = 0;
    this.releaseIsolation?.();
    this.state = 'stopped';
  }

  /** Runs a plugin's start() or shutdown() through the guarded boundary, under that method's deadline. */
  private invokeLifecycle(mount: Mount, method: 'start' | 'shutdown', fn: () => unknown) {
    const target = `${method}() of plugin ${mount.label}`;
    return invokePlugin({ mount, method, target, shutdown: this.shutdownSignal }, fn);
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

  // ---- calls (routed by PluginCalls) -----------------------------------------------------------

  callTool(
    name: string,
    args: Record<string, unknown>,
    env?: CallEnvironment,
    options?: ToolCallOptions,
  ): Promise<CallToolResult> {
    return this.calls.callTool(name, args, env, options);
  }

  readResource(uri: string, env?: CallEnvironment): Promise<ReadResourceResult> {
    return this.calls.readResource(uri, env);
  }

  /**
   * A session subscribed to a published URI: the plugin owning it is told when the first session subscribes
   * (under the readResource deadline). A URI no plugin owns is accepted, as it may appear later.
   */
  subscribe(uri: string, env?: CallEnvironment): Promise<void> {
    return this.calls.subscribe(uri, env);
  }

  /** A session unsubscribed from `uri` (or ended); the owning plugin is told when it was the last one. */
  unsubscribe(uri: string, env?: CallEnvironment): Promise<void> {
    return this.calls.unsubscribe(uri, env);
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    env?: CallEnvironment,
  ): Promise<GetPromptResult> {
    return this.calls.getPrompt(name, args, env);
  }

  /** Routes `ref/prompt` by prompt name and `ref/resource` by scheme, in local names; caps values at 100. */
  complete(request: CompletionRequest, env?: CallEnvironment): Promise<CompleteResult> {
    return this.calls.complete(request, env);
  }
}
