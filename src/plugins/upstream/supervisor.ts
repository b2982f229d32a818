// Keeps one upstream connection alive: connects in the background, restarts a server that exits or cannot be
// reached (with backoff), re-initialises an HTTP session the server has forgotten, and says how it is doing.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/client';
import { clampDelay, errors, type Logger, type PluginHealth } from '../../contract/index.js';
import {
  type ConnectionEvents,
  EMPTY_CATALOGS,
  UpstreamConnection,
  type UpstreamCatalogs,
} from './connection.js';
import { type FailureReport, exitReport, plainReport, startFailure } from './failures.js';
import { HandshakeFallback } from './handshake-fallback.js';
import { type Backoff, DEFAULT_BACKOFF, type UpstreamTarget, describeTarget } from './options.js';
import { type ConnectionFailure, connectionFailure, refused } from './request-failure.js';
import { StderrTail } from './stderr-tail.js';
import {
  type SupervisorState as State,
  healthOf,
  lostError,
  stateDetail,
  unsentError,
} from './supervisor-state.js';
import { type CallOfRequest, Waiting } from './waiting.js';

/** A connection that stayed up this long was healthy: the next failure starts the backoff again. */
const STABLE_MS = 30_000;

export type SupervisorEvents = ConnectionEvents & {
  /** Connected (first time or again): the catalogs may differ from the last good ones. */
  connected(connection: UpstreamConnection): void;
};

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
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
  /** Whether a spawned server is spoken to on the 2025 handshake after exiting on the probe. */
  readonly #handshake: HandshakeFallback;
  /** Wakes whoever waits for the next state (a request waiting for a renewed session). */
  #changed = deferred();
  /** Resolved when the first attempt to connect is over: connected (its catalogs announced), failed, or stopped. */
  readonly #firstAttempt = deferred();

  constructor(target: UpstreamTarget, logger: Logger, events: SupervisorEvents, backoff = DEFAULT_BACKOFF) {
    this.#target = target;
    this.#where = describeTarget(target);
    this.#logger = logger;
    this.#events = events;
    this.#backoff = backoff;
    this.#handshake = new HandshakeFallback(target);
  }

  /** Starts connecting in the background; returns at once. */
  start(): void {
    this.#run = this.#supervise();
  }

  /** Resolves once the first attempt to connect is over, however it ended; `connected` has run if it succeeded. */
  firstAttempt(): Promise<void> {
    return this.#firstAttempt.promise;
  }

  /** Ends the connection (or the attempt under way) and waits for it; once, however often it is called. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping.abort();
    // Stopping ends the first attempt too: nothing should wait for a server that will not connect.
    this.#firstAttempt.resolve();
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
    return healthOf(this.#state, this.#where, `${this.catalogs().tools.length} tools`);
  }

  /**
   * Runs `request` on the live connection. A session the server has forgotten is initialised again and the
   * request made again, once. While the server restarts, a read-only call waits for it (within its deadline),
   * and a call that may write fails at once, unsent. A request cut off by the server going away is made again
   * after the restart when read-only, and otherwise fails saying it may or may not have taken effect.
   * `call.signal` is read only when the call has to wait, since reading it costs.
   */
  async request<T>(
    request: (client: Client, connection: UpstreamConnection) => Promise<T>,
    call: CallOfRequest,
    readOnly = call.readOnly === true,
  ): Promise<T> {
    const state = this.#state;
    // Connected is the common case: no wait, so no extra promise on every call.
    let connection = state.kind === 'connected' ? state.connection : await this.#live(call, readOnly, false);
    for (let retried = false; ; retried = true) {
      try {
        return await request(connection.client, connection);
      } catch (error) {
        if (this.#stopping.signal.aborted) throw error;
        const failure = connectionFailure(error);
        if (failure === undefined) throw error;
        this.#drop(connection, failure, error);
        // A forgotten session refuses the request unrun, and a refused connection never carried it: any call
        // may go again. A request cut off may have been run: only a call without side effects may go again.
        const cutOff = failure === 'closed' || (failure === 'unreachable' && !refused(error));
        if (retried || (cutOff && !readOnly)) throw lostError(this.#where, this.#state, cutOff);
        if (failure === 'session_gone')
          this.#logger.info({}, 'upstream: the server forgot the session; initialising a new one');
        else if (cutOff)
          this.#logger.info({}, 'upstream: a read-only call was cut off; making it again once reconnected');
        connection = await this.#live(call, readOnly, cutOff);
      }
    }
  }

  /**
   * The connected connection. While a session is renewed, every call waits for it; while the server restarts,
   * only a read-only one does, bounded by its deadline and signal. `again`: the call was made once already.
   */
  async #live(call: CallOfRequest, readOnly: boolean, again: boolean): Promise<UpstreamConnection> {
    let waiting: Waiting | undefined;
    try {
      for (;;) {
        const state = this.#state;
        if (state.kind === 'connected') return state.connection;
        if (state.kind === 'closed' || !(readOnly || this.#renewing)) throw this.#unsentError(again);
        // No restart can come in time: say so now rather than at the deadline.
        if (state.kind === 'restarting' && state.attemptAt - Date.now() > call.timeLeftMs())
          throw this.#unsentError(
            again,
            `the next attempt is due in ${state.attemptAt - Date.now()} ms, after the call's deadline`,
          );
        waiting ??= new Waiting(call, (waitedMs) =>
          errors.upstreamRestartTimeout(this.#where, waitedMs, stateDetail(this.#state), again),
        );
        await waiting.until(this.#changed.promise);
      }
    } finally {
      waiting?.end();
    }
  }

  /** The server is not there, and the call was not sent to it (`again`: not sent a second time). */
  #unsentError(again: boolean, why?: string): Error {
    return unsentError(this.#where, this.#state, again, why);
  }

  /** Closes a connection a request found broken; the supervising loop connects again. */
  #drop(connection: UpstreamConnection, failure: ConnectionFailure, cause: unknown): void {
    const state = this.#state;
    if (state.kind !== 'connected' || state.connection !== connection) return;
    // Its transport is closed already: the supervising loop hears of it, but this request must say so now.
    if (failure === 'closed') return this.#markLost(connection, this.#lossOf(connection));
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
      this.#markLost(connection, plainReport(connection.lost));
    }
    void connection.close();
  }

  #setState(state: State): void {
    this.#state = state;
    this.#changed.resolve();
    this.#changed = deferred();
  }

  /** Counts a lost connection as a failure (once), keeping its catalogs as the last good ones. */
  #markLost(connection: UpstreamConnection, reason: FailureReport): void {
    const state = this.#state;
    if (state.kind !== 'connected' || state.connection !== connection) return;
    this.#lastGood = connection.catalogs;
    if (Date.now() - state.since >= STABLE_MS) this.#failures = 0;
    this.#failures += 1;
    this.#setState(this.#restarting(reason));
  }

  /** The state after a failure counted in `#failures`: when its restart attempt is due follows from the backoff. */
  #restarting(failure: FailureReport): State {
    const restart = this.#failures;
    return { kind: 'restarting', restart, failure, attemptAt: Date.now() + this.#delayMs(restart) };
  }

  #delayMs(restart: number): number {
    // 2 ** restart grows without bound over a long outage; the cap and the timer limit keep the wait finite.
    return clampDelay(Math.min(this.#backoff.maxMs, this.#backoff.initialMs * 2 ** (restart - 1)));
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
      // Kept here as well as by the connection: a server that exits at start leaves no connection behind.
      const stderr = this.#target.kind === 'stdio' ? new StderrTail(this.#target.secrets) : undefined;
      try {
        connection = await UpstreamConnection.open(
          this.#handshake.target(),
          this.#logger,
          this.#events,
          attempt.signal,
          stderr,
        );
      } catch (error) {
        if (stopping.aborted) return;
        if (this.#handshake.tryAfterFailure(stderr)) continue;
        this.#renewing = false;
        this.#failures += 1;
        this.#setState(this.#restarting(startFailure(error, this.#target, stderr)));
        this.#firstAttempt.resolve();
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
      if (this.#handshake.connected()) {
        this.#logger.warn(
          { protocolVersion: '2025-11-25' },
          'upstream: the server exited on the server/discover probe and answered the 2025-11-25 handshake; it is spoken to on 2025-11-25 from now on (set protocol = "2025-11-25" to skip the probe)',
        );
      }
      this.#setState({ kind: 'connected', connection, since: Date.now() });
      this.#logger.info(
        {
          tools: connection.catalogs.tools.length,
          // Which revision the server was spoken to on: 2026-07-28 after server/discover, else the handshake's.
          protocolVersion: connection.client.getNegotiatedProtocolVersion(),
          ...(this.#failures > 0 ? { after: this.#failures } : {}),
        },
        renewing ? 'upstream: session renewed' : 'upstream: connected',
      );
      this.#events.connected(connection);
      // After `connected`, which announced the catalogs: whoever waited for them lists them now.
      this.#firstAttempt.resolve();
      await connection.closed;
      if (stopping.aborted) return;
      if (this.#renewing) continue;
      this.#markLost(connection, this.#lossOf(connection));
      await this.#waitToRestart('upstream: lost');
    }
  }

  /** Why a connection that was up is gone: as a request found it, else how the server's process ended. */
  #lossOf(connection: UpstreamConnection): FailureReport {
    if (connection.lost !== undefined) return plainReport(connection.lost);
    return (
      exitReport(connection.stderr, false) ??
      plainReport(this.#target.kind === 'stdio' ? 'the server process exited' : 'the connection closed')
    );
  }

  /** Waits out the backoff of the restart the state names. */
  async #waitToRestart(message: string): Promise<void> {
    const state = this.#state;
    if (state.kind !== 'restarting') return;
    const { failure } = state;
    // All the stderr lines kept go to the log, where the message quotes the last.
    this.#logger.warn(
      {
        err: failure.message,
        ...(failure.exit ? { exitCode: failure.exit.code, signal: failure.exit.signal } : {}),
        ...(failure.stderr ? { stderr: failure.stderr } : {}),
        attempt: state.restart,
        retryInMs: this.#delayMs(state.restart),
      },
      message,
    );
    // Counted from the failure (a request may have seen it first), so calls know when the attempt begins.
    await sleep(clampDelay(state.attemptAt - Date.now()), undefined, {
      signal: this.#stopping.signal,
    }).catch(() => {});
  }
}
