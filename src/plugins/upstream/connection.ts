// One connection to an upstream MCP server: the SDK client, the transport, and the server's catalogs as last read.
import { setMaxListeners } from 'node:events';
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  StreamableHTTPClientTransport,
  type LoggingLevel,
  type ProgressNotification,
  type Prompt,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Root,
  type Tool,
  type Transport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import {
  type CacheHint,
  type CatalogCacheHints,
  type CatalogKind,
  describeThrown,
  type Logger,
  type RequestContext,
  type ToolDescriptor,
} from '../../contract/index.js';
import type { UpstreamProtocol, UpstreamTarget } from './options.js';
import { type AskedBy, OFFERED_CAPABILITIES, askAgent, inputKeyOf } from './input-bridge.js';
import { ListenStream } from './listen-stream.js';
import { StderrTail } from './stderr-tail.js';
import { SpawnedStdioTransport, endProcess } from './stdio-process.js';
import { offersTasks, withTaskSupport } from './task-support.js';

/** What the server offered when last asked; empty lists for what it does not serve. */
export interface UpstreamCatalogs {
  tools: ToolDescriptor[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /** The caching hints the server gave each list (a 2026-07-28 server's `ttlMs` / `cacheScope`). */
  hints: CatalogCacheHints;
}

export const EMPTY_CATALOGS: UpstreamCatalogs = {
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  hints: {},
};

/**
 * The caching hints on a result of the server, as the SDK client passes them through (it keeps unknown fields):
 * a 2026-07-28 server's `ttlMs` and `cacheScope`; none from a 2025 server. Checked where they are used.
 */
function cacheHintOf(result: { ttlMs?: unknown; cacheScope?: unknown }): CacheHint {
  return { ttlMs: result.ttlMs, cacheScope: result.cacheScope } as CacheHint;
}

export interface ConnectionEvents {
  /** A catalog was read again after the server said it changed. */
  catalogChanged(kind: CatalogKind): void;
  /** `notifications/resources/updated` for one of the server's URIs. */
  resourceUpdated(uri: string): void;
  /** The server's URIs some agent subscribed to: a 2026-07-28 connection's listen stream opens with them. */
  subscribed(): readonly string[];
  /**
   * The agent's call a message of the server belongs to (sampling, elicitation, roots, log messages during a
   * tool call, a prompt's or a resource's reading): the newest call still running, as MCP over stdio does not say which call a message is for.
   */
  callInProgress(): RequestContext | undefined;
  /**
   * `notifications/progress` of the server. Handled here rather than by the SDK's `onprogress`, which drops a
   * last step that arrives together with the result (it handles the response first).
   */
  progress(params: ProgressNotification['params']): void;
  /** A log message of the server outside any call: it goes to Foresight's own log. */
  serverLog(level: LoggingLevel, data: unknown, logger?: string): void;
  /** What to answer the server's `roots/list` with: the configured roots, else the calling client's. */
  roots?: Root[];
  /** Outside a call: the roots of the one agent connected, if there is exactly one. */
  clientRoots(): Promise<Root[] | undefined>;
}

/**
 * The server's tools as the host lists them. The SDK types a schema's property schemas as any JSON value, the
 * host's contract as objects (as JSON Schema has them); the host passes them on unread, so only the type changes.
 */
function asDescriptors(tools: Tool[]): ToolDescriptor[] {
  return tools as ToolDescriptor[];
}

/**
 * Catalog pages read at most, so a server that keeps returning cursors cannot stall the listing: the SDK's walk
 * fails the listing past it (the connection is then retried like any other failed start).
 */
const MAX_PAGES = 100;

/**
 * fetch, after lifting the listener cap of the request's signal. The SDK passes one long-lived signal to every
 * request of a session, and undici leaves an abort listener on it per request until that request is garbage
 * collected: without this, Node warns about a listener leak on every call once a session has made ~1500.
 */
const fetchWithoutListenerCap: typeof fetch = (input, init) => {
  if (init?.signal) setMaxListeners(0, init.signal);
  return fetch(input, init);
};

/** `stderr`: where a spawned server's stderr and exit are kept (one per process); given for stdio. */
export function transportFor(target: UpstreamTarget, logger: Logger, stderr?: StderrTail): Transport {
  if (target.kind === 'http') {
    return new StreamableHTTPClientTransport(target.url, {
      fetch: fetchWithoutListenerCap,
      ...(target.token ? { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } } : {}),
    });
  }
  const transport = new SpawnedStdioTransport({
    command: target.command,
    args: target.args,
    // The SDK's safe default set (PATH, HOME, …), not Foresight's whole environment with its secrets.
    env: { ...getDefaultEnvironment(), ...target.env },
    ...(target.cwd ? { cwd: target.cwd } : {}),
    stderr: 'pipe',
  });
  // Each line as kept (secrets cut, length bounded), so the debug log shows no more than a failure would.
  if (stderr === undefined) return transport;
  transport.stderr?.on('data', (chunk: Buffer) => {
    for (const line of stderr.write(chunk)) logger.debug({ stderr: line }, 'upstream: stderr');
  });
  transport.onexit = (exit) => stderr.ended(exit);
  return transport;
}

/**
 * The SDK's own request timeout (60 s by default) would cut what the start deadline allows while the catalogs
 * are read; that reading ends through its signal instead. (2^31 − 1 ms, setTimeout's limit.)
 */
const NO_SDK_TIMEOUT = { timeout: 2_147_483_647 };

/**
 * How long a server may take to answer `server/discover`. Over stdio a silent server is taken for a legacy one
 * (some never answer an unknown request before `initialize`), so this is what such a server costs each connect;
 * over HTTP silence is an outage, and connecting fails.
 */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * The SDK's negotiation for the `protocol` option. "auto": server/discover first; a server that does not know it
 * (any 2025 server) gets the initialize handshake. A pinned revision skips the probe or the fallback.
 */
function negotiationMode(protocol: UpstreamProtocol = 'auto'): VersionNegotiationMode {
  if (protocol === 'auto') return 'auto';
  return protocol === '2025-11-25' ? 'legacy' : { pin: protocol };
}

/** How long after a call's deadline the SDK ends its request: the host's own deadline answers the agent first. */
const DEADLINE_GRACE_MS = 250;

export class UpstreamConnection {
  readonly client: Client;
  catalogs: UpstreamCatalogs = EMPTY_CATALOGS;
  /** Settles when the transport closes (the process exited, the session ended, or we closed it). */
  readonly closed: Promise<void>;
  /** Why we dropped this connection, when a request found it broken. */
  lost: string | undefined;
  /** The spawned server's last stderr lines and its exit (stdio only). */
  readonly stderr: StderrTail | undefined;
  /** The catalog readings, one at a time in the order asked, so an older reading never lands last. */
  private reading: Promise<void> = Promise.resolve();
  /** The re-reading after a change notice, while its answer is awaited; a newer notice ends it. */
  private rereading: AbortController | undefined;
  /** Catalogs the server said changed since the last re-reading that succeeded. */
  private readonly changedKinds = new Set<CatalogKind>();
  /** A 2026-07-28 server's `subscriptions/listen` stream; a legacy server sends its changes unasked. */
  private stream: ListenStream | undefined;
  private constructor(
    client: Client,
    private readonly events: ConnectionEvents,
    stderr: StderrTail | undefined,
    private readonly target: UpstreamTarget,
  ) {
    this.client = client;
    this.stderr = stderr;
    this.closed = new Promise((resolve) => (client.onclose = resolve));
  }

  /**
   * The SDK options for a request made on behalf of a call: the agent's own cancellation, and the SDK's timer
   * set just past the call's deadline, so that the deadline also ends the request at the server (the host has
   * answered the agent by then). A signal of Foresight's own per call, aborting on both, cost more than the
   * rest of the call's way through Foresight.
   */
  static requestOptions(call: Pick<RequestContext, 'clientSignal' | 'timeLeftMs'>) {
    return {
      signal: call.clientSignal,
      timeout: Math.min(call.timeLeftMs() + DEADLINE_GRACE_MS, NO_SDK_TIMEOUT.timeout),
    };
  }

  /**
   * Connects, reads every catalog the server offers, and starts listening for its changes. `stderr` (a fresh one
   * per attempt) keeps a spawned server's last stderr lines and exit, also when opening fails.
   */
  static async open(
    target: UpstreamTarget,
    logger: Logger,
    events: ConnectionEvents,
    signal: AbortSignal,
    stderr?: StderrTail,
  ): Promise<UpstreamConnection> {
    // Sampling and elicitation are offered upstream and passed to the agent's client during a call;
    // a client without them gets E_CAPABILITY_MISSING from the host, as an error of that request.
    const client = new Client(
      { name: 'foresight', version: '0.1.0' },
      {
        capabilities: OFFERED_CAPABILITIES,
        versionNegotiation: {
          mode: negotiationMode(target.protocol),
          probe: { timeoutMs: PROBE_TIMEOUT_MS },
        },
        listMaxPages: MAX_PAGES,
      },
    );
    const tail = target.kind === 'stdio' ? (stderr ?? new StderrTail(target.secrets)) : undefined;
    const connection = new UpstreamConnection(client, events, tail, target);
    // Before connecting: a server may ask for roots, log, or change its lists as soon as it is initialised.
    connection.listen();
    const transport = transportFor(target, logger, tail);
    // The SDK's server/discover probe does not heed the connect signal: closing the transport is what ends it
    // (else shutdown would wait out the probe's timeout for a server that does not answer).
    const endProbe = () => void transport.close().catch(() => {});
    signal.addEventListener('abort', endProbe, { once: true });
    try {
      await client.connect(transport, { signal });
      signal.removeEventListener('abort', endProbe);
      await connection.readInOrder(signal);
      await connection.listenForChanges(logger, signal);
    } catch (error) {
      signal.removeEventListener('abort', endProbe);
      // An exit seen by now is the server's own (and why this failed); one from here on is ours.
      connection.stderr?.closing();
      // A spawned server that started but did not answer (or was cut off by shutdown) must not linger: the
      // SDK's own close on a failed connect does not wait for it, and Foresight may exit right after.
      await client.close().catch(() => {});
      if (transport instanceof SpawnedStdioTransport && transport.spawnedPid !== undefined)
        await endProcess(transport.spawnedPid);
      throw error;
    }
    return connection;
  }

  /** Reads every catalog after the readings already asked for; the catalogs change only when one succeeds. */
  private readInOrder(signal?: AbortSignal): Promise<void> {
    const next = this.reading.then(async () => {
      try {
        this.catalogs = await this.readCatalogs(signal);
      } finally {
        // The SDK keeps its listener on a request's signal: aborting it after the answer would send the
        // server a cancellation for a request it has long answered.
        if (signal !== undefined && this.rereading?.signal === signal) this.rereading = undefined;
      }
    });
    this.reading = next.catch(() => {});
    return next;
  }

  /**
   * A modern server sends its list changes and resource updates only on a `subscriptions/listen` stream, to the
   * same handlers a legacy server's notifications reach. Without one the catalogs are read again only on
   * reconnecting, so a failure to open it is logged, not fatal.
   */
  private async listenForChanges(logger: Logger, signal: AbortSignal): Promise<void> {
    const { client } = this;
    const caps = client.getServerCapabilities() ?? {};
    if (client.getProtocolEra() !== 'modern') return;
    const lists = {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    this.stream = new ListenStream(client, lists, caps.resources?.subscribe === true, logger);
    try {
      await this.stream.update(this.events.subscribed(), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      logger.warn({ err: describeThrown(error) }, 'upstream: could not listen for changes');
    }
  }

  /**
   * Whether the server hears of subscriptions through the listen stream (2026-07-28) rather than by
   * `resources/subscribe`.
   */
  get listens(): boolean {
    return this.stream !== undefined;
  }

  /** Listens for updates of `uris` (and no others) from now on; resolves once the server acknowledged it. */
  listenTo(uris: readonly string[]): Promise<void> {
    return this.stream?.update(uris) ?? Promise.resolve();
  }

  close(): Promise<void> {
    this.stderr?.closing();
    // First, so the stream's end is not taken for the server's and the stream opened again.
    this.stream?.stop();
    return this.client.close();
  }

  private listen(): void {
    const { client } = this;
    const reread = (kind: CatalogKind) => () => {
      this.changedKinds.add(kind);
      // A newer notice supersedes a re-reading still waiting: a server that never answered one listing must
      // not hold up every later one. (The reading at connect is not ended this way; it has its own signal.)
      this.rereading?.abort();
      const rereading = new AbortController();
      this.rereading = rereading;
      this.readInOrder(rereading.signal).then(
        () => {
          for (const changed of this.changedKinds) this.events.catalogChanged(changed);
          this.changedKinds.clear();
        },
        // The next change, or a reconnect, reads it again; the last good catalog stays listed.
        () => {},
      );
    };
    client.setNotificationHandler('notifications/tools/list_changed', reread('tools'));
    client.setNotificationHandler('notifications/resources/list_changed', reread('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', reread('prompts'));
    client.setNotificationHandler('notifications/progress', ({ params }) => this.events.progress(params));
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      this.events.resourceUpdated(notification.params.uri);
    });
    const during = (what: string): RequestContext => {
      const call = this.events.callInProgress();
      if (call === undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${what} is only passed on during a call`);
      return call;
    };
    // The same handlers answer a legacy server's requests and a modern server's `input_required` results: the
    // SDK fulfils those through them during the call, then retries the call with the answers. The agent is asked
    // under the server's own key, so a modern agent sees the server's `inputRequests` as the server named them.
    const askedBy = (id: unknown, params: unknown): AskedBy => ({
      modern: client.getProtocolEra() === 'modern',
      id,
      params,
    });
    const keyed = (id: unknown, params: unknown) => {
      const key = inputKeyOf(askedBy(id, params));
      return key === undefined ? undefined : { key };
    };
    client.setRequestHandler('sampling/createMessage', (request, ctx) => {
      const call = during('sampling');
      return askAgent(call, () => call.createMessage(request.params, keyed(ctx.mcpReq.id, request.params)));
    });
    client.setRequestHandler('elicitation/create', (request, ctx) => {
      const call = during('elicitation');
      return askAgent(call, () => call.elicit(request.params, keyed(ctx.mcpReq.id, request.params)));
    });
    client.setRequestHandler('roots/list', async (request, ctx) => {
      if (this.events.roots) return { roots: this.events.roots };
      const call = this.events.callInProgress();
      // Outside a call: the one agent's roots; with none or several agents (over HTTP many share this
      // server), no roots, so a server such as server-filesystem keeps the directories it was started with.
      if (call === undefined) return { roots: (await this.events.clientRoots()) ?? [] };
      const { listRoots } = call;
      if (listRoots === undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'the client has no roots');
      return askAgent(call, () => listRoots.call(call, keyed(ctx.mcpReq.id, request.params)), false);
    });
    client.setNotificationHandler('notifications/message', async ({ params }) => {
      const call = this.events.callInProgress();
      if (call) await call.log(params.level, params.data, params.logger);
      else this.events.serverLog(params.level, params.data, params.logger);
    });
  }

  private async readCatalogs(signal?: AbortSignal): Promise<UpstreamCatalogs> {
    const { client } = this;
    const caps = client.getServerCapabilities() ?? {};
    // 'refresh': a reading follows a change, so it always asks the server (and re-stores the SDK's copy,
    // which callTool validates structured output against).
    const options = { ...(signal ? { signal } : {}), ...NO_SDK_TIMEOUT, cacheMode: 'refresh' as const };
    // The SDK walks every page (up to the client's listMaxPages) when asked without a cursor.
    const hints: CatalogCacheHints = {};
    /** Keeps the hints the server gave a list, and gives its entries. */
    const entries = <T>(list: keyof CatalogCacheHints, result: object, items: T[]): T[] => {
      hints[list] = cacheHintOf(result);
      return items;
    };
    const [tools, resources, resourceTemplates, prompts] = await Promise.all([
      caps.tools
        ? client.listTools(undefined, options).then((r) =>
            withTaskSupport(asDescriptors(entries('tools', r, r.tools)), {
              serverOffersTasks: offersTasks(caps),
              ...(this.target.tasks ? { configured: this.target.tasks } : {}),
            }),
          )
        : [],
      caps.resources
        ? client.listResources(undefined, options).then((r) => entries('resources', r, r.resources))
        : [],
      caps.resources
        ? client
            .listResourceTemplates(undefined, options)
            .then((r) => entries('resourceTemplates', r, r.resourceTemplates))
        : [],
      caps.prompts
        ? client.listPrompts(undefined, options).then((r) => entries('prompts', r, r.prompts))
        : [],
    ]);
    return { tools, resources, resourceTemplates, prompts, hints };
  }
}
