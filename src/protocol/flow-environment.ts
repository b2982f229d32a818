// The environment a call of an InputFlow runs with: what it asks goes through the flow, and its client-facing
// members follow whichever request drives the call at the time.
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/server';
import type { InputRequestOptions } from '../contract/index.js';
import type { CallEnvironment } from '../host/index.js';
import type { InputChannel } from './input-requests.js';

/** What the environment needs of its flow (InputFlow). */
export interface AskingCall {
  /** The call's abort signal, made on first read. */
  readonly signal: AbortSignal;
  /** Whether the call's request is cancelled, without making the call's signal. */
  readonly aborted: boolean;
  /** The request driving the call now (its capabilities, progress and log channel). */
  readonly driver: InputChannel;
  /** The call runs again for a retry whose waiting call this process does not hold. */
  readonly replayed: boolean;
  /** Keeps state for the next round (`RequestContext.carryInput`). */
  readonly carry: (state: string) => void;
  /** On a replay, what the call kept with the round the retry answers. */
  readonly carriedIn?: string;
  elicit(params: ElicitRequest['params'], options?: InputRequestOptions): Promise<ElicitResult>;
  createMessage(
    params: CreateMessageRequest['params'],
    options?: InputRequestOptions,
  ): Promise<CreateMessageResult>;
  listRoots(options?: InputRequestOptions): Promise<ListRootsResult>;
}

/**
 * What the call of a flow sees as its environment. A class, so a call that never asks costs one small object:
 * accessors live on the prototype, and the functions the contract calls are made once per flow, when first used.
 * Each request declares its own capabilities and brings its own progress and log channel, so they are read
 * from whichever request drives the call at the time.
 */
export class FlowEnvironment implements CallEnvironment {
  #elicit: CallEnvironment['elicit'];
  #createMessage: CallEnvironment['createMessage'];
  #listRoots: CallEnvironment['listRoots'];

  #principal: string | undefined;

  constructor(private readonly flow: AskingCall) {}

  /** The principal of the request that started the call: a driver taking it over later does not change it. */
  get principal(): string | undefined {
    return (this.#principal ??= this.flow.driver.principal);
  }

  /** The request driving the call now: a retry brings its own token. */
  get mayCall() {
    return this.flow.driver.mayCall;
  }

  get signal(): AbortSignal {
    return this.flow.signal;
  }

  get aborted(): boolean {
    return this.flow.aborted;
  }

  get requestId(): string | number | undefined {
    return this.flow.driver.requestId;
  }

  get deadline() {
    return this.flow.driver.deadline;
  }

  get sendProgress() {
    return this.flow.driver.sendProgress;
  }

  get sendLog() {
    return this.flow.driver.sendLog;
  }

  get clientCapabilities() {
    return this.flow.driver.capabilities;
  }

  get logLevel() {
    return this.flow.driver.logLevel;
  }

  get replayedInput(): boolean {
    return this.flow.replayed;
  }

  get carryInput(): (state: string) => void {
    return this.flow.carry;
  }

  get carriedInput(): string | undefined {
    return this.flow.carriedIn;
  }

  get elicit() {
    if (!this.flow.driver.capabilities?.elicitation) return undefined;
    return (this.#elicit ??= (params, _signal, options) => this.flow.elicit(params, options));
  }

  get createMessage() {
    if (!this.flow.driver.capabilities?.sampling) return undefined;
    return (this.#createMessage ??= (params, _signal, options) => this.flow.createMessage(params, options));
  }

  get listRoots() {
    if (!this.flow.driver.capabilities?.roots) return undefined;
    return (this.#listRoots ??= (_signal, options) => this.flow.listRoots(options));
  }
}
