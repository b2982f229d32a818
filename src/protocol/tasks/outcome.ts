// What a task keeps when its call ends: the answer the tools/call would have given, a result (isError ones
// included, as `completed`) or the JSON-RPC error (as `failed`), mapped by the same rules.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type WireErrorOptions, requestFailure, toolCallFailure } from '../wire-errors.js';
import type { SettleTask } from './task.js';

export function settleToolCall(tool: string, options: WireErrorOptions): SettleTask {
  return (event) => {
    try {
      const result =
        event.kind === 'done'
          ? options.redactResult(event.result as CallToolResult)
          : toolCallFailure(event.error, tool, options, 'modern');
      return { result: result as Record<string, unknown> };
    } catch (error) {
      // toolCallFailure throws what tools/call answers as a JSON-RPC error (a missing capability, say).
      const wire = requestFailure(error, `tool "${tool}"`, options, undefined, 'modern');
      return {
        error: {
          code: wire.code,
          message: wire.message,
          ...(wire.data === undefined ? {} : { data: wire.data }),
        },
      };
    }
  };
}
