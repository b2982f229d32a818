// What builds a bound server and what it hands back: the factory's options, the binding it serves, the result.
import type { ReadResourceResult, Resource, Server } from '@modelcontextprotocol/server';
import type { PluginHost } from '../host/index.js';
import type { RequestAdmission } from './admission.js';
import type { AgentStreams } from './agent-streams.js';
import type { CacheHints, CacheHintsOf } from './cache-hints.js';
import type { CallRateLimiter } from './call-rate.js';
import type { Connection, ProtocolEra } from './caller.js';
import type { InputRounds } from './input-rounds.js';
import type { TaskPolicy } from './tasks/index.js';
import type { StreamOrigin, ToolService } from './tool-service.js';
import type { WireErrorOptions } from './wire-errors.js';

/** A resource the server itself serves, read fresh on every request. */
export interface BuiltinResource {
  resource: Resource;
  /** What `principal` (the reader) may see: on a shared gateway, one person's view, not another's. */
  read(principal: string): ReadResourceResult;
}

export interface ServerFactoryOptions extends WireErrorOptions {
  name: string;
  version: string;
  instructions?: string;
  host: PluginHost;
  /** The server's own resources (e.g. `foresight://planner/stats`), listed before the plugins'. */
  builtinResources?: readonly BuiltinResource[];
  /** Multi round-trip requests of modern clients. */
  rounds: InputRounds;
  /** Each plugin's configured caching hints for modern clients (its resource reads). */
  cacheHints: CacheHintsOf;
  /**
   * The configured hints of the lists, which gather every plugin's entries (see `combinedHints`); what the
   * plugins' sources say of their lists can only make them stricter. Also those of `server/discover`.
   */
  listHints: CacheHints;
  /** Opens the tools of one agent stream (the planner's view). */
  openTools(stream: StreamOrigin): ToolService;
  /** The tools of modern requests that name their stream per request. */
  streams: AgentStreams;
  /** Tasks (the io.modelcontextprotocol/tasks extension) for modern clients; none without it. */
  tasks?: TaskPolicy;
  /** Bounds the calls running at once, in all and per client. */
  admission: RequestAdmission;
  /** Bounds the calls a client makes per minute. Default: no limit. */
  callRate?: CallRateLimiter;
}

/** What one Server serves: its era, and where its requests come from. */
export interface Binding {
  era: ProtocolEra;
  connection: Connection;
}

export interface BoundServer {
  server: Server;
  /** Published URIs this (legacy) connection subscribed to. */
  subscriptions: Set<string>;
  /** Ends the subscriptions `keep` refuses (a session's new token may not read them); their plugins are told. */
  dropSubscriptions(keep: (uri: string) => boolean): void;
  /** Detaches from host events and ends the connection's agent stream; call when its transport closes. */
  dispose(): void;
}
