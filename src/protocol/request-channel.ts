// What a call sees of the request that runs it: the request's cancellation, progress and log messages on its own
// stream, and, for a 2025 client, the requests the call may send it. Classes whose members live on the prototype
// and make their functions on first use: most calls use none of them, and every call pays for what is made.
import { LoggingLevelSchema } from '@modelcontextprotocol/core';
import type {
  ClientCapabilities,
  CreateMessageResult,
  LoggingLevel,
  ServerContext,
} from '@modelcontextprotocol/server';
import { INPUT_KEY_META, type InputRequestOptions } from '../contract/index.js';
import { type CallEnvironment } from '../host/index.js';
import { LOCAL_PRINCIPAL } from './caller.js';
import type { InputChannel } from './input-flow.js';
import { requestScopeCheck } from './request-auth.js';

/** In order of severity, as MCP defines them. */
const LOG_LEVELS: readonly LoggingLevel[] = LoggingLevelSchema.options;

/** The least severe level a request's log messages are sent at: `all` and `none` as they say. */
export type LogThreshold = LoggingLevel | 'all' | 'none';

/** Worked out per message, since a 2025 session may change its level while a call runs. */
export type LogThresholdOf = (ctx: ServerContext) => LogThreshold;

type SendProgress = NonNullable<CallEnvironment['sendProgress']>;
type SendLog = NonNullable<CallEnvironment['sendLog']>;

/** Progress and log messages go on the request's own stream; the SDK applies the era's delivery rules. */
export class RequestChannel implements InputChannel {
  #sendProgress: SendProgress | undefined;
  #sendLog: SendLog | undefined;

  constructor(
    protected readonly ctx: ServerContext,
    private readonly logThreshold: LogThresholdOf,
    /** What the client declared it can answer (a 2026-07-28 request's own `_meta`; unused for 2025). */
    readonly capabilities: ClientCapabilities | undefined = undefined,
    readonly deadline: CallEnvironment['deadline'] = undefined,
  ) {}

  /** The principal HTTP serving put in the request's `authInfo`; stdio and in-memory requests carry none. */
  get principal(): string {
    const principal = this.ctx.http?.authInfo?.extra?.['principal'];
    return typeof principal === 'string' ? principal : LOCAL_PRINCIPAL;
  }

  /** Under `[auth.scopes]`, what the request's token allows; made per read, and the planner reads it once a call. */
  get mayCall(): ((tool: string) => boolean) | undefined {
    const check = requestScopeCheck(this.ctx);
    return check && ((tool) => check(tool).missing.length === 0);
  }

  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }

  /** What the request declared; a 2025 session's environment answers with what it declared at initialize. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.capabilities;
  }

  get requestId(): string | number {
    return this.ctx.mcpReq.id;
  }

  /** Undefined when the request asked for no progress (it carries no progress token). */
  get sendProgress(): SendProgress | undefined {
    const progressToken = this.ctx.mcpReq._meta?.progressToken;
    if (progressToken === undefined) return undefined;
    return (this.#sendProgress ??= (progress, total, message) =>
      this.ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total, message },
      }));
  }

  /** The threshold as a level a source can be asked at: `all` is the least severe one. */
  get logLevel(): LoggingLevel | undefined {
    const threshold = this.logThreshold(this.ctx);
    if (threshold === 'none') return undefined;
    return threshold === 'all' ? 'debug' : threshold;
  }

  get sendLog(): SendLog {
    return (this.#sendLog ??= (level, data, logger) => {
      const threshold = this.logThreshold(this.ctx);
      if (threshold === 'none') return Promise.resolve();
      if (threshold !== 'all' && LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold))
        return Promise.resolve();
      return this.ctx.mcpReq.notify({
        method: 'notifications/message',
        params: { level, data, ...(logger === undefined ? {} : { logger }) },
      });
    });
  }
}

/** A 2025 client is asked during the call, on the request's stream, for what it declared at initialize. */
export class LegacyRequestEnvironment extends RequestChannel implements CallEnvironment {
  #createMessage: CallEnvironment['createMessage'];
  #elicit: CallEnvironment['elicit'];
  #listRoots: CallEnvironment['listRoots'];

  constructor(
    ctx: ServerContext,
    logThreshold: LogThresholdOf,
    /** Declared at initialize. */
    private readonly declared: ClientCapabilities | undefined,
  ) {
    super(ctx, logThreshold);
  }

  get closeSSEStream(): (() => void) | undefined {
    return this.ctx.http?.closeSSE;
  }

  override get clientCapabilities(): ClientCapabilities | undefined {
    return this.declared;
  }

  get createMessage(): CallEnvironment['createMessage'] {
    if (!this.declared?.sampling) return undefined;
    // The contract types the answer without tool-use content; a plugin that offers tools reads it as sent.
    return (this.#createMessage ??= (params, signal, options) =>
      this.ctx.mcpReq.send(
        { method: 'sampling/createMessage', params: keyed(params, options) },
        { signal },
      ) as Promise<CreateMessageResult>);
  }

  get elicit(): CallEnvironment['elicit'] {
    if (!this.declared?.elicitation) return undefined;
    return (this.#elicit ??= (params, signal, options) =>
      this.ctx.mcpReq.send({ method: 'elicitation/create', params: keyed(params, options) }, { signal }));
  }

  get listRoots(): CallEnvironment['listRoots'] {
    if (!this.declared?.roots) return undefined;
    return (this.#listRoots ??= (signal, options) =>
      this.ctx.mcpReq.send(
        options?.key === undefined
          ? { method: 'roots/list' }
          : { method: 'roots/list', params: { _meta: { [INPUT_KEY_META]: options.key } } },
        { signal },
      ));
  }
}

/**
 * The params with the plugin's key for the request in `_meta` (a 2025 request has no key of its own): a Foresight
 * mounting this one as an upstream asks its own 2026-07-28 client under the same key.
 */
function keyed<P extends { _meta?: Record<string, unknown> }>(params: P, options?: InputRequestOptions): P {
  if (options?.key === undefined) return params;
  return { ...params, _meta: { ...params._meta, [INPUT_KEY_META]: options.key } };
}
