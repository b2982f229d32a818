// What one audit line says of a call: who, which tool, how it ended, how long it took, and whether it ran ahead.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isForesightError } from '../contract/index.js';

/**
 * How the planner took part in the call: `false` the tool ran for the agent's own call; `"hit"` the agent's call
 * was answered from a result the planner had run ahead; `"join"` it waited for such a call still running;
 * `"prefetch"` the planner ran the call ahead on its own (no agent asked yet).
 */
export type Speculative = false | 'hit' | 'join' | 'prefetch';

/** `error` a failure (its `error` says which), `timeout` a deadline, `cancelled` the client withdrew. */
export type AuditOutcome = 'ok' | 'error' | 'timeout' | 'cancelled';

/** One line of the audit log, as written (snake_case, like the wire). Never the call's arguments. */
export interface AuditRecord {
  /** Tells audit lines from the pino records sharing stderr. */
  audit: true;
  /** ISO 8601, when the call ended. */
  time: string;
  principal: string;
  /** The published name. */
  tool: string;
  /** The plugin the tool belongs to; absent for a tool not listed. */
  plugin?: string;
  outcome: AuditOutcome;
  /**
   * For outcomes other than `ok`: our error code (`E_…`), `tool_error` for a result the tool itself marked
   * `isError`, or `insufficient_scope` for a call refused for want of an OAuth scope (no tool ran).
   */
  error?: { code: string; kind?: string };
  latency_ms: number;
  speculative: Speculative;
  /** The protocol era of the client's connection; absent for prefetches. */
  era?: 'legacy' | 'modern';
  transport?: 'stdio' | 'http' | 'memory';
  /** The JSON-RPC id of the request that began the call; absent for prefetches and calls without one. */
  request_id?: string | number;
}

/** The code a tool's own failure result is logged under. */
export const TOOL_ERROR = 'tool_error';

/** The code of a call refused at HTTP because the token lacks a scope the tool needs ([auth.scopes]). */
export const INSUFFICIENT_SCOPE = 'insufficient_scope';

/** The fields of a record that say how the call ended, from its result or what it threw. */
export function outcomeOf(
  ended: { result: CallToolResult } | { error: unknown },
): Pick<AuditRecord, 'outcome' | 'error'> {
  if ('result' in ended) {
    if (ended.result.isError !== true) return { outcome: 'ok' };
    const marked = ended.result._meta?.['foresight/error'] as { code?: unknown; kind?: unknown } | undefined;
    return typeof marked?.code === 'string'
      ? failure(marked.code, typeof marked.kind === 'string' ? marked.kind : undefined)
      : { outcome: 'error', error: { code: TOOL_ERROR } };
  }
  const { error } = ended;
  if (isForesightError(error)) return failure(error.code, error.kind);
  if (error instanceof Error && error.name === 'AbortError')
    return { outcome: 'cancelled', error: { code: 'aborted' } };
  return { outcome: 'error', error: { code: 'internal', kind: 'internal' } };
}

function failure(code: string, kind: string | undefined): Pick<AuditRecord, 'outcome' | 'error'> {
  const outcome: AuditOutcome =
    code === 'E_CANCELLED' ? 'cancelled' : kind === 'timeout' ? 'timeout' : 'error';
  return { outcome, error: kind === undefined ? { code } : { code, kind } };
}

/** Milliseconds since `startedAtMs` (a `performance.now()` reading), to a tenth. */
export function latencySince(startedAtMs: number): number {
  return Math.round((performance.now() - startedAtMs) * 10) / 10;
}
