// The plugin contract: the only types a plugin module needs. Grows by optional members only.
import type {
  CacheHint,
  CallToolResult,
  ClientCapabilities,
  CompleteRequest,
  CompleteResult,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  ListRootsResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Root,
  Tool,
} from '@modelcontextprotocol/server';
import type { ToolCategory, ToolEnricher } from './enricher.js';
import type { Logger } from './logger.js';

export type { CacheHint };

/** Plugin ids, and so default prefixes: lowercase, start with a letter, at most 32 chars. */
export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;
/** What common clients accept as a tool name. */
export const PUBLISHED_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Joins a prefix and a local tool or prompt name. */
export const NAME_SEPARATOR = '__';

/** Whether `id` may name a plugin (and so be its default prefix). */
export function isValidPluginId(id: string): boolean {
  return PLUGIN_ID_PATTERN.test(id) && !id.includes(NAME_SEPARATOR);
}

export type CatalogKind = 'tools' | 'resources' | 'prompts';

/** The lists a plugin reports caching hints for (`resourceTemplates`: resources/templates/list). */
export type CatalogList = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/**
 * A plugin's caching hints for its lists, by list: each as a 2026-07-28 result carries them (`ttlMs`, how long it
 * stays fresh; `cacheScope`, whether a cache shared across authorization contexts may keep it), either optional.
 */
export type CatalogCacheHints = Partial<Record<CatalogList, CacheHint>>;

export interface PluginContext {
  /** This plugin's table from foresight.toml (minus host keys), for the plugin to validate. */
  config: unknown;
  /** Child logger tagged with the plugin id; writes JSON to stderr. */
  logger: Logger;
  /** Fires when the host begins shutting down. */
  shutdown: AbortSignal;
  notifyListChanged(kind: CatalogKind): void;
  /** `uri` is the plugin's local URI (as it appears in its own resources). */
  notifyResourceUpdated(uri: string): void;
  /**
   * Outside a call: the roots of the agent's client when exactly one connected client declares roots (over
   * stdio, or a single HTTP session), else undefined. During a call, use `RequestContext.listRoots`.
   */
  clientRoots?(): Promise<Root[] | undefined>;
  /** Called when a client's roots change, or a client with roots connects or leaves. Returns the unsubscribe. */
  onRootsChanged?(listener: () => void): () => void;
  /**
   * Where a plugin registers secrets the host cannot know of: credentials it builds from configured ones, or
   * tokens it was handed without the config (a plugin mounted in code). Absent when the host redacts nothing.
   */
  secrets?: SecretRegistry;
  /**
   * State kept in common with this plugin's instances in the other processes of a cluster (`[cluster]`), so that
   * what one process loaded (a tracker's metadata) the others read instead of loading it again. Scoped to this
   * plugin instance (its table name, id and version). Absent outside a cluster, and in a plugin run with
   * `isolation = "worker"`: the plugin then does everything itself.
   */
  sharedState?: SharedPluginState;
  /**
   * Rate limits a provider learned, held in common with the other processes of a cluster, so that N processes
   * spend no more requests on a limited API than one would. Absent for a single process and under
   * `isolation = "worker"`: the plugin then keeps what it learns to itself.
   */
  rateLimits?: SharedRateLimits;
}

/**
 * What the processes of a cluster know of providers' rate limits. A key names one budget as the provider counts it
 * (an API host and the account or token it is spent by); it never holds a secret, so hash any token part.
 */
export interface SharedRateLimits {
  /**
   * Epoch ms until which `key` is known to be rate limited, or undefined when it is not known to be (or the answer
   * did not come within a small bound: the plugin then behaves as a single process would).
   */
  blockedUntil(key: string): Promise<number | undefined>;
  /** Tells every process that `key` is rate limited until `untilMs` (epoch ms); never throws, returns at once. */
  block(key: string, untilMs: number): void;
  /**
   * Spaces requests of `key` at least `intervalMs` apart across every process (a token bucket of one token, refilled
   * each interval): reserves the next turn and resolves with how long to wait for it, in ms (0: send now), or
   * undefined when the shared count cannot be reached (space them as this process alone would).
   */
  reserve?(key: string, intervalMs: number): Promise<number | undefined>;
}

/**
 * A store of text values under keys the plugin names, shared across a cluster's processes, with a lease so that one
 * process at a time produces a value. A key names all that makes the value specific to this deployment: the
 * service's base URL, the project, and an identity of the credentials (a hash, never the token itself), so two
 * deployments or two tokens never read each other's values. Every method answers within a short bound and never
 * rejects: while the store cannot be reached it answers `unavailable` (or `false`), and the plugin does its work
 * locally.
 */
export interface SharedPluginState {
  /**
   * The value under `key` while it is fresh; else the lease to produce it (held by one process at a time: renewed
   * while this process holds it, gone `leaseMs` after it stops, so a process that dies frees it); else `held`
   * when another process holds it (wait for `onWritten`, or claim again later).
   */
  claim(key: string, leaseMs: number): Promise<SharedClaim>;
  /** The value under `key` while it is fresh. */
  read(key: string): Promise<SharedRead>;
  /** Stores `value` under `key` for `ttlMs` and tells the other processes (`onWritten`); false when it could not. */
  write(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Called when another process has written `key`. Returns the unsubscribe. */
  onWritten(key: string, listener: () => void): () => void;
}

/** A fresh value; `ttlLeftMs` is how long it stays fresh (the store's clock, not this process's). */
export interface SharedValue {
  kind: 'found';
  value: string;
  ttlLeftMs: number;
}

export type SharedRead = SharedValue | { kind: 'missing' } | { kind: 'unavailable' };

export type SharedClaim =
  | SharedValue
  /** This process produces the value: write it, then release (releasing without writing lets another try). */
  | { kind: 'lease'; release(): void }
  | { kind: 'held' }
  | { kind: 'unavailable' };

/** Values the host redacts, with their encoded forms, from results, errors, logs and CLI output. */
export interface SecretRegistry {
  /** A secret value; values shorter than 4 characters are ignored. */
  add(value: string): void;
  /**
   * `secret` and the HTTP Basic credential `user:secret`, so `Authorization: Basic …` echoed back by a server
   * is redacted too. Call it wherever a plugin joins a user and a token.
   */
  addBasicCredential(user: string, secret: string): void;
}

/**
 * An MCP tool as the plugin names it. `category` ties it to the enrichers that serve that category;
 * `formatted` asks for the format layer's `format` parameter whatever the category. Neither is published.
 * `execution.taskSupport` (`optional` or `required`) marks a tool whose calls may run long: a 2026-07-28 client
 * with the tasks extension then gets them as tasks it polls; `required` refuses a request without it (-32021).
 */
export type ToolDescriptor = McpTool & { category?: ToolCategory; formatted?: boolean };

/**
 * A tool's input or output JSON Schema: an object schema whose property schemas may be any JSON Schema object
 * (the SDK types them as JSON values, which a schema built in code rarely satisfies without a cast).
 */
export interface ToolJsonSchema {
  type: 'object';
  properties?: Record<string, object>;
  required?: string[];
  [keyword: string]: unknown;
}

/** An MCP tool with its schemas typed as JSON Schema objects; passed to clients unchanged. */
export type McpTool = Omit<Tool, 'inputSchema' | 'outputSchema'> & {
  inputSchema: ToolJsonSchema;
  outputSchema?: ToolJsonSchema;
};

export interface RequestContext {
  /** Aborted on deadline, on client cancellation, on shutdown, and when its task expires; `reason` says which. */
  signal: AbortSignal;
  /**
   * Aborted when the client cancels this request (at least then: where the request has no signal of its own,
   * this is `signal`). It is the request's own signal, so reading it costs nothing, where the first read of
   * `signal` makes a controller. Together with `timeLeftMs()` as a timeout it suits a client library that ends
   * requests on its own timer, as the upstream plugin's MCP client does: the deadline then ends them there too.
   */
  clientSignal: AbortSignal;
  /** Milliseconds left until this call's deadline; 0 once it has passed. */
  timeLeftMs(): number;
  /**
   * True when the client asked for progress on this request (it sent a progress token); `reportProgress` does
   * nothing otherwise, so a plugin may skip measuring progress, or asking a server for it.
   */
  progressRequested: boolean;
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** `logger` names the source, as in `notifications/message` (e.g. an upstream server's own logger name). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * The least severe level the client takes log messages of this call at, as it stands now (a 2025 session may
   * change it while the call runs); undefined when it takes none (it set none on a 2026-07-28 request), in a
   * speculative call, and once the call has settled. A plugin whose source sends logs only when asked (a
   * 2026-07-28 upstream) asks at this level; `log` applies the client's threshold either way.
   */
  readonly logLevel?: LoggingLevel;
  /** True when the planner runs this call ahead of the agent. */
  speculative: boolean;
  /**
   * True when the tool called has no side effects by its value model (side effect `pure` or `read_only`: the
   * user's `[tools]` blocks, else the plugin's enricher, else the tool's `readOnlyHint`), so holding the call
   * back or sending it again changes nothing. Absent or false: it may write, and an unknown counts as a write.
   */
  readOnly?: boolean;
  /**
   * Who the request comes from: `sub:<issuer host>:<sub>` for a verified OAuth access token (`[auth]`),
   * `token:<fingerprint>` for the static bearer token, `address:<ip>` for unauthenticated HTTP, `local` over
   * stdio and in memory; for a speculative call, the principal it runs ahead for. For attributing and limiting
   * work, never for authenticating to another service: the token itself is never passed to a plugin.
   * Absent where the host calling the plugin does not know it.
   */
  readonly principal?: string;
  /**
   * True when this run of the call is a replay: a 2026-07-28 client's retry answers questions of a call that this
   * process no longer holds (it waited on another process, or its wait ended at its deadline), so the call runs
   * again from its start, its questions answered from the retry (see `elicit`). Whatever the call did before its
   * questions has run once already. A plugin that cannot make that safe (one that forwards the call to a server
   * that may write) refuses here, before doing anything, unless `readOnly`. Absent or false on a first run and on
   * a resumed one.
   */
  readonly replayedInput?: boolean;
  /**
   * Keeps `state` with the input the call is about to ask a 2026-07-28 client for: it travels in Foresight's
   * requestState (signed, so the client can read it but not alter it: put nothing secret in it), and a retry that
   * replays the call elsewhere hands it back in `carriedInput`. For a plugin that relays another server's
   * multi round-trip request: the replay resumes that server's round instead of sending the call again. The last
   * state kept before the call asks is the one carried; one over 32 KiB is not carried. Undefined where no retry
   * can come back to a replay (a 2025 client, a speculative call).
   */
  readonly carryInput?: (state: string) => void;
  /** On a replay (`replayedInput`), the state the call kept (`carryInput`) in the round the retry answers. */
  readonly carriedInput?: string;
  /**
   * Asks the client's model for a completion (sampling). Rejects with `E_CAPABILITY_MISSING` when the client
   * did not declare the capability, and in a speculative call. See `elicit` for how it works on each protocol era.
   */
  createMessage(
    params: CreateMessageRequest['params'],
    options?: InputRequestOptions,
  ): Promise<CreateMessageResult>;
  /**
   * Asks the user through the client (elicitation). A client of the 2025 revisions gets a request during the
   * call. A client of the 2026-07-28 revision gets an `input_required` result and retries with the answer: the
   * call goes on where it waited when the retry reaches this process while it waits, and is run again from
   * the start otherwise (another process, or after its deadline), with this call answered at once from the
   * retry. So work done before `elicit` may run more than once: do side effects after the answers, or make
   * them idempotent (docs/writing-plugins.md, "Asking the client").
   */
  elicit(params: ElicitRequest['params'], options?: InputRequestOptions): Promise<ElicitResult>;
  /** The client's roots (`roots/list`); rejects like `elicit` when the client lacks the capability. */
  listRoots?(options?: InputRequestOptions): Promise<ListRootsResult>;
  /**
   * What the client declared it can answer: on this request for a 2026-07-28 client, at initialize for a 2025
   * one. Lets a plugin that relays another server's questions (the upstream plugin) tell that server what may be
   * asked. Undefined where the environment does not say (an embedder's, a speculative call's).
   */
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * Over Streamable HTTP, ends this request's SSE stream early so the client reconnects and polls for the
   * result (SEP-1699); undefined on transports and clients without it.
   */
  closeSSEStream?(): void;
}

/** How a request for input is named to the client. */
export interface InputRequestOptions {
  /**
   * Its key in the `inputRequests` of a 2026-07-28 client (and in the answers the client sends back); default
   * `elicitation-1`, `sampling-1`, `roots-1`, … numbered in the order the call asks. Ignored by 2025 clients.
   * Give one when the client must recognise the request, or when several are asked at once under one kind.
   */
  key?: string;
}

/**
 * `_meta` key under which Foresight names, in a request for input it sends a 2025 client, the key the plugin
 * gave it (`InputRequestOptions.key`): a Foresight that mounts this one as a 2025 upstream then asks its own
 * 2026-07-28 client under the same key.
 */
export const INPUT_KEY_META = 'foresight/inputKey';

/**
 * How a plugin that depends on something outside Foresight (a server, an API) is doing, for `foresight check`
 * and `foresight tools`. Lists and one-shot commands wait while a plugin says `starting` (up to its start
 * deadline; see `PluginProvider.catalogsSettled`).
 */
export interface PluginHealth {
  /**
   * `down`: its calls fail until it recovers (its last good catalog stays listed). `degraded`: it serves, with
   * less than it should (e.g. generic schemas because its metadata failed to load); `detail` says why.
   */
  state: PluginHealthState;
  /** One line a person can act on (where, what it serves, the last error); never a secret. */
  detail?: string;
}

export type PluginHealthState = 'starting' | 'ready' | 'degraded' | 'down';

export interface PluginProvider {
  tools(): ToolDescriptor[];
  callTool(name: string, args: Record<string, unknown>, ctx: RequestContext): Promise<CallToolResult>;
  enrichers?(): ToolEnricher[];
  resources?(): Resource[];
  resourceTemplates?(): ResourceTemplate[];
  /**
   * A result may carry its source's caching hints in its own `ttlMs` / `cacheScope` (`CacheHint`; a 2026-07-28
   * upstream's does): a 2026-07-28 client is then never told a longer TTL than they, nor `public` where they say
   * `private`.
   */
  readResource?(uri: string, ctx: RequestContext): Promise<ReadResourceResult>;
  /**
   * The first client subscribed to `uri` (local): a plugin that learns of changes only on request (an upstream
   * server) asks for them here, and reports them with `notifyResourceUpdated`.
   */
  subscribe?(uri: string, ctx: RequestContext): Promise<void>;
  /** The last subscriber of `uri` has unsubscribed or gone. */
  unsubscribe?(uri: string, ctx: RequestContext): Promise<void>;
  prompts?(): Prompt[];
  getPrompt?(
    name: string,
    args: Record<string, string> | undefined,
    ctx: RequestContext,
  ): Promise<GetPromptResult>;
  complete?(req: CompletionRequest, ctx: RequestContext): Promise<CompletionResult>;
  /**
   * For a plugin that relays another server's lists (an upstream on the 2026-07-28 revision): the caching hints
   * that server gave them, as of the catalogs the plugin lists now (read with them, after `notifyListChanged`).
   * Foresight's own lists are then never fresher, nor more public, than these or the plugin's configured hints.
   */
  catalogHints?(): CatalogCacheHints;
  /** Begin background work and return promptly. */
  start?(): Promise<void>;
  /**
   * For a plugin whose catalogs arrive after `start()` (an upstream server it connects to in the background):
   * resolves once its first catalogs are in and announced with `notifyListChanged`, or once its first attempt
   * has failed. Until then the host holds every client's `tools/list`, `resources/list`,
   * `resources/templates/list` and `prompts/list`, and one-shot commands wait, at most the plugin's start
   * deadline (counted from `start()` returning). Plugins that have their catalogs by then need none; one that
   * lacks it but says `starting` in `health()` is polled instead.
   */
  catalogsSettled?(): Promise<void>;
  /** Await your background tasks here. */
  shutdown?(): Promise<void>;
  /** Plugins without it are taken as ready once started. */
  health?(): PluginHealth;
}

export interface Plugin {
  /** Default namespace; matches PLUGIN_ID_PATTERN and has no "__". */
  id: string;
  version: string;
  build(ctx: PluginContext): PluginProvider | Promise<PluginProvider>;
}

/** `completion/complete` params with local names: prompt name without prefix, URI in the plugin's scheme. */
export type CompletionRequest = CompleteRequest['params'];
export type CompletionResult = CompleteResult['completion'];

/** Identity helper that gives a plugin module its types. */
export function definePlugin(plugin: Plugin): Plugin {
  return plugin;
}
