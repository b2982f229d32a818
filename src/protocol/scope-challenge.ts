// The step-up answer to a tool call the request's access token lacks scopes for: which call, which scopes, and
// the words of the 403 (MCP authorization, "Scope challenge handling"; RFC 6750 §3.1 insufficient_scope).
import type { ProtocolEra } from './caller.js';
import type { ScopeCheck } from './request-auth.js';
import { bearerChallenge } from './resource-server.js';

/** A tools/call in a request body whose tool needs scopes the token does not grant. */
export interface ScopeShortfall extends ScopeCheck {
  id: string | number | null;
  tool: string;
}

/** A call refused for want of scope, for whoever keeps account of refusals (the audit log). Never the token. */
export interface ScopeRefusal extends ScopeShortfall {
  principal: string;
  era: ProtocolEra;
}

/**
 * The first tools/call of the body (one message, or a 2025-03-26 batch) whose tool needs a scope the token lacks:
 * the whole body is refused, since one HTTP status answers it.
 */
export function scopeShortfall(
  body: unknown,
  check: (tool: string) => ScopeCheck,
): ScopeShortfall | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    const call = message as { method?: unknown; id?: unknown; params?: { name?: unknown } } | null;
    if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') continue;
    const { needed, missing } = check(call.params.name);
    if (missing.length === 0) continue;
    const id = typeof call.id === 'string' || typeof call.id === 'number' ? call.id : null;
    return { id, tool: call.params.name, needed, missing };
  }
  return undefined;
}

const listed = (scopes: readonly string[]) => scopes.map((scope) => JSON.stringify(scope)).join(', ');

/** For the challenge's error_description: short, and only public names. */
function shortfallDescription({ tool, missing }: ScopeShortfall): string {
  return `${tool} needs scope ${missing.join(' ')}`;
}

/**
 * The challenge's `scope`: every scope the call needs, not only the missing ones (RFC 6750 §3.1; SEP-2350 has
 * clients add them to those they hold), so that a client asking for exactly these gets a token that works.
 */
function challengeScopes({ needed }: ScopeShortfall): readonly string[] {
  return needed;
}

/** The JSON-RPC error message: the tool, the scopes it needs, and what the client does next. Never a token. */
function shortfallMessage({ tool, missing }: ScopeShortfall): string {
  return `insufficient scope: tool ${tool} needs the scope${missing.length === 1 ? '' : 's'} ${listed(missing)}, which this access token does not grant; get a token that also has ${missing.length === 1 ? 'it' : 'them'} (the WWW-Authenticate header names them) and send the request again`;
}

/** The 403 answer: its `WWW-Authenticate` value and the JSON-RPC error message. */
export function stepUpAnswer(
  resourceMetadataUrl: string,
  shortfall: ScopeShortfall,
): { challenge: string; message: string } {
  return {
    challenge: bearerChallenge(resourceMetadataUrl, {
      error: 'insufficient_scope',
      description: shortfallDescription(shortfall),
      scopes: challengeScopes(shortfall),
    }),
    message: shortfallMessage(shortfall),
  };
}
