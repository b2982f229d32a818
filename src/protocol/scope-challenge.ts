// The step-up answer to a request the access token lacks scopes for (a tool call; a plugin's resource read,
// subscription, prompt or completion): which request, which scopes, and the words of the 403 (MCP authorization,
// "Scope challenge handling"; RFC 6750 §3.1 insufficient_scope).
import type { ProtocolEra } from './caller.js';
import { listenedResources } from './listen.js';
import type { CatalogCheck, ScopeCheck } from './request-auth.js';
import { bearerChallenge } from './resource-server.js';

/** What a request asks to use: a tool (by published name), a resource (by published URI), a prompt (by name). */
export type GuardedKind = 'tool' | 'resource' | 'prompt';

/** A request in a body that uses something needing scopes the token does not grant. */
export interface ScopeShortfall extends ScopeCheck {
  id: string | number | null;
  kind: GuardedKind;
  /** The published tool or prompt name, or the published URI (a template's, for a completion). */
  name: string;
}

/** A request refused for want of scope, for whoever keeps account of refusals (the audit log). Never the token. */
export interface ScopeRefusal extends ScopeShortfall {
  principal: string;
  era: ProtocolEra;
}

/** What a body is checked against: tools ([auth.scopes] globs), and plugins' resources and prompts. */
export interface ScopeChecks {
  tool: (tool: string) => ScopeCheck;
  catalog?: CatalogCheck | undefined;
}

type Used = { kind: GuardedKind; name: string };

/**
 * What one message uses that a scope may guard: the tool of a tools/call; the resource of a resources/read or a
 * 2025 resources/subscribe; each resource a 2026-07-28 subscriptions/listen asks to hear of; the prompt of a
 * prompts/get; the prompt or resource template a completion/complete completes.
 */
function usedBy(message: unknown): Used[] {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: Record<string, unknown> };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const one = (kind: GuardedKind, name: string | undefined): Used[] =>
    name === undefined ? [] : [{ kind, name }];
  switch (method) {
    case 'tools/call':
      return one('tool', text(params?.name));
    case 'resources/read':
    case 'resources/subscribe':
      return one('resource', text(params?.uri));
    case 'prompts/get':
      return one('prompt', text(params?.name));
    case 'completion/complete': {
      const ref = params?.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
      if (ref?.type === 'ref/prompt') return one('prompt', text(ref.name));
      return ref?.type === 'ref/resource' ? one('resource', text(ref.uri)) : [];
    }
    case 'subscriptions/listen':
      return (listenedResources(message)?.uris ?? []).map((name) => ({ kind: 'resource' as const, name }));
    default:
      return [];
  }
}

/**
 * The first request of the body (one message, or a 2025-03-26 batch) that uses a tool, resource or prompt needing
 * a scope the token lacks: the whole body is refused, since one HTTP status answers it.
 */
export function scopeShortfall(body: unknown, checks: ScopeChecks): ScopeShortfall | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    for (const { kind, name } of usedBy(message)) {
      const check = kind === 'tool' ? checks.tool : checks.catalog?.[kind];
      if (check === undefined) continue;
      const { needed, missing } = check(name);
      if (missing.length === 0) continue;
      const raw = (message as { id?: unknown }).id;
      const id = typeof raw === 'string' || typeof raw === 'number' ? raw : null;
      return { id, kind, name, needed, missing };
    }
  }
  return undefined;
}

const listed = (scopes: readonly string[]) => scopes.map((scope) => JSON.stringify(scope)).join(', ');

/**
 * For the challenge's error_description: short, and only public names. A name is the client's own text, and a
 * header may carry only visible ASCII (RFC 6750 §3: %x20-21 / %x23-5B / %x5D-7E, quotes and backslashes escaped
 * by `bearerChallenge`), so anything else becomes "?"; the JSON-RPC message keeps the URI as sent.
 */
function shortfallDescription({ kind, name, missing }: ScopeShortfall): string {
  const shown = (kind === 'tool' ? name : `${kind} ${name}`).replace(/[^\x20-\x7e]/gu, '?');
  return `${shown} needs scope ${missing.join(' ')}`;
}

/**
 * The challenge's `scope`: every scope the call needs, not only the missing ones (RFC 6750 §3.1; SEP-2350 has
 * clients add them to those they hold), so that a client asking for exactly these gets a token that works.
 */
function challengeScopes({ needed }: ScopeShortfall): readonly string[] {
  return needed;
}

/** The JSON-RPC error message: what was refused, the scopes it needs, and what the client does next. Never a token. */
function shortfallMessage({ kind, name, missing }: ScopeShortfall): string {
  return `insufficient scope: ${kind} ${name} needs the scope${missing.length === 1 ? '' : 's'} ${listed(missing)}, which this access token does not grant; get a token that also has ${missing.length === 1 ? 'it' : 'them'} (the WWW-Authenticate header names them) and send the request again`;
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
