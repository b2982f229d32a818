// A 2026-07-28 server's questions relayed to a 2026-07-28 agent round by round, rather than answered inside the
// SDK client while the call waits on this process: each `input_required` round of the server becomes a round of
// the agent's own, with the server's requestState kept in Foresight's (signed: the agent can read it, not alter
// it). A retry that reaches another Foresight process then resumes the server's round where the server left it,
// instead of sending the call again from its start, which for a tool that may write would be refused.
import {
  type CreateMessageRequest,
  type ElicitRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Root,
} from '@modelcontextprotocol/client';
import { errors, type RequestContext } from '../../contract/index.js';
import { inputKeyOf } from './input-bridge.js';

/** One question of a server's round, as its `inputRequests` carry it. */
export interface InputRequest {
  method: string;
  params?: unknown;
}

/** A server's answer asking for input, as the SDK client hands it back when the call allows it. */
export interface InputRound {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

/** What the next request to the server carries: the answers to its questions, and its state echoed. */
export interface RoundAnswers {
  inputResponses: Record<string, unknown>;
  requestState?: string;
}

/** A server that asks round after round without end is cut off here, as the SDK's own driver does (10). */
const MAX_SERVER_ROUNDS = 10;

export function isInputRound(result: unknown): result is InputRound {
  return (result as { resultType?: unknown } | null)?.resultType === 'input_required';
}

/**
 * Whether a call is relayed round by round: a 2026-07-28 server, and an agent that retries (it has
 * `carryInput`: a 2026-07-28 agent's call, not a speculative one). Otherwise the SDK client answers the server's
 * rounds itself, through the handlers that ask the agent during the call.
 */
export function relaysRounds(modernServer: boolean, rc: RequestContext): boolean {
  return modernServer && rc.carryInput !== undefined;
}

/** What a round carries in Foresight's requestState: the server's state and questions, to answer on a replay. */
interface CarriedRound {
  requestState?: string;
  inputRequests: Record<string, InputRequest>;
}

function carriedRound(rc: RequestContext): CarriedRound | undefined {
  if (rc.carriedInput === undefined) return undefined;
  try {
    const parsed = JSON.parse(rc.carriedInput) as Partial<CarriedRound>;
    return typeof parsed.inputRequests === 'object' && parsed.inputRequests !== null
      ? {
          inputRequests: parsed.inputRequests,
          ...(parsed.requestState ? { requestState: parsed.requestState } : {}),
        }
      : undefined;
  } catch {
    // Signed by this deployment, so only another build's state lands here: the call runs from its start.
    return undefined;
  }
}

/** Whether this run resumes a server's round carried from another process (so nothing is sent twice). */
export function resumesCarriedRound(rc: RequestContext): boolean {
  return rc.replayedInput === true && carriedRound(rc) !== undefined;
}

/**
 * Runs `send` (the request to the server, with a round's answers when there are some) until the server answers
 * with a result: each `input_required` round is asked of the agent under the server's keys, in one round of the
 * agent's. On a replay that carries a round, the first request to the server already answers it. `roots`: the
 * configured roots, which answer `roots/list` without asking the agent.
 */
export async function relayRounds<R>(
  rc: RequestContext,
  send: (answers: RoundAnswers | undefined) => Promise<R | InputRound>,
  roots?: Root[],
): Promise<R> {
  const asker = (key: string, request: InputRequest) => askOne(rc, key, request, roots);
  const carried = carriedRound(rc);
  let answers = carried && (await answerRound(asker, carried));
  for (let round = 1; ; round += 1) {
    const result = await send(answers);
    if (!isInputRound(result)) return result;
    if (round > MAX_SERVER_ROUNDS)
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `the server asked for input more than ${MAX_SERVER_ROUNDS} times in one call`,
      );
    const next: CarriedRound = {
      inputRequests: result.inputRequests ?? {},
      ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
    };
    rc.carryInput?.(JSON.stringify(next));
    answers = await answerRound(asker, next);
  }
}

/** Asks the agent every question of a round at once (they go out as one `input_required`), keyed as the server's. */
async function answerRound(
  ask: (key: string, request: InputRequest) => Promise<unknown>,
  round: CarriedRound,
): Promise<RoundAnswers> {
  const entries = Object.entries(round.inputRequests);
  const responses = await Promise.all(entries.map(([key, request]) => ask(key, request)));
  return {
    inputResponses: Object.fromEntries(entries.map(([key], i) => [key, responses[i]])),
    ...(round.requestState === undefined ? {} : { requestState: round.requestState }),
  };
}

/**
 * Asks the agent every question a server's task waits on (`inputRequests` of its `input_required` status), keyed as
 * the server's, for the `inputResponses` of tasks/update.
 */
export async function answerInputRequests(
  rc: RequestContext,
  inputRequests: Record<string, InputRequest>,
  roots?: Root[],
): Promise<Record<string, unknown>> {
  const round = await answerRound((key, request) => askOne(rc, key, request, roots), { inputRequests });
  return round.inputResponses;
}

function askOne(rc: RequestContext, key: string, request: InputRequest, roots?: Root[]): Promise<unknown> {
  const agentKey = inputKeyOf({ modern: true, id: key, params: request.params });
  const options = agentKey === undefined ? undefined : { key: agentKey };
  switch (request.method) {
    case 'elicitation/create':
      return rc.elicit(request.params as ElicitRequest['params'], options);
    case 'sampling/createMessage':
      return rc.createMessage(request.params as CreateMessageRequest['params'], options);
    case 'roots/list':
      if (roots !== undefined) return Promise.resolve({ roots });
      return rc.listRoots?.(options) ?? Promise.reject(errors.capabilityMissing('roots'));
    default:
      return Promise.reject(
        new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `the server asked for input of a kind Foresight does not relay (${JSON.stringify(request.method)}); it relays elicitation/create, sampling/createMessage and roots/list`,
        ),
      );
  }
}
