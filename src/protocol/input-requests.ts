// What a call may ask a modern client for: the kinds of input request, how each is keyed and digested, what
// answers one, and the channel of the request that currently drives the call.
import { createHash } from 'node:crypto';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/core';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { CallEnvironment } from '../host/index.js';
import { canonicalJson } from '../planner/index.js';

export type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** One input request as it goes into `inputRequests`. */
export interface AskedInput {
  method: InputMethod;
  params?: Record<string, unknown>;
  digest: string;
}

/** The input requests of a round as the wire shows them, under their keys (params left out when there are none). */
export function wireInputRequests(
  asked: ReadonlyMap<string, AskedInput>,
): Record<string, { method: InputMethod; params?: Record<string, unknown> }> {
  const requests: Record<string, { method: InputMethod; params?: Record<string, unknown> }> = {};
  for (const [key, { method, params }] of asked)
    requests[key] = params === undefined ? { method } : { method, params };
  return requests;
}

/** What the request that currently drives the call offers it. */
export interface InputChannel {
  /** The request's own cancellation. */
  signal: AbortSignal;
  /** The request's JSON-RPC id; none for a task driving the call. */
  readonly requestId?: string | number;
  sendProgress?: CallEnvironment['sendProgress'];
  sendLog?: CallEnvironment['sendLog'];
  logLevel?: CallEnvironment['logLevel'];
  /** What the client declared, on this request, that it can answer. */
  capabilities: ClientCapabilities | undefined;
  /** The plugin deadline the call runs under (`CallEnvironment.deadline`); read when the call starts. */
  deadline?: CallEnvironment['deadline'];
  /** Who the request comes from (`CallEnvironment.principal`). */
  readonly principal?: string;
  /** What the request's access token allows (`CallEnvironment.mayCall`). */
  readonly mayCall?: CallEnvironment['mayCall'];
}

/** The longest state a call may carry in its requestState (`RequestContext.carryInput`). */
export const MAX_CARRIED_BYTES = 32 * 1024;

/** How the keys of each kind of request begin (`elicitation-1`, `sampling-2`, …). */
export const KEY_PREFIX: Record<InputMethod, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

const RESPONSE_SCHEMAS = {
  'elicitation/create': ElicitResultSchema,
  'sampling/createMessage': CreateMessageResultSchema,
  'roots/list': ListRootsResultSchema,
} as const;

/** Digest of an input request: an answer given to one question is never fed to another. */
export function inputDigest(method: InputMethod, params: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ method, params: params ?? {} }))
    .digest('base64url');
}

/** Whether a client that declared `capabilities` could be asked anything during a call (the methods above). */
export function mayBeAsked(capabilities: ClientCapabilities | undefined): boolean {
  return Boolean(capabilities?.elicitation ?? capabilities?.sampling ?? capabilities?.roots);
}

/** Whether `response` has the shape of an answer to `method` (answers come from the client: untrusted). */
export function isAnswerTo(method: InputMethod, response: unknown): boolean {
  return RESPONSE_SCHEMAS[method].safeParse(response).success;
}
