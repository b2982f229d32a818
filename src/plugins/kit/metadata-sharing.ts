// What a tracker's metadata is as text another process reads: JSON that keeps Maps and Sets, with the fingerprint
// it had, and the key that ties it to one site, project and credential.
import { createHash } from 'node:crypto';
import type { SharedPluginState } from '../../contract/index.js';

export interface MetadataSharing {
  /** The cluster's store (`PluginContext.sharedState`). */
  state: SharedPluginState;
  /** What makes this metadata specific; build it with `sharedMetadataKey`. */
  key: string;
}

/**
 * The key of one store's metadata: what it is (`what`, e.g. "labels"), where it comes from (base URL, project…)
 * and whose eyes it was read with (a hash of the credential, never the credential), so two sites, projects or
 * tokens never share a value. `credential` is every secret part joined (e.g. "email:token").
 */
export function sharedMetadataKey(
  parts: Record<string, string | readonly string[]>,
  credential: string,
): string {
  const seenBy = createHash('sha256').update(`foresight metadata credential\0${credential}`).digest('hex');
  return JSON.stringify({ ...parts, credential: seenBy.slice(0, 32) });
}

/** The sharing of a plugin instance's metadata, when it runs in a cluster; undefined otherwise. */
export function metadataSharing(
  state: SharedPluginState | undefined,
  key: string,
): MetadataSharing | undefined {
  return state === undefined ? undefined : { state, key };
}

const TAG = '$foresight';

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { [TAG]: 'Map', entries: [...(value as Map<unknown, unknown>)] };
  if (value instanceof Set) return { [TAG]: 'Set', values: [...(value as Set<unknown>)] };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !(TAG in value)) return value;
  const tagged = value as { [TAG]: unknown; entries?: unknown; values?: unknown };
  if (tagged[TAG] === 'Map' && Array.isArray(tagged.entries))
    return new Map(tagged.entries as [unknown, unknown][]);
  if (tagged[TAG] === 'Set' && Array.isArray(tagged.values)) return new Set(tagged.values);
  return value;
}

/** One load, as stored: the data and the fingerprint the loader computed, which the reader checks its copy against. */
export function encodeMetadata(data: unknown, fingerprint: string): string {
  return JSON.stringify({ fingerprint, data }, replacer);
}

/**
 * The data of a stored load, checked: its fingerprint computed here must be the loader's, so a value this
 * release cannot read back whole (a type the codec drops) is never served. Undefined when it is not.
 */
export function decodeMetadata<T>(
  text: string,
  fingerprintOf: (data: T) => string,
): { data: T; fingerprint: string } | undefined {
  try {
    const stored = JSON.parse(text, reviver) as { fingerprint?: unknown; data?: unknown };
    if (typeof stored.fingerprint !== 'string' || stored.data === undefined) return undefined;
    const data = stored.data as T;
    const fingerprint = fingerprintOf(data);
    return fingerprint === stored.fingerprint ? { data, fingerprint } : undefined;
  } catch {
    return undefined;
  }
}
