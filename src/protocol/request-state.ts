// Seals and opens the requestState of multi round-trip requests: signed by the SDK's HMAC codec, bound to the
// principal it was issued to, and checked against the request it comes back with.
import { createHash, randomBytes } from 'node:crypto';
import { type ServerContext, createRequestStateCodec } from '@modelcontextprotocol/server';
import { DEFAULT_REQUEST_STATE_TTL_S } from '../config/index.js';
import { errors } from '../contract/index.js';
import { canonicalJson } from '../planner/index.js';

/** The longest requestState accepted; Foresight never issues a longer one (it drops the answers it carries first). */
export const MAX_REQUEST_STATE_BYTES = 64 * 1024;

/** The request a state belongs to: a retry must repeat it exactly. */
export interface StateTarget {
  method: string;
  /** Tool or prompt name, or resource URI, as the client sent it. */
  name: string;
  /** Digest of the arguments as the client sent them (`argsDigest`). */
  argsDigest: string;
}

/** An answer the call has consumed, with the digest of the input request it answered. */
export interface CarriedAnswer {
  response: unknown;
  digest: string;
}

/** What a requestState carries (signed, not encrypted: the client can read it, so nothing secret goes in). */
export interface StatePayload {
  target: StateTarget;
  /** The suspended call it resumes on the process that issued it (`origin`). */
  flow: string;
  origin: string;
  round: number;
  /** Input request keys asked in this round, with the digest of each request. */
  asked: Record<string, string>;
  /** Answers of earlier rounds, so another process can replay the call; absent when they were too large. */
  answers?: Record<string, CarriedAnswer>;
  /** What the call kept with this round (`RequestContext.carryInput`), handed to a replay. */
  carried?: string;
}

export interface RequestStateSealOptions {
  /** HMAC key, at least 32 bytes; default a random key of this process (then only this process can open states). */
  key?: Uint8Array | string;
  /** Lifetime of an issued state in seconds. Default 300. */
  ttlS?: number;
}

/** A digest of request arguments: a retry with other arguments does not match its state. */
export function argsDigest(args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('base64url');
}

/** How a target reads in an error message. */
export function describeTarget(target: StateTarget): string {
  return `${target.method} of ${JSON.stringify(target.name)}`;
}

export class RequestStateSeal {
  readonly ttlS: number;
  /** The principal each request context speaks for, read by the codec's binding. */
  private readonly principals = new WeakMap<ServerContext, string>();
  private readonly codec;

  constructor(options: RequestStateSealOptions = {}) {
    this.ttlS = options.ttlS ?? DEFAULT_REQUEST_STATE_TTL_S;
    this.codec = createRequestStateCodec<StatePayload>({
      key: options.key ?? randomBytes(32),
      ttlSeconds: this.ttlS,
      bind: (ctx) => this.principals.get(ctx) ?? '',
    });
  }

  /**
   * Seals `payload` for `principal`. When it would be too long, the carried answers are dropped, then the carried
   * state: a retry elsewhere then replays the call from its start (or refuses), never fails on its state's size.
   */
  async seal(payload: StatePayload, ctx: ServerContext, principal: string): Promise<string> {
    this.principals.set(ctx, principal);
    let sealed = await this.codec.mint(payload, ctx);
    for (const drop of ['answers', 'carried'] as const) {
      if (sealed.length <= MAX_REQUEST_STATE_BYTES) break;
      if (payload[drop] === undefined) continue;
      payload = { ...payload, [drop]: undefined };
      sealed = await this.codec.mint(payload, ctx);
    }
    return sealed;
  }

  /**
   * Opens a state the client sent back with `target`: throws a ForesightError saying what is wrong when it is
   * too long, altered or not ours, expired, issued to another principal, or issued for another request.
   */
  async open(
    state: string,
    ctx: ServerContext,
    principal: string,
    target: StateTarget,
  ): Promise<StatePayload> {
    const label = describeTarget(target);
    const bytes = Buffer.byteLength(state);
    if (bytes > MAX_REQUEST_STATE_BYTES) throw errors.requestStateTooLarge(bytes, MAX_REQUEST_STATE_BYTES);
    this.principals.set(ctx, principal);
    let payload: StatePayload;
    try {
      payload = await this.codec.verify(state, ctx);
    } catch (error) {
      const reason = error instanceof Error ? error.message : '';
      if (reason === 'expired') throw errors.requestStateExpired(label, this.ttlS);
      if (reason === 'bind') throw errors.requestStateForeign(label);
      throw errors.requestStateInvalid(label);
    }
    const issued = payload.target;
    if (
      issued?.method !== target.method ||
      issued.name !== target.name ||
      issued.argsDigest !== target.argsDigest
    ) {
      const issuedFor = issued
        ? issued.method === target.method && issued.name === target.name
          ? `${describeTarget(issued)} with other arguments`
          : describeTarget(issued)
        : 'another request';
      throw errors.requestStateMismatch(label, issuedFor);
    }
    return payload;
  }
}
