// One call that may ask a modern client for input: it runs until it finishes or waits on input requests,
// which the request answers as an InputRequiredResult; the retry's answers let it go on.
import { randomUUID } from 'node:crypto';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/server';
import { clampDelay, errors, type InputRequestOptions } from '../contract/index.js';
import { type CallEnvironment } from '../host/index.js';
import { type AskingCall, FlowEnvironment } from './flow-environment.js';
import {
  type AskedInput,
  type InputChannel,
  type InputMethod,
  KEY_PREFIX,
  MAX_CARRIED_BYTES,
  inputDigest,
  isAnswerTo,
} from './input-requests.js';
import type { CarriedAnswer } from './request-state.js';

export {
  type AskedInput,
  type InputChannel,
  type InputMethod,
  MAX_CARRIED_BYTES,
  inputDigest,
  isAnswerTo,
  mayBeAsked,
  wireInputRequests,
} from './input-requests.js';

export type FlowEvent<R> =
  | { kind: 'done'; result: R }
  | { kind: 'failed'; error: unknown }
  | { kind: 'input'; asked: Map<string, AskedInput> };

/** The call neither finished nor asked for input in the time given (`nextWithin`): it is still working. */
export interface StillRunning {
  kind: 'running';
}

interface Pending extends AskedInput {
  resolve(response: unknown): void;
  reject(error: unknown): void;
}

export class InputFlow<R> implements AskingCall {
  /** Rounds of input this call (and the calls it replays) asked for so far. */
  round: number;
  // Most calls never ask for input: what only asking needs is made on first use, so a call that does not ask
  // costs one object, its environment and one promise chain.
  #id: string | undefined;
  #consumed: Map<string, CarriedAnswer> | undefined;
  #offered: Map<string, { response: unknown; digest?: string }> | undefined;
  #pending: Map<string, Pending> | undefined;
  #sequence: Map<InputMethod, number> | undefined;
  #controller: AbortController | undefined;
  private outcome: FlowEvent<R> | undefined;
  private waiter: ((event: FlowEvent<R>) => void) | undefined;
  private settleListeners: ((event: FlowEvent<R>) => void)[] | undefined;
  private flushScheduled = false;
  private channel: InputChannel;
  private detachChannel: (() => void) | undefined;

  /**
   * @param replayed the call runs again for a retry whose waiting call this process does not hold: the plugin is
   *   told (`RequestContext.replayedInput`), as a call that may write must not run twice unseen.
   * @param carriedIn on a replay, what the call kept with the round the retry answers (`RequestContext.carriedInput`).
   */
  constructor(
    channel: InputChannel,
    round: number,
    readonly replayed = false,
    readonly carriedIn?: string,
  ) {
    this.round = round;
    this.channel = channel;
  }

  /** What the call keeps with the input it asks next (`RequestContext.carryInput`), sealed into its requestState. */
  carried: string | undefined;

  /** Keeps `state` for the next round; a state too long to seal is dropped rather than kept stale. */
  readonly carry = (state: string): void => {
    this.carried = Buffer.byteLength(state) <= MAX_CARRIED_BYTES ? state : undefined;
  };

  /** Names the call in the state that lets a retry find it again. */
  get id(): string {
    return (this.#id ??= randomUUID());
  }

  /** Answers the call has taken, carried in the next requestState so another process can replay it. */
  get consumed(): Map<string, CarriedAnswer> {
    return (this.#consumed ??= new Map());
  }

  private get offered(): Map<string, { response: unknown; digest?: string }> {
    return (this.#offered ??= new Map());
  }

  private get pending(): Map<string, Pending> {
    return (this.#pending ??= new Map());
  }

  /** Made when the call first reads its signal: from then on the driving request's cancellation ends the call. */
  private get controller(): AbortController {
    if (!this.#controller) {
      this.#controller = new AbortController();
      this.listen(this.channel);
    }
    return this.#controller;
  }

  /** The environment the call runs with: its client-facing functions follow whichever request drives it. */
  readonly env: CallEnvironment = new FlowEnvironment(this);

  /** Answers the call may take when it asks under these keys (digest: of the request they answer, if known). */
  offer(key: string, response: unknown, digest?: string): void {
    this.offered.set(key, { response, digest });
  }

  /** Starts the call. */
  start(run: (env: CallEnvironment) => Promise<R>): void {
    run(this.env).then(
      (result) => this.settle({ kind: 'done', result }),
      (error: unknown) => this.settle({ kind: 'failed', error }),
    );
  }

  /** The next thing the request must answer: the call's outcome, or the input requests it waits on. */
  next(): Promise<FlowEvent<R>> {
    if (this.outcome) return Promise.resolve(this.outcome);
    return new Promise((resolve) => {
      this.waiter = resolve;
      if (this.#pending && this.#pending.size > 0) this.scheduleFlush();
    });
  }

  /**
   * Like `next()`, but when the call has neither finished nor asked for input after `ms`, resolves with `running`
   * and stops waiting: the call goes on, and whoever calls `next()` later hears what it does.
   */
  nextWithin(ms: number): Promise<FlowEvent<R> | StillRunning> {
    if (this.outcome) return Promise.resolve(this.outcome);
    return new Promise((resolve) => {
      // The waiter is called synchronously by settle() and the flush, so the timer and the event cannot both win.
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve({ kind: 'running' });
      }, clampDelay(ms));
      this.waiter = (event) => {
        clearTimeout(timer);
        resolve(event);
      };
      if (this.#pending && this.#pending.size > 0) this.scheduleFlush();
    });
  }

  /** Called once when the call settles (at once if it has). */
  onSettled(listener: (event: FlowEvent<R>) => void): void {
    if (this.outcome) listener(this.outcome);
    else (this.settleListeners ??= []).push(listener);
  }

  /** A retry drives the call now: its answers resolve the waiting requests. */
  resume(channel: InputChannel, responses: Record<string, unknown>): void {
    this.attach(channel);
    this.round += 1;
    this.answer(responses);
  }

  /** Another driver (a task) takes the call over from the request that started it; its signal now cancels it. */
  handOver(channel: InputChannel): void {
    this.attach(channel);
  }

  /**
   * Resolves the waiting requests these responses answer, and returns their keys. A response under a key the
   * call is not waiting on, or that is not an answer of its request's kind, is left out.
   */
  answer(responses: Record<string, unknown>): string[] {
    const answered: string[] = [];
    if (!this.#pending) return answered;
    for (const [key, pending] of [...this.#pending]) {
      const response = responses[key];
      if (response === undefined || !isAnswerTo(pending.method, response)) continue;
      this.#pending.delete(key);
      this.consumed.set(key, { response, digest: pending.digest });
      answered.push(key);
      pending.resolve(response);
    }
    return answered;
  }

  /** The request that drove the call has answered; until a retry comes, nothing cancels the call but its deadline. */
  detach(): void {
    this.detachChannel?.();
    this.detachChannel = undefined;
  }

  /** Ends the call (its signal aborts with `reason`). */
  abort(reason: Error): void {
    this.detach();
    this.controller.abort(reason);
    if (!this.#pending) return;
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
  }

  private attach(channel: InputChannel): void {
    this.detach();
    this.channel = channel;
    // Without a controller nobody holds the call's signal yet; it links to the channel when first read.
    if (this.#controller) this.listen(channel);
  }

  /** The channel's cancellation ends the call. */
  private listen(channel: InputChannel): void {
    const onCancel = () => this.abort(errors.cancelled('the request'));
    if (channel.signal.aborted) return onCancel();
    channel.signal.addEventListener('abort', onCancel, { once: true });
    this.detachChannel = () => channel.signal.removeEventListener('abort', onCancel);
  }

  private settle(event: FlowEvent<R>): void {
    if (this.outcome) return;
    this.outcome = event;
    this.detach();
    this.waiter?.(event);
    this.waiter = undefined;
    const listeners = this.settleListeners;
    this.settleListeners = undefined;
    for (const listener of listeners ?? []) listener(event);
  }

  /** Asks in one round everything the call asks for before it waits (`Promise.all` of several requests). */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      if (this.outcome || this.pending.size === 0 || !this.waiter) return;
      const asked = new Map<string, AskedInput>();
      for (const [key, { method, params, digest }] of this.pending)
        asked.set(key, { method, params, digest });
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter({ kind: 'input', asked });
    });
  }

  private ask(
    method: InputMethod,
    params: unknown,
    options: InputRequestOptions | undefined,
  ): Promise<unknown> {
    if (this.#controller?.signal.aborted) return Promise.reject(this.#controller.signal.reason);
    const key = options?.key ?? this.nextKey(method);
    const digest = inputDigest(method, params);
    const offered = this.#offered?.get(key);
    if (offered) {
      this.offered.delete(key);
      const sameQuestion = offered.digest === undefined || offered.digest === digest;
      if (sameQuestion && isAnswerTo(method, offered.response)) {
        this.consumed.set(key, { response: offered.response, digest });
        return Promise.resolve(offered.response);
      }
    }
    const existing = this.pending.get(key);
    if (existing) return Promise.reject(errors.inputKeyReused(key));
    // A key names one request for the whole call: the client may still hold the earlier answer under it.
    if (this.#consumed?.has(key)) return Promise.reject(errors.inputKeyReused(key, true));
    return new Promise((resolve, reject) => {
      this.pending.set(key, {
        method,
        params: params === undefined ? undefined : (params as Record<string, unknown>),
        digest,
        resolve,
        reject,
      });
      if (this.waiter) this.scheduleFlush();
    });
  }

  private nextKey(method: InputMethod): string {
    const sequence = (this.#sequence ??= new Map());
    const n = (sequence.get(method) ?? 0) + 1;
    sequence.set(method, n);
    return `${KEY_PREFIX[method]}-${n}`;
  }

  /** The request driving the call now (its capabilities, progress and log channel). */
  get driver(): InputChannel {
    return this.channel;
  }

  /** Whether the call's request is cancelled, without making the call's signal. */
  get aborted(): boolean {
    return this.#controller ? this.#controller.signal.aborted : this.channel.signal.aborted;
  }

  /** Asks for input as the contract's `elicit` does (URL mode needs its own capability). */
  elicit(params: ElicitRequest['params'], options?: InputRequestOptions): Promise<ElicitResult> {
    const url = (params as { mode?: string }).mode === 'url';
    if (url && !this.channel.capabilities?.elicitation?.url)
      return Promise.reject(errors.capabilityMissing('elicitation.url'));
    // The 2026-07-28 URL-mode request has no elicitationId: the retry is what correlates it.
    const { elicitationId: _id, ...wire } = params as ElicitRequest['params'] & { elicitationId?: string };
    return this.ask('elicitation/create', url ? wire : params, options) as Promise<ElicitResult>;
  }

  createMessage(
    params: CreateMessageRequest['params'],
    options?: InputRequestOptions,
  ): Promise<CreateMessageResult> {
    return this.ask('sampling/createMessage', params, options) as Promise<CreateMessageResult>;
  }

  listRoots(options?: InputRequestOptions): Promise<ListRootsResult> {
    return this.ask('roots/list', undefined, options) as Promise<ListRootsResult>;
  }

  /** The call's abort signal, made on first read. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }
}
