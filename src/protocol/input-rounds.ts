// Multi round-trip requests (2026-07-28) for every call that may ask the client for input. The first answer is an
// InputRequiredResult with a sealed requestState; the client's retry resumes the call where it waits on this
// process, or, anywhere else (another process sharing the key, or after the call's deadline), runs it again with
// the answers its state and the retry carry, telling the plugin so (`replayedInput`). A call that may become a task can leave its request (`Escalation`).
import { randomUUID } from 'node:crypto';
import {
  type InputRequests,
  type InputRequiredResult,
  type ServerContext,
  inputRequired,
} from '@modelcontextprotocol/server';
import { clampDelay, errors } from '../contract/index.js';
import { type CallEnvironment } from '../host/index.js';
import {
  type AskedInput,
  type FlowEvent,
  type InputChannel,
  InputFlow,
  type StillRunning,
  wireInputRequests,
} from './input-flow.js';
import { type RequestStateSeal, type StatePayload, type StateTarget, argsDigest } from './request-state.js';

export interface InputRoundsOptions {
  seal: RequestStateSeal;
  /** Rounds of input one request may take, replays included. Default 16. */
  maxRounds?: number;
  /** Calls held while they wait for a retry; beyond it the oldest is ended. Default 1024. */
  maxSuspended?: number;
}

/**
 * How a call may leave the request that runs it (to become a task): after `afterMs` without finishing or asking for
 * input, `takeOver` is offered the running call and gives what the request answers instead; undefined keeps the
 * request waiting for the call as before.
 */
export interface Escalation<R, E> {
  /** 0: at once, before the call could answer or ask. */
  afterMs: number;
  takeOver(flow: InputFlow<R>): E | undefined;
}

/** The request a call answers, as the client sent it. */
export interface RequestTarget {
  method: string;
  /** Tool or prompt name, or resource URI. */
  name: string;
  args: unknown;
}

/** One request that runs a call which may ask for input. */
export interface RoundRequest {
  ctx: ServerContext;
  principal: string;
  target: RequestTarget;
  channel: InputChannel;
}

/** The target as a state names it; the digest is worked out only when a state is opened or sealed. */
function stateTarget(target: RequestTarget): StateTarget {
  return { method: target.method, name: target.name, argsDigest: argsDigest(target.args) };
}

const RUNNING: StillRunning = { kind: 'running' };

interface Held {
  flow: InputFlow<unknown>;
  timer: NodeJS.Timeout;
}

export class InputRounds {
  /** Names this process in the states it issues: only here can they resume a waiting call. */
  readonly origin = randomUUID();
  private readonly held = new Map<string, Held>();
  private readonly maxRounds: number;
  private readonly maxSuspended: number;

  constructor(private readonly options: InputRoundsOptions) {
    this.maxRounds = options.maxRounds ?? 16;
    this.maxSuspended = options.maxSuspended ?? 1024;
  }

  /** Calls waiting for a retry (for tests and stats). */
  get suspended(): number {
    return this.held.size;
  }

  /**
   * Runs `run` for this request, or goes on with the call its requestState names: resolves with the call's
   * result, or with an InputRequiredResult when the call waits on input. Rejects when the state is refused.
   */
  serve<R, E = never>(
    request: RoundRequest,
    run: (env: CallEnvironment) => Promise<R>,
    escalation?: Escalation<R, E>,
  ): Promise<R | InputRequiredResult | E> {
    const raw: unknown = request.ctx.mcpReq.requestState();
    // Most requests carry no state: they start their call at once, without waiting on the seal.
    if (typeof raw !== 'string') return this.begin(request, undefined, run, escalation);
    return this.options.seal
      .open(raw, request.ctx, request.principal, stateTarget(request.target))
      .then((payload) => this.begin(request, payload, run, escalation));
  }

  /** Goes on with the call a state names where it waits here, else starts (or replays) the call. */
  private begin<R, E>(
    request: RoundRequest,
    payload: StatePayload | undefined,
    run: (env: CallEnvironment) => Promise<R>,
    escalation: Escalation<R, E> | undefined,
  ): Promise<R | InputRequiredResult | E> {
    const responses = request.ctx.mcpReq.inputResponses ?? {};
    const resumed = payload && this.resume(payload, request.channel, responses);
    if (resumed) return this.drive(resumed as InputFlow<R>, request, escalation);

    const round = (payload?.round ?? 0) + 1;
    if (round > this.maxRounds)
      return Promise.reject(errors.inputRoundsExceeded(describe(request.target), this.maxRounds));
    // A state whose call is not held here: the call runs again, and the plugin is told so (a write must not).
    const flow = new InputFlow<R>(request.channel, round, payload !== undefined, payload?.carried);
    for (const [key, answer] of Object.entries(payload?.answers ?? {}))
      flow.offer(key, answer.response, answer.digest);
    for (const [key, response] of Object.entries(responses)) {
      // With a state, only the questions it asked are answered; without one, a client may answer ahead.
      if (!payload) flow.offer(key, response);
      else if (payload.asked[key] !== undefined) flow.offer(key, response, payload.asked[key]);
    }
    flow.start(run);
    return this.drive(flow, request, escalation);
  }

  /** Ends every waiting call (on shutdown). */
  close(): void {
    for (const id of [...this.held.keys()]) this.release(id, errors.shuttingDown('a call waiting for input'));
  }

  private resume(
    payload: StatePayload,
    channel: InputChannel,
    responses: Record<string, unknown>,
  ): InputFlow<unknown> | undefined {
    if (payload.origin !== this.origin) return undefined;
    const held = this.held.get(payload.flow);
    // An older state of a call that has moved on replays instead of taking over the call.
    if (!held || held.flow.round !== payload.round) return undefined;
    this.held.delete(payload.flow);
    clearTimeout(held.timer);
    held.flow.resume(channel, responses);
    return held.flow;
  }

  private drive<R, E>(
    flow: InputFlow<R>,
    request: RoundRequest,
    escalation: Escalation<R, E> | undefined,
  ): Promise<R | InputRequiredResult | E> {
    type Answer = R | InputRequiredResult | E;
    if (!escalation)
      return flow.next().then((event): Answer | Promise<Answer> => this.answerOf(flow, request, event));
    return this.nextOrEscalate(flow, escalation).then((event): Answer | Promise<Answer> => {
      if (event.kind === 'escalated') return event.answer;
      if (event.kind === 'running')
        return flow.next().then((later): Answer | Promise<Answer> => this.answerOf(flow, request, later));
      return this.answerOf(flow, request, event);
    });
  }

  /** What the request answers for the call's event: its result, its failure, or the input it waits on. */
  private answerOf<R>(
    flow: InputFlow<R>,
    request: RoundRequest,
    event: FlowEvent<R>,
  ): R | Promise<InputRequiredResult> {
    if (event.kind === 'done') return event.result;
    if (event.kind === 'failed') throw event.error;
    return this.suspend(flow, request, event.asked);
  }

  /** Seals the call's state and keeps it for the retry; the request answers with the input it waits on. */
  private async suspend<R>(
    flow: InputFlow<R>,
    request: RoundRequest,
    asked: ReadonlyMap<string, AskedInput>,
  ): Promise<InputRequiredResult> {
    const label = describe(request.target);
    if (flow.round > this.maxRounds) {
      const exceeded = errors.inputRoundsExceeded(label, this.maxRounds);
      flow.abort(exceeded);
      throw exceeded;
    }
    const askedDigests: Record<string, string> = {};
    for (const [key, { digest }] of asked) askedDigests[key] = digest;
    const requestState = await this.options.seal.seal(
      {
        target: stateTarget(request.target),
        flow: flow.id,
        origin: this.origin,
        round: flow.round,
        asked: askedDigests,
        answers: Object.fromEntries(flow.consumed),
        ...(flow.carried === undefined ? {} : { carried: flow.carried }),
      },
      request.ctx,
      request.principal,
    );
    flow.detach();
    this.hold(flow as InputFlow<unknown>);
    // The requests are the plugin's own wire-shaped params (checked by the SDK's seam against the client's
    // declared capabilities before they go out).
    return inputRequired({ inputRequests: wireInputRequests(asked) as InputRequests, requestState });
  }

  /**
   * The call's next event, or, when it is still working after `afterMs`, what `takeOver` answers for it (the
   * request stops driving the call: its cancellation no longer ends it). `running` when `takeOver` declines.
   */
  private async nextOrEscalate<R, E>(
    flow: InputFlow<R>,
    escalation: Escalation<R, E>,
  ): Promise<FlowEvent<R> | StillRunning | { kind: 'escalated'; answer: E }> {
    const event = escalation.afterMs === 0 ? RUNNING : await flow.nextWithin(escalation.afterMs);
    if (event.kind !== 'running') return event;
    // takeOver hands the call to its new driver (InputFlow.handOver), which detaches it from this request.
    const answer = escalation.takeOver(flow);
    return answer === undefined ? event : { kind: 'escalated', answer };
  }

  /** Keeps a waiting call for its retry, until its state expires; a call that fails meanwhile is let go. */
  private hold(flow: InputFlow<unknown>): void {
    if (this.held.size >= this.maxSuspended) {
      const [oldest] = this.held.keys();
      if (oldest !== undefined)
        this.release(oldest, errors.cancelled('a call waiting for input (too many waiting)'));
    }
    const timer = setTimeout(
      () => this.release(flow.id, errors.cancelled('a call waiting for input (its requestState expired)')),
      clampDelay(this.options.seal.ttlS * 1000),
    );
    timer.unref();
    this.held.set(flow.id, { flow, timer });
    flow.onSettled((event) => {
      // A result waits for the retry; a failure (its deadline, most often) is dropped, and the retry replays.
      if (event.kind === 'failed' && this.held.get(flow.id)?.flow === flow) {
        clearTimeout(timer);
        this.held.delete(flow.id);
      }
    });
  }

  private release(id: string, reason: Error): void {
    const held = this.held.get(id);
    if (!held) return;
    this.held.delete(id);
    clearTimeout(held.timer);
    held.flow.abort(reason);
  }
}

function describe(target: RequestTarget): string {
  return target.method === 'tools/call' ? `tool "${target.name}"` : `${target.method} of "${target.name}"`;
}
