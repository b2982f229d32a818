// What a task keeps when its call ends: the answer the tools/call would have given, a result (isError ones
// included, as `completed`) or the JSON-RPC error (as `failed`), mapped by the same rules. One failure differs:
// an upstream's JSON-RPC error, a tool result with isError on a plain call, fails the task (taskProtocolFailure).
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type WireError,
  type WireErrorOptions,
  requestFailure,
  taskProtocolFailure,
  toolCallFailure,
} from '../wire-errors.js';
import type { SettleTask, TaskOutcome } from './task.js';

function failed(wire: WireError): TaskOutcome {
  return {
    error: {
      code: wire.code,
      message: wire.message,
      ...(wire.data === undefined ? {} : { data: wire.data }),
    },
  };
}

export function settleToolCall(tool: string, options: WireErrorOptions): SettleTask {
  return (event) => {
    try {
      if (event.kind === 'done') {
        return { result: options.redactResult(event.result as CallToolResult) as Record<string, unknown> };
      }
      const protocolLevel = taskProtocolFailure(event.error, options);
      if (protocolLevel) return failed(protocolLevel);
      return { result: toolCallFailure(event.error, tool, options, 'modern') as Record<string, unknown> };
    } catch (error) {
      // toolCallFailure throws what tools/call answers as a JSON-RPC error (a missing capability, say).
      return failed(requestFailure(error, `tool "${tool}"`, options, undefined, 'modern'));
    }
  };
}
