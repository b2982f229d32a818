// Builds one mount from its spec: loads the plugin, checks its names, gives it its context, reads its catalogs.
import {
  type CatalogKind,
  errors,
  isForesightError,
  type Logger,
  type PluginContext,
} from '../contract/index.js';
import { readCatalog } from './catalog.js';
import type { ClientRoots } from './client-roots.js';
import type { PluginHostOptions } from './host-types.js';
import { innerMessage, invokePlugin } from './invoke.js';
import { loadPluginModule } from './load.js';
import { DEFAULT_DEADLINES, type Mount, type MountSpec, mountLabel } from './mount.js';
import { checkPluginId, checkPrefix, publishUri, schemeForPrefix } from './names.js';
import { readPluginEnrichers } from './plugin-enrichers.js';
import { createWorkerProvider } from './worker.js';

/** What building a mount takes from the host: what it offers plugins, and where their notices go. */
export interface MountBuildHost {
  readonly options: PluginHostOptions;
  readonly logger: Logger;
  /** Fires when shutdown begins. */
  readonly shutdownSignal: AbortSignal;
  readonly roots: ClientRoots;
  /** The mounts built so far, whose instance names a new one must not take. */
  readonly built: readonly Mount[];
  /** A plugin said one of its catalogs changed. */
  refreshCatalog(mount: Mount, kind: CatalogKind): void;
  /** A plugin said a resource changed: `uri` as published. */
  resourceUpdated(uri: string): void;
}

export async function buildMount(spec: MountSpec, host: MountBuildHost): Promise<Mount> {
  const owner = spec.name ? `"${spec.name}"` : spec.module ? `from ${spec.module}` : 'given to createHost';
  const plugin = spec.plugin ?? (spec.module ? await loadPluginModule(spec.module, owner) : undefined);
  if (!plugin) throw errors.pluginLoad(owner, 'a mount needs a plugin object or a module path');
  checkPluginId(plugin.id, `plugin ${owner}`);
  const name = spec.name ?? plugin.id;
  checkPluginId(name, `instance name of plugin ${plugin.id}`);
  const previous = host.built.find((m) => m.name === name);
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
    logger: host.logger.child({ plugin: name }),
    catalog: { tools: [], resources: [], templates: [], prompts: [] },
    enrichers: [],
    label: mountLabel(name, plugin.id),
  };
  const { options } = host;
  const context: PluginContext = {
    config: spec.options ?? {},
    logger: mount.logger,
    shutdown: host.shutdownSignal,
    notifyListChanged: (kind) => host.refreshCatalog(mount, kind),
    notifyResourceUpdated: (uri) => host.resourceUpdated(publishUri(mount.scheme, uri)),
    clientRoots: () => host.roots.current(),
    onRootsChanged: (listener) => host.roots.onChanged(listener),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    // The version is in the scope: another release may shape what it stores differently. A worker-isolated
    // plugin gets none (the worker relays only the members it knows).
    ...(options.sharedState && spec.isolation !== 'worker'
      ? { sharedState: options.sharedState.forPlugin(`${name}/${plugin.id}@${plugin.version}`) }
      : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
  };
  const target = `plugin ${mount.label}`;
  try {
    if (spec.isolation === 'worker') {
      if (!spec.module)
        throw errors.pluginLoad(owner, 'isolation = "worker" needs the plugin as a module path');
      mount.provider = await createWorkerProvider({ module: spec.module, mount, context, host });
    } else {
      mount.provider = await invokePlugin(
        { mount, method: 'start', target, shutdown: host.shutdownSignal },
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
