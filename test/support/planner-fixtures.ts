// What the planner's unit tests build again and again: a result cache on a hand-moved clock, results,
// cache key parts, value models and follow-up links.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FollowUpLink, ToolValueModel } from '../../src/contract/index.js';
import { type CacheKeyParts, ResultCache, type ResultCacheOptions } from '../../src/planner/index.js';

export const T0 = 1_700_000_000_000;

/** A cache on a clock the test moves by hand, starting at T0. */
export function setup(options: Omit<ResultCacheOptions, 'now'> = {}): {
  cache: ResultCache;
  advance(ms: number): void;
} {
  let nowMs = T0;
  return {
    cache: new ResultCache({ ...options, now: () => nowMs }),
    advance: (ms) => {
      nowMs += ms;
    },
  };
}

export function ok(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function failed(text = 'boom'): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** What the cache's byte bound counts for a result. */
export function bytesOf(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result), 'utf8');
}

/** Key parts of a session's call (session A unless told). */
export function parts(tool: string, args: Record<string, unknown> = {}, session = 'A'): CacheKeyParts {
  return { principal: 'local', session, tool, args };
}

/** Key parts of a session-independent result. */
export function shared(tool: string, args: Record<string, unknown> = {}): CacheKeyParts {
  return { principal: 'local', session: undefined, tool, args };
}

/** A read-only, critical, 1 KB model with no links, changed by `overrides`. */
export function model(overrides: Partial<ToolValueModel> = {}): ToolValueModel {
  return {
    valueClass: 'critical',
    sideEffect: 'read_only',
    cost: { typicalKb: 1 },
    followUp: [],
    invalidates: [],
    ...overrides,
  };
}

/** A link whose argument sets are `{ key }` read from the result by `projection`. */
export function link(tool: string, probability: number, projection = 'items[*].key'): FollowUpLink {
  return { tool, probability, projection, projectionArg: 'key' };
}
