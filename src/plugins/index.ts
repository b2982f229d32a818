// The built-in plugins, chosen in foresight.toml by table name or `use = "<kind>"`.
import { resolve } from 'node:path';
import type { ZodType } from 'zod';
import type { Plugin } from '../contract/index.js';

export interface LoadedBuiltin {
  plugin: Plugin;
  /** Validates the plugin's options at mount, so a bad key is reported with its line in foresight.toml. */
  optionsSchema?: ZodType;
}

export interface BuiltinPlugin {
  /** The module whose default export is the plugin; a worker-isolated instance imports it from here. */
  module: URL;
  load(): Promise<LoadedBuiltin>;
  /** Rewrites options before validation, e.g. resolving relative paths against the config's directory. */
  prepareOptions?(options: Record<string, unknown>, baseDir: string): Record<string, unknown>;
  /** Options naming a directory that must exist (after prepareOptions), checked before the plugin is built. */
  directoryOptions?: readonly string[];
}

export const BUILTIN_PLUGINS: Readonly<Record<string, BuiltinPlugin>> = {
  workspace: {
    module: new URL('./workspace/index.js', import.meta.url),
    load: async () => {
      const loaded = await import('./workspace/index.js');
      return { plugin: loaded.default, optionsSchema: loaded.WorkspaceOptionsSchema };
    },
    prepareOptions: (options, baseDir) => ({
      ...options,
      root: resolve(baseDir, typeof options.root === 'string' ? options.root : '.'),
    }),
    directoryOptions: ['root'],
  },
  github: {
    module: new URL('./github/index.js', import.meta.url),
    load: async () => {
      const loaded = await import('./github/index.js');
      return { plugin: loaded.default, optionsSchema: loaded.GitHubOptionsSchema };
    },
  },
  gitlab: {
    module: new URL('./gitlab/index.js', import.meta.url),
    load: async () => {
      const loaded = await import('./gitlab/index.js');
      return { plugin: loaded.default, optionsSchema: loaded.GitLabOptionsSchema };
    },
  },
  jira: {
    module: new URL('./jira/index.js', import.meta.url),
    load: async () => {
      const loaded = await import('./jira/index.js');
      return { plugin: loaded.default, optionsSchema: loaded.JiraOptionsSchema };
    },
  },
  clickup: {
    module: new URL('./clickup/index.js', import.meta.url),
    load: async () => {
      const loaded = await import('./clickup/index.js');
      return { plugin: loaded.default, optionsSchema: loaded.ClickUpOptionsSchema };
    },
  },
  upstream: {
    module: new URL('./upstream/index.js', import.meta.url),
    load: async () => {
      const loaded = await import('./upstream/index.js');
      return { plugin: loaded.default, optionsSchema: loaded.UpstreamOptionsSchema };
    },
    // Paths in the table are relative to the config file, like every path in it.
    prepareOptions: (options, baseDir) => ({
      ...options,
      ...(typeof options.cwd === 'string' ? { cwd: resolve(baseDir, options.cwd) } : {}),
      ...(Array.isArray(options.roots)
        ? { roots: options.roots.map((root) => (typeof root === 'string' ? resolve(baseDir, root) : root)) }
        : {}),
    }),
  },
  conformance: {
    module: new URL('./conformance/index.js', import.meta.url),
    load: async () => {
      const loaded = await import('./conformance/index.js');
      return { plugin: loaded.default, optionsSchema: loaded.ConformanceOptionsSchema };
    },
  },
};

export const BUILTIN_KINDS: readonly string[] = Object.keys(BUILTIN_PLUGINS);
