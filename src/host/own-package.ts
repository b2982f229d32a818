// Lets a plugin module import `foresight` from a folder with no node_modules: when Node finds no such package
// for the importing module, the name resolves as it does for the host itself, to the package that is running.
import { existsSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * Registers the hook in the calling thread, once, before a plugin module that could not find `foresight` by
 * itself is imported. A worker thread has a loader of its own that does not see the main thread's hooks, so
 * loading there registers again. The hook costs a loader thread (about 25 ms to start), hence the check first.
 * Node before 20.6 has no `module.register`: there a plugin resolves `foresight` from its own folder only.
 */
export function resolveOwnPackageFor(moduleUrl: string): void {
  if (registered || resolvesOnItsOwn(moduleUrl)) return;
  registered = true;
  if (!('register' in nodeModule) || typeof nodeModule.register !== 'function') return;
  // From this file, `foresight` names the package it belongs to (a package may import itself by its name).
  nodeModule.register(`data:text/javascript,${encodeURIComponent(HOOK_SOURCE)}`, {
    data: { hostUrl: import.meta.url },
  });
}

/**
 * Whether Node's own lookup finds `foresight` for a module at this URL: a node_modules/foresight in its folder or
 * one above, or a package scope that is foresight itself (this repository's examples).
 */
function resolvesOnItsOwn(moduleUrl: string): boolean {
  if (!moduleUrl.startsWith('file:')) return false;
  let scopeSeen = false;
  for (let dir = path.dirname(fileURLToPath(moduleUrl)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', 'foresight', 'package.json'))) return true;
    const manifest = path.join(dir, 'package.json');
    if (!scopeSeen && existsSync(manifest)) {
      scopeSeen = true;
      if (isSelf(manifest)) return true;
    }
    if (path.dirname(dir) === dir) return false;
  }
}

function isSelf(manifest: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; exports?: unknown };
    return pkg.name === 'foresight' && pkg.exports !== undefined;
  } catch {
    return false;
  }
}
