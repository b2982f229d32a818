// Lets a plugin module import `foresight` from a folder with no node_modules: when Node finds no such package
// for the importing module, the name resolves as it does for the host itself, to the package that is running.
import * as nodeModule from 'node:module';

/**
 * The resolve hook, run on Node's loader thread, which takes a module source (here a data: URL). Only a failed
 * lookup of the bare name is retried, so a plugin whose own folder resolves `foresight` keeps that copy.
 */
const HOOK_SOURCE = `let hostUrl;
export function initialize(data) { hostUrl = data.hostUrl; }
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (specifier !== 'foresight' || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    try {
      return await nextResolve(specifier, { ...context, parentURL: hostUrl });
    } catch {
      throw error;
    }
  }
}
`;

let registered = false;

/**
 * Registers the hook once in the calling thread, before the first plugin module is imported. A worker thread
 * has a loader of its own that does not see the main thread's hooks, so loading there registers again. Node
 * before 20.6 has no `module.register`: there a plugin resolves `foresight` from its own folder only.
 */
export function resolveOwnPackageForPlugins(): void {
  if (registered) return;
  registered = true;
  if (!('register' in nodeModule) || typeof nodeModule.register !== 'function') return;
  // From this file, `foresight` names the package it belongs to (a package may import itself by its name).
  nodeModule.register(`data:text/javascript,${encodeURIComponent(HOOK_SOURCE)}`, {
    data: { hostUrl: import.meta.url },
  });
}
