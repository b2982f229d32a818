// The one factory for a call's RequestContext: what the plugin may do towards the client during one call.
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from '@modelcontextprotocol/server';
import {
  errors,
  type InputRequestOptions,
  isForesightError,
  type RequestContext,
} from '../contract/index.js';

/** What the protocol layer offers one request; every member is optional so embedders and tests can omit them. */
export interface CallEnvironment {
  /**
   * Aborted when the client cancels the request. One signal per request: a call leaves its listener on it
   * for the signal to take along when the request is done (removing it costs more on the hot path than
   * keeping it), so a signal shared by many calls would collect one listener per call.
   */
  signal?: AbortSignal;
  /**
   * Whether the request is cancelled already, for an environment whose `signal` is costly to make (it is then
   * made only when the call reads its own); default `signal.aborted`.
   */
  readonly aborted?: boolean;
  /** The JSON-RPC id of the request that began the call (the first of a multi round-trip call's); for the audit log. */
  readonly requestId?: string | number;
  sendProgress?(progress: number, total?: number, message?: string): Promise<void>;
  sendLog?(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** The least severe level `sendLog` passes on now; undefined when it passes none. */
  readonly logLevel?: LoggingLevel;
  /** Undefined when the client did not declare the sampling capability. */
  createMessage?(
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
    options?: InputRequestOptions,
  ): Promise<CreateMessageResult>;
  /** Undefined when the client did not declare the elicitation capability. */
  elicit?(
    params: ElicitRequest['params'],
    signal: AbortSignal,
    options?: InputRequestOptions,
  ): Promise<ElicitResult>;
  /** Undefined when the client did not declare the roots capability. */
  listRoots?(signal: AbortSignal, options?: InputRequestOptions): Promise<ListRootsResult>;
  speculative?: boolean;
  closeSSEStream?(): void;
  /** Who the request comes from (`RequestContext.principal`). */
  readonly principal?: string;
  /**
   * Whether the request's access token may call another tool (by published name), under `[auth.scopes]`; undefined
   * when no scope guards tools (stdio, no OAuth). The planner runs nothing ahead that the caller could not call.
   */
  readonly mayCall?: (tool: string) => boolean;
  /** What the client declared it can answer (`RequestContext.clientCapabilities`). */
  readonly clientCapabilities?: ClientCapabilities;
  /** The call runs again for a retry whose waiting call this process does not hold (`RequestContext.replayedInput`). */
  readonly replayedInput?: boolean;
  /** Keeps state with the input the call asks for next (`RequestContext.carryInput`); bound to its flow. */
  readonly carryInput?: (state: string) => void;
  /** `RequestContext.carriedInput`. */
  readonly carriedInput?: string;
  /**
   * The plugin deadline a tool call runs under: `task` for a call that may become a task (a client that declared
   * the tasks extension calling a task-capable tool), which then answers no client while it runs. Default `call`.
   */
  deadline?: 'call' | 'task';
}

/**
 * What the caller of a tool knows about the call beyond its request: the planner, from the tool's value model.
 * Apart from `CallEnvironment`, which the protocol layer makes per request, so this needs no copy of it.
 */
export interface ToolCallOptions {
  /** The tool has no side effects (`RequestContext.readOnly`). Default false. */
  readOnly?: boolean;
}

/** Reasons a driver gives that say nothing about this call in particular. */
const GENERIC_STOPS: ReadonlySet<string> = new Set([errors.cancelled.code, errors.shuttingDown.code]);

/**
 * One call's context. The AbortController behind `signal` is made on first read, and only then is the
 * client's cancellation linked to it: most calls finish without reading their signal, and both cost on the
 * hot path. Aborting (deadline, cancellation, shutdown, crash) goes through `abort`, which tells the host.
 */
export class CallContext implements RequestContext {
  readonly speculative: boolean;
  readonly readOnly: boolean;
  readonly progressRequested: boolean;
  readonly closeSSEStream?: () => void;
  readonly #env: CallEnvironment;
  readonly #target: string;
  readonly #onAbort: (reason: Error) => void;
  /** When the deadline passes, in Date.now() time (shared with worker threads, unlike performance.now()). */
  readonly #deadlineAt: number;
  #controller: AbortController | undefined;
  #reason: Error | undefined;
  #open = true;

  constructor(
    env: CallEnvironment,
    target: string,
    onAbort: (reason: Error) => void,
    deadlineAt: number,
    readOnly = false,
  ) {
    this.#env = env;
    this.#target = target;
    this.#onAbort = onAbort;
    this.#deadlineAt = deadlineAt;
    this.speculative = env.speculative ?? false;
    this.readOnly = readOnly;
    this.progressRequested = env.sendProgress !== undefined && !this.speculative;
    if (env.closeSSEStream) this.closeSSEStream = env.closeSSEStream;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
      else this.#linkCancellation();
    }
    return this.#controller.signal;
  }

  /** Read from the environment each time: a modern call's retry may come with other capabilities. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.speculative ? undefined : this.#env.clientCapabilities;
  }

  get principal(): string | undefined {
    return this.#env.principal;
  }

  /** A getter, so calls that never ask for input pay nothing for it. */
  get replayedInput(): boolean {
    return this.#env.replayedInput === true;
  }

  get carryInput(): ((state: string) => void) | undefined {
    return this.speculative ? undefined : this.#env.carryInput;
  }

  get carriedInput(): string | undefined {
    return this.#env.carriedInput;
  }

  get clientSignal(): AbortSignal {
    return this.#env.signal ?? this.signal;
  }

  timeLeftMs(): number {
    return Math.max(0, this.#deadlineAt - Date.now());
  }

  #linkCancellation(): void {
    const client = this.#env.signal;
    if (!client || !this.#open) return;
    // A driver of the call that ends it for a reason of its own (a task whose ttlMs passed) tells the plugin why;
    // a cancellation or a stop keeps naming this call, as cancelled.
    const onCancel = () => {
      if (!this.#open) return;
      const why = client.reason as unknown;
      const own = isForesightError(why) && !GENERIC_STOPS.has(why.code);
      this.abort(own ? why : errors.cancelled(this.#target));
    };
    if (client.aborted) return onCancel();
    client.addEventListener('abort', onCancel, { once: true });
  }

  /** Ends the call with `reason`: the signal aborts (if anyone holds it) and the host is told. */
  abort(reason: Error): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.finish();
    this.#controller?.abort(reason);
    this.#onAbort(reason);
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** The call has settled: later notifications and a late cancellation are dropped. */
  finish(): void {
    this.#open = false;
  }

  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.#open && !this.speculative) await this.#env.sendProgress?.(progress, total, message);
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (this.#open && !this.speculative) await this.#env.sendLog?.(level, data, logger);
  }

  get logLevel(): LoggingLevel | undefined {
    return this.#open && !this.speculative ? this.#env.logLevel : undefined;
  }

  async createMessage(
    params: CreateMessageRequest['params'],
    options?: InputRequestOptions,
  ): Promise<CreateMessageResult> {
    if (this.speculative) throw errors.speculativeForbidden('sampling (createMessage)');
    if (!this.#env.createMessage) throw errors.capabilityMissing('sampling');
    return this.#env.createMessage(params, this.signal, options);
  }

  async elicit(params: ElicitRequest['params'], options?: InputRequestOptions): Promise<ElicitResult> {
    if (this.speculative) throw errors.speculativeForbidden('elicitation (elicit)');
    if (!this.#env.elicit) throw errors.capabilityMissing('elicitation');
    return this.#env.elicit(params, this.signal, options);
  }

  async listRoots(options?: InputRequestOptions): Promise<ListRootsResult> {
    if (this.speculative) throw errors.speculativeForbidden('roots (listRoots)');
    if (!this.#env.listRoots) throw errors.capabilityMissing('roots');
    return this.#env.listRoots(this.signal, options);
  }
}
