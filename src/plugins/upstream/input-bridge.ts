// How an upstream server's questions (elicitation, sampling, roots) reach the agent and what may be asked: the
// key an answer travels under, the agent's capabilities told to a 2026-07-28 server, and a refusal for lack of
// a capability kept so that the call fails for that reason rather than for whatever the server made of it.
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/client';
import {
  type ClientCapabilityNeed,
  errors,
  INPUT_KEY_META,
  isForesightError,
  type RequestContext,
} from '../../contract/index.js';

/** Longest key taken from a server for the agent's `inputRequests` (a longer one gets Foresight's own). */
const MAX_KEY_LENGTH = 128;

/** What the handler of a server's request is told of where it comes from. */
export interface AskedBy {
  /** The era of the connection: a 2026-07-28 server asks in an `input_required` result, under its own key. */
  modern: boolean;
  /** For a modern server the SDK gives the `inputRequests` key as the request's id. */
  id: unknown;
  params: unknown;
}

/**
 * The key to ask the agent under, so that the agent sees the server's own: a modern server's `inputRequests` key,
 * or the one a 2025 Foresight upstream names in `_meta` (`INPUT_KEY_META`). Undefined: Foresight numbers it.
 */
export function inputKeyOf(asked: AskedBy): string | undefined {
  const key = asked.modern ? asked.id : metaOf(asked.params)?.[INPUT_KEY_META];
  return typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH ? key : undefined;
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/**
 * What Foresight's client offers every server (sampling, elicitation and roots are passed to the agent during a
 * call); a request that names capabilities of its own in `_meta` starts from these when the agent's are unknown.
 */
export const OFFERED_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: {},
  roots: { listChanged: true },
};

/** The capabilities Foresight relays; anything else the agent declares is not the upstream's to use. */
const RELAYED = ['elicitation', 'sampling', 'roots'] as const;

/**
 * The `_meta` to send a modern server with a call: the agent's own capabilities (of those Foresight relays), so
 * the server asks only what the agent can answer. Undefined when the agent's are unknown: the SDK then sends
 * Foresight's, and what the agent cannot answer fails the call as it would have.
 */
export function capabilitiesMeta(rc: RequestContext): Record<string, unknown> | undefined {
  const declared = rc.clientCapabilities;
  if (declared === undefined) return undefined;
  const relayed: ClientCapabilities = {};
  for (const name of RELAYED)
    if (declared[name] !== undefined) Object.assign(relayed, { [name]: declared[name] });
  return { [CLIENT_CAPABILITIES_META_KEY]: relayed };
}

/**
 * Calls whose agent lacked a capability the server asked for. A 2025 server hears a MissingRequiredClientCapability
 * error and may recover (asking only if it can); if it fails the call instead, the agent learns the real reason.
 */
const refusals = new WeakMap<RequestContext, Error>();

/**
 * Runs the agent's side of a server's request; a refusal for lack of a capability is sent to the server as
 * MissingRequiredClientCapability (-32021) with the capabilities it needs. `remember`: the refusal is kept for the
 * call, for a question the call itself asks (elicitation, sampling); not for roots, which servers also ask of
 * their own accord (server-everything on start and when told they changed), whatever call is running.
 */
export async function askAgent<T>(call: RequestContext, ask: () => Promise<T>, remember = true): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (!isForesightError(error) || error.code !== errors.capabilityMissing.code) throw error;
    if (remember) refusals.set(call, error);
    throw new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, error.message, error.details);
  }
}

/**
 * The reason a call failed, as the agent should hear it. A server's error answer after a refusal: the refusal. An
 * upstream's own MissingRequiredClientCapability as Foresight's (a modern server told the agent's capabilities
 * answers so). Anything else (the connection lost, a timeout) as it came: it is no answer to the refusal.
 */
export function failureOf(call: RequestContext, error: unknown): unknown {
  if (!(error instanceof ProtocolError)) return error;
  const refused = refusals.get(call);
  if (refused !== undefined) return refused;
  if (error.code !== ProtocolErrorCode.MissingRequiredClientCapability) return error;
  const need = needOf(error.data);
  return need === undefined ? error : errors.capabilityMissing(need, 'the upstream server');
}

/**
 * The refusal of a tool call replayed for an agent's retry (`RequestContext.replayedInput`): the server's call that
 * asked the question waits on another process, or was ended, and sending the call again would run a write twice
 * behind the agent's back. A read-only tool runs again (its question answered from the retry), as do resource
 * readings and prompts, which change nothing by MCP's definition.
 */
export function replayRefusal(rc: RequestContext, tool: string, server: string): Error | undefined {
  return rc.replayedInput === true && rc.readOnly !== true
    ? errors.upstreamCallNotHeld(tool, server)
    : undefined;
}

/** A tool result that says it failed, after the agent refused the server a capability: the refusal instead. */
export function refusalBehind(call: RequestContext, result: { isError?: boolean }): Error | undefined {
  return result.isError === true ? refusals.get(call) : undefined;
}

/** Which capability an upstream's -32021 names (its `data.requiredCapabilities`), for Foresight's own error. */
function needOf(data: unknown): ClientCapabilityNeed | undefined {
  const required = (data as { requiredCapabilities?: Record<string, unknown> } | undefined)
    ?.requiredCapabilities;
  if (required?.sampling !== undefined) return 'sampling';
  if (required?.roots !== undefined) return 'roots';
  const elicitation = required?.elicitation as { url?: unknown } | undefined;
  if (elicitation?.url !== undefined) return 'elicitation.url';
  if (elicitation !== undefined) return 'elicitation';
  return required?.extensions !== undefined ? 'tasks' : undefined;
}
