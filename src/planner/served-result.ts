// A result run ahead as the agent receives it: the call's own copy, marked in `_meta`, or the wait for one still running.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { errors } from '../contract/index.js';
import { PREFETCH_META_KEY } from './planner-types.js';

export interface Served {
  source: 'cache' | 'in_flight';
  ageMs: number;
}

/** A result run ahead for the agent's call: the call's own copy, which its result hooks may change. */
export interface Prefetched {
  result: CallToolResult;
  served: Served;
}

export function withPrefetchMeta(result: CallToolResult, served: Served): CallToolResult {
  return {
    ...result,
    _meta: {
      ...result._meta,
      [PREFETCH_META_KEY]: { source: served.source, age_ms: Math.max(0, Math.round(served.ageMs)) },
    },
  };
}

/** Waits for the joined call, unless the agent cancels its own call first. */
export function untilCancelled<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  tool: string,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(errors.cancelled(`tool "${tool}"`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(errors.cancelled(`tool "${tool}"`));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
