// Messages between the host and a plugin running in a worker thread, and how errors cross that line.
import type { LoggingLevel } from '@modelcontextprotocol/server';
import {
  type CatalogKind,
  describeThrown,
  type ErrorKind,
  ForesightError,
  type InputRequestOptions,
  isForesightError,
  type PluginHealth,
  type ToolCategory,
} from '../contract/index.js';
import type { Catalog } from './mount.js';

export type WorkerMethod =
  'callTool' | 'readResource' | 'subscribe' | 'unsubscribe' | 'getPrompt' | 'complete' | 'start' | 'shutdown';
export type ClientRequestKind = 'createMessage' | 'elicit' | 'listRoots';
/** Optional provider members the proxy defines only when the plugin in the worker has them. */
export type RelayedProviderMember = 'subscribe' | 'unsubscribe' | 'health';
export const RELAYED_PROVIDER_MEMBERS: readonly RelayedProviderMember[] = [
  'subscribe',
  'unsubscribe',
  'health',
];
/** Optional context members the worker's context offers only when the host's context has them. */
export type RelayedContextMember = 'clientRoots' | 'onRootsChanged' | 'secrets';

export interface WorkerData {
  module: string;
  name: string;
  config: unknown;
  contextMembers: RelayedContextMember[];
}

export interface SerializedError {
  message: string;
  code?: string;
  kind?: ErrorKind;
  details?: Readonly<Record<string, unknown>>;
}

/** Host → worker: run one call of the plugin, with what its context needs to know. */
export interface CallMessage {
  type: 'call';
  id: number;
  method: WorkerMethod;
  args: unknown[];
  progressRequested: boolean;
  /** `RequestContext.logLevel` of the host's context when the call starts; absent when the client takes none. */
  logLevel?: LoggingLevel;
  /** `RequestContext.readOnly` of the host's context. */
  readOnly?: boolean;
  /** `RequestContext.principal` of the host's context. */
  principal?: string;
  /** `RequestContext.replayedInput` of the host's context. */
  replayedInput?: boolean;
  /** The host's context has `carryInput`: the worker's posts `carryInput` messages. */
  carriesInput?: boolean;
  /** `RequestContext.carriedInput` of the host's context. */
  carriedInput?: string;
  /** Relative, since each thread keeps its own clock origin. */
  timeLeftMs: number;
}

/** Host → worker. */
export type HostMessage =
  | CallMessage
  | { type: 'abort'; id: number; reason: SerializedError }
  | { type: 'reply'; requestId: number; value?: unknown; error?: SerializedError }
  /** The host context's `onRootsChanged` fired. */
  | { type: 'rootsChanged' }
  | { type: 'shutdownSignal' };

/** Worker → host. */
export type WorkerMessage =
  /**
   * `enricherCategories`: what each of the plugin's enrichers serves (functions cannot cross threads);
   * `members`: which optional relayed members the provider has; `health`: its first, when it has `health()`.
   */
  | {
      type: 'ready';
      catalog: Catalog;
      enricherCategories: ToolCategory[][];
      members: RelayedProviderMember[];
      health?: PluginHealth;
    }
  | { type: 'buildFailed'; error: SerializedError }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'progress'; id: number; progress: number; total?: number; message?: string }
  | { type: 'clientLog'; id: number; level: string; data: unknown; logger?: string }
  /** The call's `carryInput`, before the input it asks (messages keep their order). */
  | { type: 'carryInput'; id: number; state: string }
  | {
      type: 'clientRequest';
      id: number;
      requestId: number;
      kind: ClientRequestKind;
      params: unknown;
      options?: InputRequestOptions;
    }
  | { type: 'catalog'; kind: CatalogKind; catalog: Catalog }
  | { type: 'resourceUpdated'; uri: string }
  /** A secret registered through the context; with `user`, the Basic credential `user:value`. */
  | { type: 'secret'; value: string; user?: string }
  /** The provider's `health()` changed (polled in the worker, and checked after each call). */
  | { type: 'health'; health: PluginHealth }
  /** The plugin asked its context for `clientRoots()` outside a call; answered with `reply`. */
  | { type: 'clientRoots'; requestId: number }
  | {
      type: 'log';
      level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
      bindings: Record<string, unknown>;
      obj: unknown;
      msg?: string;
    };

export function serializeError(error: unknown): SerializedError {
  if (isForesightError(error))
    return {
      message: error.message,
      code: error.code,
      kind: error.kind,
      ...(error.details ? { details: error.details } : {}),
    };
  return { message: describeThrown(error) };
}

export function deserializeError(error: SerializedError): Error {
  if (error.code && error.kind)
    return new ForesightError(
      error.code,
      error.kind,
      error.message,
      error.details ? { details: error.details } : {},
    );
  return new Error(error.message);
}
