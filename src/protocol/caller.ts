// Who a request comes from: the connection it arrived on, its principal, and the agent stream the planner keys it by.
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerContext,
} from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  TRACEPARENT_META_KEY,
} from '@modelcontextprotocol/server';
import { DEFAULT_PRINCIPAL } from '../planner/index.js';

export type ProtocolEra = 'legacy' | 'modern';

/** The revisions of the stateless era Foresight serves (the SDK's own list, which it does not export). */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** The revision a request's `_meta` envelope claims, if any, and whether Foresight serves it. */
function claimedRevision(message: unknown): { claimed: unknown; served: boolean } {
  const params = (message as { params?: { _meta?: Record<string, unknown> } }).params;
  const claimed = params?._meta?.[PROTOCOL_VERSION_META_KEY];
  return { claimed, served: typeof claimed === 'string' && MODERN_PROTOCOL_VERSIONS.includes(claimed) };
}

/**
 * The revision a request's `_meta` envelope claims, when it claims one Foresight does not serve. The SDK checks
 * the opening request of a stdio connection and every HTTP request, but not the later requests of a stdio
 * connection pinned to 2026-07-28.
 */
export function unsupportedClaim(message: unknown): string | undefined {
  const { claimed, served } = claimedRevision(message);
  return claimed === undefined || served ? undefined : String(claimed);
}

/** True when a request's `_meta` envelope claims a 2026-07-28 revision Foresight serves. */
export function claimsModernRevision(message: unknown): boolean {
  return claimedRevision(message).served;
}

/** Where requests come from. One per stdio connection, legacy HTTP session or modern HTTP request. */
export interface Connection {
  transport: 'stdio' | 'http' | 'memory';
  /**
   * Who is asking: the authenticated identity when the transport has one (the static bearer token's
   * fingerprint), else the transport's own: `local` over stdio and in memory, `address:<ip>` over HTTP.
   * requestState is bound to it and the planner never serves one principal's results to another.
   */
  principal: string;
  /**
   * The agent stream of a connection that is one agent (a stdio connection, a legacy session). Undefined for
   * modern HTTP, where each request names its stream through its `_meta`.
   */
  stream?: string;
  /**
   * Whom admission and the call rate count this connection's calls against. Default: the stream, else the
   * principal. A legacy session under `[auth]` counts against its principal, so that one person does not get
   * more slots, or more calls a minute, by opening more sessions.
   */
  client?: string;
}

/** The principal of stdio and in-memory connections: the user who started the process (the planner's default). */
export const LOCAL_PRINCIPAL = DEFAULT_PRINCIPAL;

/**
 * The agent stream of a modern HTTP request: its principal, the client it says it is (`clientInfo`), and the
 * W3C trace id of `_meta.traceparent` when it sends one (one agent run, even when several share a client).
 */
export function modernStreamKey(principal: string, ctx: ServerContext): string {
  const info = envelopeOf(ctx).clientInfo;
  const client = info ? `${info.name}@${info.version}` : '';
  const trace = traceIdOf(ctx.mcpReq._meta?.[TRACEPARENT_META_KEY]);
  return JSON.stringify(trace ? [principal, client, trace] : [principal, client]);
}

/** The trace id of a W3C `traceparent` (`00-<32 hex>-<16 hex>-<2 hex>`); undefined when malformed or all zeros. */
export function traceIdOf(traceparent: unknown): string | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(
    traceparent.trim().toLowerCase(),
  );
  if (!match?.[1] || /^0+$/.test(match[1])) return undefined;
  return match[1];
}

/** The per-request `_meta` envelope of a 2026-07-28 request (validated by the SDK before any handler runs). */
export interface Envelope {
  protocolVersion?: string;
  clientInfo?: Implementation;
  clientCapabilities?: ClientCapabilities;
  logLevel?: LoggingLevel;
}

export function envelopeOf(ctx: ServerContext): Envelope {
  // The SDK types the lifted envelope as an empty object; its keys are the reserved _meta keys.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (!envelope) return {};
  return {
    protocolVersion: envelope[PROTOCOL_VERSION_META_KEY] as string | undefined,
    clientInfo: envelope[CLIENT_INFO_META_KEY] as Implementation | undefined,
    clientCapabilities: envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined,
    logLevel: envelope[LOG_LEVEL_META_KEY] as LoggingLevel | undefined,
  };
}
