// One connection to an upstream MCP server: the SDK client, the transport, and the server's catalogs as last read.
import { Client, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { type CatalogKind, describeThrown, type Logger, type RequestContext } from '../../contract/index.js';
import { EMPTY_CATALOGS, NO_SDK_TIMEOUT, type UpstreamCatalogs, readCatalogs } from './catalogs.js';
import { OFFERED_CAPABILITIES } from './input-bridge.js';
import { ListenStream } from './listen-stream.js';
import type { UpstreamProtocol, UpstreamTarget } from './options.js';
import { type ConnectionEvents, handleServerMessages } from './server-messages.js';
import { StderrTail } from './stderr-tail.js';
import { SpawnedStdioTransport, endProcess } from './stdio-process.js';
import { transportFor } from './transport.js';

export { EMPTY_CATALOGS, type UpstreamCatalogs } from './catalogs.js';
export type { ConnectionEvents } from './server-messages.js';
export { transportFor } from './transport.js';

/**
 * Catalog pages read at most, so a server that keeps returning cursors cannot stall the listing: the SDK's walk
 * fails the listing past it (the connection is then retried like any other failed start).
 */
const MAX_PAGES = 100;

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
        this.catalogs = await readCatalogs(this.client, this.target, signal);
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
    handleServerMessages(this.client, this.events, (kind) => this.reread(kind));
  }

  /** Reads the catalogs again after the server said `kind` changed; once read, tells of every kind changed. */
  private reread(kind: CatalogKind): void {
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
  }
}
