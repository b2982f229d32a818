// Reads what a provider reports synchronously: its catalogs (inside the plugin's scope, their shape checked)
// and its health.
import {
  type CatalogCacheHints,
  type CatalogKind,
  describeThrown,
  errors,
  type PluginHealth,
  type PluginProvider,
} from '../contract/index.js';
import { runInPluginScope } from './isolation.js';
import type { Catalog } from './mount.js';

function readList<T>(owner: string, what: string, read: (() => T[]) | undefined): T[] {
  if (!read) return [];
  let list: unknown;
  try {
    list = runInPluginScope({ plugin: owner, target: `${what} of plugin ${owner}`, fail: () => {} }, read);
  } catch (error) {
    throw errors.badResult(`${what} of plugin ${owner}`, `it threw: ${describeThrown(error)}`);
  }
  if (!Array.isArray(list)) throw errors.badResult(`${what} of plugin ${owner}`, 'expected an array');
  return list as T[];
}

function checkNamed(
  owner: string,
  what: string,
  items: readonly unknown[],
  key: 'name' | 'uri' | 'uriTemplate',
) {
  for (const item of items) {
    const value = (item as Record<string, unknown> | null)?.[key];
    if (typeof value !== 'string' || value.length === 0) {
      throw errors.badResult(`${what} of plugin ${owner}`, `every entry needs a non-empty string "${key}"`);
    }
  }
}

/**
 * The caching hints a plugin reports for its lists, read with every catalog part: a source's hints change when
 * its lists do. Their values are checked where they are used (the protocol layer), as any source's would be.
 */
function readHints(provider: PluginProvider, owner: string): CatalogCacheHints | undefined {
  const read = provider.catalogHints?.bind(provider);
  if (!read) return undefined;
  let hints: unknown;
  try {
    hints = runInPluginScope(
      { plugin: owner, target: `catalogHints() of plugin ${owner}`, fail: () => {} },
      read,
    );
  } catch (error) {
    throw errors.badResult(`catalogHints() of plugin ${owner}`, `it threw: ${describeThrown(error)}`);
  }
  if (typeof hints !== 'object' || hints === null)
    throw errors.badResult(`catalogHints() of plugin ${owner}`, 'expected an object');
  return hints as CatalogCacheHints;
}

export function readCatalogPart(
  provider: PluginProvider,
  owner: string,
  kind: CatalogKind,
  into: Catalog,
): Catalog {
  const hints = readHints(provider, owner);
  return { ...readLists(provider, owner, kind, into), ...(hints ? { hints } : {}) };
}

function readLists(provider: PluginProvider, owner: string, kind: CatalogKind, into: Catalog): Catalog {
  switch (kind) {
    case 'tools': {
      const tools = readList(owner, 'tools()', () => provider.tools());
      checkNamed(owner, 'tools()', tools, 'name');
      for (const tool of tools) {
        const schema = tool.inputSchema as { type?: unknown } | undefined;
        if (typeof schema !== 'object' || schema === null || schema.type !== 'object') {
          throw errors.badResult(
            `tools() of plugin ${owner}`,
            `tool "${tool.name}" needs an inputSchema of type "object"`,
          );
        }
      }
      return { ...into, tools };
    }
    case 'resources': {
      const resources = readList(owner, 'resources()', provider.resources?.bind(provider));
      const templates = readList(owner, 'resourceTemplates()', provider.resourceTemplates?.bind(provider));
      checkNamed(owner, 'resources()', resources, 'uri');
      checkNamed(owner, 'resourceTemplates()', templates, 'uriTemplate');
      return { ...into, resources, templates };
    }
    case 'prompts': {
      const prompts = readList(owner, 'prompts()', provider.prompts?.bind(provider));
      checkNamed(owner, 'prompts()', prompts, 'name');
      return { ...into, prompts };
    }
  }
}

export function readCatalog(provider: PluginProvider, owner: string): Catalog {
  let catalog: Catalog = { tools: [], resources: [], templates: [], prompts: [] };
  for (const kind of ['tools', 'resources', 'prompts'] as const)
    catalog = readCatalogPart(provider, owner, kind, catalog);
  return catalog;
}

/**
 * A plugin's own account of its health as plain data (it may cross to the host from a worker): undefined when
 * it has none; a `health()` that throws says the plugin is down.
 */
export function readHealth(provider: PluginProvider): PluginHealth | undefined {
  if (!provider.health) return undefined;
  try {
    const { state, detail } = provider.health();
    return detail === undefined ? { state } : { state, detail };
  } catch (error) {
    return { state: 'down', detail: `health() failed: ${describeThrown(error)}` };
  }
}
