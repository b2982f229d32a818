// One task: a tools/call that went on after its request was answered. It drives the call's InputFlow, so a question
// the call asks shows as input_required until tasks/update answers it, and it keeps the outcome for tasks/get.
import { randomUUID } from 'node:crypto';
import { type ClientCapabilities, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { type AskedInput, type FlowEvent, type InputFlow, wireInputRequests } from '../input-flow.js';
import { type DetailedTask, type TaskError, type TaskStatus, isTerminal } from './wire.js';

/** What a finished call leaves in its task: the result its request would have answered, or the JSON-RPC error. */
export type TaskOutcome = { result: Record<string, unknown> } | { error: TaskError };

/** Turns the call's end into its outcome (the wire-error mapping of tools/call, owned by the server). */
export type SettleTask = (event: Exclude<FlowEvent<unknown>, { kind: 'input' }>) => TaskOutcome;

export interface TaskOptions {
  principal: string;
  /** What the request that started the call declared it can answer (questions the call asks need it). */
  capabilities: ClientCapabilities | undefined;
  settle: SettleTask;
  now: () => number;
}

export class Task {
  /** A random UUID (122 random bits): the id is all a client needs to reach the task, so it must not be guessable. */
  readonly id = randomUUID();
  readonly principal: string;
  readonly createdAtMs: number;
  private updatedAtMs: number;
  private status: TaskStatus = 'working';
  private statusMessage: string | undefined;
  /** The questions the call waits on, as tasks/get shows them (answered ones leave at once). */
  private readonly asked = new Map<string, AskedInput>();
  private outcome: TaskOutcome | undefined;
  /** The call's own cancellation, which the task's channel carries. */
  private readonly controller = new AbortController();
  private wake: (() => void) | undefined;
  private settled = false;

  constructor(
    private readonly flow: InputFlow<unknown>,
    private readonly options: TaskOptions,
  ) {
    this.principal = options.principal;
    this.createdAtMs = this.updatedAtMs = options.now();
    // No progress or log messages reach a task's client (the extension defines none); its questions still do.
    flow.handOver({ signal: this.controller.signal, capabilities: options.capabilities });
    flow.onSettled(() => {
      this.settled = true;
      this.wake?.();
    });
    // settle() maps every failure itself; this only keeps a bug of ours from leaving an unhandled rejection.
    this.watch().catch((error: unknown) => {
      if (this.terminal) return;
      this.outcome = {
        error: { code: ProtocolErrorCode.InternalError, message: `internal error: ${String(error)}` },
      };
      this.change('failed', this.outcome.error.message);
    });
  }

  get terminal(): boolean {
    return isTerminal(this.status);
  }

  /** The task as tasks/get answers it. */
  view(ttlMs: number, pollIntervalMs: number): DetailedTask {
    const view: DetailedTask = {
      taskId: this.id,
      status: this.status,
      ...(this.statusMessage === undefined ? {} : { statusMessage: this.statusMessage }),
      createdAt: new Date(this.createdAtMs).toISOString(),
      lastUpdatedAt: new Date(this.updatedAtMs).toISOString(),
      ttlMs,
      pollIntervalMs,
    };
    if (this.status === 'input_required') {
      view.inputRequests = wireInputRequests(this.asked);
    } else if (this.outcome && 'result' in this.outcome) view.result = this.outcome.result;
    else if (this.outcome) view.error = this.outcome.error;
    return view;
  }

  /**
   * tasks/update: answers the questions these responses match. Responses under keys the call is not waiting on, or
   * that are not answers of their question's kind, are ignored, as the extension asks; a partial answer leaves the
   * task input_required for the rest.
   */
  update(responses: Record<string, unknown>): void {
    if (this.status !== 'input_required') return;
    const answered = this.flow.answer(responses);
    if (answered.length === 0) return;
    for (const key of answered) this.asked.delete(key);
    if (this.asked.size === 0) this.change('working', undefined);
    else this.change('input_required', waitingMessage(this.asked.size));
    this.wake?.();
  }

  /** tasks/cancel: the task is cancelled at once and its call aborted; a result that arrives later is dropped. */
  cancel(reason: Error): void {
    if (this.terminal) return;
    this.change('cancelled', 'cancelled by the client');
    this.end(reason);
  }

  /** Ends the call without a trace (the task expired, or the server stops): no one will read its outcome. */
  end(reason: Error): void {
    // The flow first: it lets go of the channel, whose abort would otherwise end the call as a plain cancellation.
    this.flow.abort(reason);
    this.controller.abort(reason);
  }

  /** Follows the call: each round of questions shows until answered; the end leaves its outcome. */
  private async watch(): Promise<void> {
    let event = await this.flow.next();
    while (event.kind === 'input') {
      this.asked.clear();
      for (const [key, asked] of event.asked) this.asked.set(key, asked);
      if (!this.terminal) this.change('input_required', waitingMessage(this.asked.size));
      // Until tasks/update answers something, or the call ends (its deadline, a cancel); then hear what is next.
      // The call may have ended since its questions were flushed: then there is nothing to wait for.
      if (!this.settled) await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
      event = await this.flow.next();
    }
    if (this.terminal) return;
    this.outcome = this.options.settle(event);
    if ('result' in this.outcome) this.change('completed', undefined);
    else this.change('failed', this.outcome.error.message);
    this.asked.clear();
  }

  private change(status: TaskStatus, message: string | undefined): void {
    this.status = status;
    this.statusMessage = message;
    this.updatedAtMs = this.options.now();
  }
}

function waitingMessage(count: number): string {
  return count === 1
    ? 'waiting for the answer to 1 input request'
    : `waiting for the answers to ${count} input requests`;
}
