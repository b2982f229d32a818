// A mounted plugin: its provider, where it publishes, its deadlines, and the snapshot of its catalogs.
import type {
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import type {
  CatalogCacheHints,
  Logger,
  Plugin,
  PluginProvider,
  ToolDescriptor,
  ToolEnricher,
} from '../contract/index.js';

export type PluginMethod = 'callTool' | 'readResource' | 'getPrompt' | 'complete' | 'start' | 'shutdown';

/**
 * Each method's deadline, and `task`: the deadline of a tool call that may run as a task (a client that declared
 * the tasks extension calling a task-capable tool), which holds no client while it runs. Never shorter than
 * `callTool`.
 */
export type Deadlines = Record<PluginMethod, number> & { task: number };

/** Defaults from DESIGN.md: 30 s for calls, 10 s for start and shutdown (build shares start's); 10 min for tasks. */
export const DEFAULT_DEADLINES: Readonly<Deadlines> = {
  callTool: 30_000,
  readResource: 30_000,
  getPrompt: 30_000,
  complete: 30_000,
  start: 10_000,
  shutdown: 10_000,
  task: 600_000,
};

export type Isolation = 'inline' | 'worker';

/** What to mount: a plugin object, or a module path whose default export is one. */
export interface MountSpec {
  /** Instance name (the config table name); default: the plugin id. */
  name?: string;
  plugin?: Plugin;
  /** Absolute path or URL of a module whose default export is a Plugin. */
  module?: string;
  /** Namespace for published names; default: the instance name; "" for none. */
  prefix?: string;
  /** The plugin's own options, handed to it as `PluginContext.config`. */
  options?: unknown;
  deadlines?: Partial<Deadlines>;
  /** Default "inline"; "worker" needs `module`. */
  isolation?: Isolation;
}

export interface Catalog {
  tools: ToolDescriptor[];
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
  /** What the plugin reported with them (`PluginProvider.catalogHints`); absent when it reports none. */
  hints?: CatalogCacheHints;
}

export interface Mount {
  name: string;
  prefix: string;
  /** The URI scheme the plugin owns; undefined for a prefix-less plugin, whose URIs are absolute. */
  scheme: string | undefined;
  plugin: Plugin;
  provider: PluginProvider;
  deadlines: Deadlines;
  logger: Logger;
  catalog: Catalog;
  /** The plugin's own enrichers, read once after build, each method running in the plugin's scope. */
  enrichers: readonly ToolEnricher[];
  /** How messages name this plugin: `"gh" (github)` or `"workspace"`. */
  label: string;
}

export function mountLabel(name: string, pluginId: string): string {
  return name === pluginId ? `"${name}"` : `"${name}" (${pluginId})`;
}
