// Keeps one upstream connection alive: connects in the background, restarts a server that exits or cannot be
// reached (with backoff), re-initialises an HTTP session the server has forgotten, and says how it is doing.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type Logger, type PluginHealth, clampDelay, errors } from '../../host/index.js';
import {
  type ConnectionEvents,
  EMPTY_CATALOGS,
  UpstreamConnection,
  type UpstreamCatalogs,
} from './connection.js';
import { describeFailure } from './failures.js';
import { type Backoff, DEFAULT_BACKOFF, type UpstreamTarget, describeTarget } from './options.js';

/** A connection that stayed up this long was healthy: the next failure starts the backoff again. */
const STABLE_MS = 30_000;

/**
 * `restart` counts the failures in a row: 0 while connecting the first time, N while waiting for or making the
 * Nth attempt to restart; `error` is the last failure.
 */
type State =
  | { kind: 'connecting'; restart: 0 }
  | { kind: 'restarting'; restart: number; error: string }
  | { kind: 'connected'; connection: UpstreamConnection; since: number }
  | { kind: 'closed' };

export type SupervisorEvents = ConnectionEvents & {
  /** Connected (first time or again): the catalogs may differ from the last good ones. */
  connected(client: Client): void;
};

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Why a request failed, as far as the connection is concerned. */
function connectionFailure(error: unknown): 'session_gone' | 'unreachable' | undefined {
  // The server no longer knows our session (it restarted, or expired it): the spec says to initialise anew.
  if (error instanceof StreamableHTTPError && error.code === 404) return 'session_gone';
  // Servers that answer 400 for an unknown session (server-everything among them) mean the same.
  if (error instanceof StreamableHTTPError && error.code === 400 && /session/i.test(error.message))
    return 'session_gone';
  // fetch() itself failed: refused, reset, DNS. The server is down, not the request wrong.
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return 'unreachable';
  return undefined;
}

export class UpstreamSupervisor {
  readonly #target: UpstreamTarget;
  readonly #where: string;
  readonly #logger: Logger;
  readonly #events: SupervisorEvents;
  readonly #backoff: Backoff;
  readonly #stopping = new AbortController();
  #state: State = { kind: 'connecting', restart: 0 };
  #lastGood: UpstreamCatalogs = EMPTY_CATALOGS;
  #run: Promise<void> = Promise.resolve();
  #stopped: Promise<void> | undefined;
  /** Failures in a row: the restart attempt under way or next, and the backoff's exponent. */
  #failures = 0;
  /** Set when a request found the session gone: the next connect is immediate and counts as no failure. */
  #renewing = false;
  /** Wakes whoever waits for the next state (a request waiting for a renewed session). */
  #changed = deferred();

  constructor(target: UpstreamTarget, logger: Logger, events: SupervisorEvents, backoff = DEFAULT_BACKOFF) {
    this.#target = target;
    this.#where = describeTarget(target);
    this.#logger = logger;
    this.#events = events;
    this.#backoff = backoff;
  }

  /** Starts connecting in the background; returns at once. */
  start(): void {
    this.#run = this.#supervise();
  }

  /** Ends the connection (or the attempt under way) and waits for it; once, however often it is called. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping.abort();
    // Closing it is what ends the loop's wait on a live connection; an attempt under way ends on the abort.
    const current = this.#state;
    if (current.kind === 'connected') await current.connection.close();
    await this.#run;
    this.#setState({ kind: 'closed' });
  }

  /** The live connection, if connected. */
  current(): UpstreamConnection | undefined {
    return this.#state.kind === 'connected' ? this.#state.connection : undefined;
  }

  /** The server's catalogs now, or the last good ones while it is down. */
  catalogs(): UpstreamCatalogs {
    const state = this.#state;
    if (state.kind === 'connected') this.#lastGood = state.connection.catalogs;
    return this.#lastGood;
  }

  health(): PluginHealth {
    const state = this.#state;
    const tools = `${this.catalogs().tools.length} tools`;
    switch (state.kind) {
      case 'connecting':
        return { state: 'starting', detail: `connecting to ${this.#where}` };
      case 'connected':
        return { state: 'ready', detail: `connected to ${this.#where}, ${tools}` };
      case 'restarting':
        return {
          state: 'down',
          detail: `${this.#describe(state)}; listing its last good catalog (${tools})`,
        };
      case 'closed':
        return { state: 'down', detail: `closed (${this.#where})` };
    }
  }

  /**
   * Runs `request` on the live connection. A session the server has forgotten is initialised again and the
   * request retried once; a server found unreachable is restarted, and the request fails as unavailable.
   * The call's signal bounds only a wait for a renewed session: read when needed, since reading it costs.
   */
  async request<T>(
    request: (client: Client) => Promise<T>,
    call: { readonly signal: AbortSignal },
  ): Promise<T> {
    const state = this.#state;
    // Connected is the common case: no wait, so no extra promise on every call.
    const connection = state.kind === 'connected' ? state.connection : await this.#live(call.signal);
    try {
      return await request(connection.client);
    } catch (error) {
      if (this.#stopping.signal.aborted) throw error;
      // The server went away with this request unanswered (its process exited): say so, and which restart is next.
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        this.#markLost(connection, connection.lost ?? this.#closedReason());
        throw this.#unavailableError();
      }
      const failure = connectionFailure(error);
      if (failure === undefined) throw error;
      this.#drop(connection, failure, error);
      if (failure === 'unreachable') throw this.#unavailableError();
      this.#logger.info({}, 'upstream: the server forgot the session; initialising a new one');
      return request((await this.#live(call.signal)).client);
    }
  }

  /** The connected connection; while one is being renewed, waits for it (bounded by `signal`). */
  async #live(signal: AbortSignal): Promise<UpstreamConnection> {
    while (this.#renewing && this.#state.kind !== 'connected' && this.#state.kind !== 'closed') {
      signal.throwIfAborted();
      await Promise.race([this.#changed.promise, untilAborted(signal)]);
    }
    signal.throwIfAborted();
    const state = this.#state;
    if (state.kind === 'connected') return state.connection;
    throw this.#unavailableError();
  }

  #unavailableError(): Error {
    const state = this.#state;
    const detail =
      state.kind === 'restarting'
        ? this.#describe(state)
        : state.kind === 'connecting'
          ? 'still connecting'
          : 'closed';
    return errors.upstreamUnavailable(this.#where, detail);
  }

  #describe(state: { restart: number; error: string }): string {
    return `unavailable, restarting (attempt ${state.restart}): ${state.error}`;
  }

  /** Closes a connection a request found broken; the supervising loop connects again. */
  #drop(connection: UpstreamConnection, failure: 'session_gone' | 'unreachable', cause: unknown): void {
    const state = this.#state;
    if (state.kind !== 'connected' || state.connection !== connection) return;
    if (failure === 'session_gone') {
      this.#renewing = true;
      connection.lost = 'the server forgot the session';
      // Requests from now on wait for the new session rather than take this closing connection.
      this.#setState({ kind: 'connecting', restart: 0 });
    } else {
      const reason =
        cause instanceof Error && cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
      connection.lost = `the server is unreachable${reason}`;
      // At once, so this very request already says which restart is next.
      this.#markLost(connection, connection.lost);
    }
    void connection.close();
  }

  #setState(state: State): void {
    this.#state = state;
    this.#changed.resolve();
    this.#changed = deferred();
  }

  /** Counts a lost connection as a failure (once), keeping its catalogs as the last good ones. */
  #markLost(connection: UpstreamConnection, reason: string): void {
    const state = this.#state;
    if (state.kind !== 'connected' || state.connection !== connection) return;
    this.#lastGood = connection.catalogs;
    if (Date.now() - state.since >= STABLE_MS) this.#failures = 0;
    this.#failures += 1;
    this.#setState({ kind: 'restarting', restart: this.#failures, error: reason });
  }

  async #supervise(): Promise<void> {
    const stopping = this.#stopping.signal;
    while (!stopping.aborted) {
      const renewing = this.#renewing;
      if (this.#state.kind !== 'restarting') this.#setState({ kind: 'connecting', restart: 0 });
      let connection: UpstreamConnection;
      // A signal for this attempt, linked to stopping only while it connects: the SDK keeps its abort
      // listeners on the signals it is given, and would send the server cancellations for long-answered
      // requests (initialize, the catalog reads) if shutdown aborted it later.
      const attempt = new AbortController();
      const stopAttempt = () => attempt.abort(stopping.reason);
      stopping.addEventListener('abort', stopAttempt, { once: true });
      try {
        connection = await UpstreamConnection.open(this.#target, this.#logger, this.#events, attempt.signal);
      } catch (error) {
        if (stopping.aborted) return;
        this.#renewing = false;
        this.#failures += 1;
        this.#setState({
          kind: 'restarting',
          restart: this.#failures,
          error: describeFailure(error, this.#target),
        });
        await this.#waitToRestart('upstream: could not connect');
        continue;
      } finally {
        stopping.removeEventListener('abort', stopAttempt);
      }
      if (stopping.aborted) {
        await connection.close();
        return;
      }
      this.#renewing = false;
      this.#setState({ kind: 'connected', connection, since: Date.now() });
      this.#logger.info(
        { tools: connection.catalogs.tools.length, ...(this.#failures > 0 ? { after: this.#failures } : {}) },
        renewing ? 'upstream: session renewed' : 'upstream: connected',
      );
      this.#events.connected(connection.client);
      await connection.closed;
      if (stopping.aborted) return;
      if (this.#renewing) continue;
      this.#markLost(connection, connection.lost ?? this.#closedReason());
      await this.#waitToRestart('upstream: lost');
    }
  }

  #closedReason(): string {
    return this.#target.kind === 'stdio' ? 'the server process exited' : 'the connection closed';
  }

  /** Waits out the backoff of the restart the state names. */
  async #waitToRestart(message: string): Promise<void> {
    const state = this.#state;
    if (state.kind !== 'restarting') return;
    // 2 ** restart grows without bound over a long outage; the cap and the timer limit keep the wait finite.
    const delayMs = clampDelay(
      Math.min(this.#backoff.maxMs, this.#backoff.initialMs * 2 ** (state.restart - 1)),
    );
    this.#logger.warn({ err: state.error, attempt: state.restart, retryInMs: delayMs }, message);
    await sleep(delayMs, undefined, { signal: this.#stopping.signal }).catch(() => {});
  }
}
