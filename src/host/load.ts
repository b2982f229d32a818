// Resolves what a MountSpec names into a Plugin object: given inline, or the default export of a module.
import { pathToFileURL } from 'node:url';
import { describeThrown, errors, type Plugin } from '../contract/index.js';
import { resolveOwnPackageFor } from './own-package.js';

export function isPlugin(value: unknown): value is Plugin {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.version === 'string' && typeof v.build === 'function';
}

export function moduleUrl(module: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(module) && !/^[a-z]:[\\/]/i.test(module)
    ? module
    : pathToFileURL(module).href;
}

export async function loadPluginModule(module: string, owner: string): Promise<Plugin> {
  let loaded: Record<string, unknown>;
  try {
    const url = moduleUrl(module);
    resolveOwnPackageFor(url);
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw errors.pluginLoad(owner, `importing ${module} failed: ${describeThrown(error)}`);
  }
  const candidate = loaded.default;
  if (!isPlugin(candidate)) {
    throw errors.pluginLoad(
      owner,
      `${module} must default-export a plugin object { id: string, version: string, build(ctx) } (see definePlugin)`,
    );
  }
  return candidate;
}
