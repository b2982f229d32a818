// What the request handlers of one bound server share: its era and connection, each request's tools and
// environment (input rounds for a 2026-07-28 call), the rate and admission gates a call passes, and error mapping.
import type { InputRequiredResult, LoggingLevel, Server, ServerContext } from '@modelcontextprotocol/server';
import { errors } from '../contract/index.js';
import type { CallEnvironment } from '../host/index.js';
import { AdmissionRefused, type Release } from './admission.js';
import { CallRateExceeded } from './call-rate.js';
import { type Connection, type ProtocolEra, envelopeOf, modernStreamKey } from './caller.js';
import type { Escalation, RequestTarget } from './input-rounds.js';
import { mayBeAsked } from './input-flow.js';
import { LegacyRequestEnvironment, type LogThresholdOf, RequestChannel } from './request-channel.js';
import type { Binding, ServerFactoryOptions } from './server-types.js';
import type { ToolService } from './tool-service.js';
import { requestFailure } from './wire-errors.js';

type Env = CallEnvironment;

export interface ServerScope {
  readonly server: Server;
  readonly era: ProtocolEra;
  readonly modern: boolean;
  readonly connection: Connection;
  readonly options: ServerFactoryOptions;
  /** Who the rate and the admission slots count a call against. */
  readonly client: string;
  /** The tools of a connection that is one agent (one stream); none for modern HTTP requests. */
  readonly fixedTools: ToolService | undefined;
  /** The level a 2025 client set with logging/setLevel; until it does, everything is sent. */
  sessionLogLevel: LoggingLevel | undefined;
  /** The tools a request sees: the connection's stream, or the one a modern HTTP request names. */
  toolsFor(ctx: ServerContext): ToolService;
  /** The environment of a request that asks nothing during the call (completion, subscriptions). */
  plainEnv(ctx: ServerContext): Env;
  /**
   * Runs a call that may ask for input: for a 2025 client during the call; for a 2026-07-28 client through
   * multi round-trip requests (an `input_required` answer, completed on the retry).
   */
  withInput<R, E = never>(
    ctx: ServerContext,
    target: RequestTarget,
    run: (env: Env) => Promise<R>,
    escalation?: Escalation<R, E>,
  ): Promise<R | InputRequiredResult | E>;
  /** Counts one call against the client's rate, or refuses it (E_RATE_LIMITED). */
  countCall(ctx: ServerContext): void;
  /** A slot for one call once the client's turn comes (see below); refused when the client's queue is full. */
  slotLater(ctx: ServerContext): Promise<Release>;
  /** Runs `fn`, its failure made the wire error of a request for `target`. */
  guard<T>(target: string, fn: () => Promise<T>, notFoundCode?: number): Promise<T>;
}

export function createServerScope(
  server: Server,
  binding: Binding,
  options: ServerFactoryOptions,
): ServerScope {
  const { era, connection } = binding;
  const modern = era === 'modern';
  // A connection that is one agent has one stream; a modern HTTP request names its own.
  const fixedTools = connection.stream
    ? options.openTools({
        id: connection.stream,
        principal: connection.principal,
        era,
        transport: connection.transport,
      })
    : undefined;
  const via = { era, transport: connection.transport };

  // 2026-07-28: only at or above the level the request asks for, and nothing when it asks for none;
  // 2025: at or above the session's level, everything until the client sets one.
  const logThreshold: LogThresholdOf = modern
    ? (ctx) => envelopeOf(ctx).logLevel ?? 'none'
    : () => scope.sessionLogLevel ?? 'all';
  const legacyEnv = (ctx: ServerContext): Env =>
    new LegacyRequestEnvironment(ctx, logThreshold, server.getClientCapabilities());

  // A connection that is one agent is one client; modern HTTP requests are known by their principal alone, since
  // what else they say of themselves (clientInfo, trace id) is theirs to vary.
  const client = connection.client ?? connection.stream ?? connection.principal;
  const callRate = options.callRate?.limited ? options.callRate : undefined;

  const scope: ServerScope = {
    server,
    era,
    modern,
    connection,
    options,
    client,
    fixedTools,
    sessionLogLevel: undefined,
    toolsFor: (ctx) =>
      fixedTools ??
      options.streams.get(modernStreamKey(connection.principal, ctx), connection.principal, via),
    plainEnv: (ctx) => (modern ? new RequestChannel(ctx, logThreshold) : legacyEnv(ctx)),
    withInput: (ctx, target, run, escalation) => {
      if (!modern) return run(legacyEnv(ctx));
      const capabilities = envelopeOf(ctx).clientCapabilities;
      // A request that declares nothing it could be asked, and answers no earlier round, can never be answered
      // with input_required: its call runs on the request itself, as a 2025 call does, without a flow to resume
      // (about 40 µs a proxied call in a profile of the upstream bench). A call that may become a task keeps its
      // flow.
      if (
        escalation === undefined &&
        !mayBeAsked(capabilities) &&
        ctx.mcpReq.requestState() === undefined &&
        ctx.mcpReq.inputResponses === undefined
      )
        return run(new RequestChannel(ctx, logThreshold, capabilities));
      return options.rounds.serve(
        {
          ctx,
          principal: connection.principal,
          target,
          // A call that may become a task runs under the plugin's task deadline from its start.
          channel: new RequestChannel(ctx, logThreshold, capabilities, escalation ? 'task' : undefined),
        },
        run,
        escalation,
      );
    },
    /**
     * A 2026-07-28 retry that answers the server's own question (it carries requestState) is the same call going
     * on, and is not counted again.
     */
    countCall: (ctx) => {
      if (callRate === undefined || (modern && ctx.mcpReq.requestState() !== undefined)) return;
      try {
        callRate.take(client);
      } catch (error) {
        throw error instanceof CallRateExceeded
          ? errors.rateLimited(error.perMinute, error.retryAfterS)
          : error;
      }
    },
    /**
     * A slot for one call (see RequestAdmission): at once when one is free, else once the client's turn comes; a
     * client whose queue is full is refused. Handlers take it as `tryAdmit(client) ?? (await slotLater(ctx))` and
     * release it in a `finally` around the await they make anyway: with a slot free, no promise or turn is added
     * to the call (an extra await delayed 2025 HTTP answers behind the planner's work after each call, and
     * sequential calls/s halved in `npm run bench`).
     */
    slotLater: async (ctx) => {
      try {
        return await options.admission.admit(client, ctx.mcpReq.signal);
      } catch (error) {
        throw error instanceof AdmissionRefused ? errors.serverBusy(error.running, error.waiting) : error;
      }
    },
    guard: async (target, fn, notFoundCode) => {
      try {
        return await fn();
      } catch (error) {
        throw requestFailure(error, target, options, notFoundCode, era);
      }
    },
  };
  return scope;
}
