// The plugin host's public types: its options, states, events, and what it shows of a mounted plugin.
import type {
  CatalogKind,
  Logger,
  PluginHealth,
  SecretRegistry,
  SharedPluginState,
  SharedRateLimits,
} from '../contract/index.js';
import type { ToolPublisher } from './names.js';

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
