// How local names become published ones, and the checks that keep published names valid.
import { NAME_SEPARATOR, PUBLISHED_TOOL_NAME_PATTERN, errors, isValidPluginId } from '../contract/index.js';

const URI_SCHEME_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*$/;

export function checkPluginId(id: string, owner: string): void {
  if (!isValidPluginId(id)) throw errors.pluginIdInvalid(id, owner);
}

/** The scheme of Foresight's own resources (`foresight://planner/stats`): no plugin may publish under it. */
export const RESERVED_PREFIX = 'foresight';

/** Prefixes follow plugin-id rules, or are "" for none; `foresight` is Foresight's own. */
export function checkPrefix(prefix: string, owner: string): void {
  if (prefix !== '' && !isValidPluginId(prefix)) throw errors.pluginIdInvalid(prefix, `prefix of ${owner}`);
  if (prefix === RESERVED_PREFIX) throw errors.prefixReserved(prefix, owner);
}

export function publishName(prefix: string, local: string): string {
  return prefix === '' ? local : `${prefix}${NAME_SEPARATOR}${local}`;
}

/**
 * Decides under which name a plugin's tool is published, or (undefined) that it is not published at all: a tool
 * left out has no route, so no list shows it and no call reaches it. Default `publishName(prefix, local)`.
 */
export type ToolPublisher = (plugin: { name: string; prefix: string }, local: string) => string | undefined;

export const publishUnchanged: ToolPublisher = (plugin, local) => publishName(plugin.prefix, local);

export function checkPublishedToolName(name: string, owner: string): void {
  if (!PUBLISHED_TOOL_NAME_PATTERN.test(name)) {
    throw errors.nameInvalid('tool', name, owner, 'published tool names must match ^[A-Za-z0-9_-]{1,64}$');
  }
}

export function checkPromptName(name: string, owner: string): void {
  if (name.length === 0 || name.length > 128 || /\s/.test(name)) {
    throw errors.nameInvalid('prompt', name, owner, 'prompt names must be 1-128 characters without spaces');
  }
}

/** URI schemes cannot hold "_", so a prefix's underscores become "-" in its scheme. */
export function schemeForPrefix(prefix: string): string {
  return prefix.replaceAll('_', '-');
}

/** The scheme of an absolute URI ("x://..." or "x:..."), or undefined for a local one. */
export function uriScheme(uri: string): string | undefined {
  const colon = uri.indexOf(':');
  if (colon <= 0) return undefined;
  const scheme = uri.slice(0, colon);
  return URI_SCHEME_PATTERN.test(scheme) ? scheme : undefined;
}

/** Publishes a plugin-local URI under the plugin's scheme; a prefix-less plugin's URIs are already absolute. */
export function publishUri(scheme: string | undefined, local: string): string {
  return scheme === undefined ? local : `${scheme}://${local}`;
}
