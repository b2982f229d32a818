// The one place where error kinds become wire answers: isError tool results or JSON-RPC errors.
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ForesightError, describeThrown, errors, isForesightError } from '../host/index.js';

/** JSON-RPC code MCP uses for an unknown resource. */
export const RESOURCE_NOT_FOUND = -32002;

export interface WireErrorOptions {
  /** Removes secret values from any text sent to a client. */
  redact: (text: string) => string;
  /** Appends stack traces (for --debug). */
  debug: boolean;
}

function asForesightError(error: unknown, target: string): ForesightError {
  return isForesightError(error) ? error : errors.pluginFailed(target, describeThrown(error));
}

function messageOf(error: ForesightError, options: WireErrorOptions): string {
  const text = options.debug && error.stack ? `${error.message}\n${error.stack}` : error.message;
  return options.redact(text);
}

/**
 * tools/call: an unknown tool is a protocol error (-32602); every other failure is a tool result with
 * isError, so the agent reads what went wrong and can correct its call.
 */
export function toolCallFailure(error: unknown, tool: string, options: WireErrorOptions): CallToolResult {
  const failure = asForesightError(error, `tool "${tool}"`);
  if (failure.code === errors.toolNotFound.code) {
    throw new McpError(ErrorCode.InvalidParams, messageOf(failure, options));
  }
  return {
    isError: true,
    content: [{ type: 'text', text: messageOf(failure, options) }],
    _meta: { 'foresight/error': { code: failure.code, kind: failure.kind } },
  };
}

/** Any other request: kinds map to JSON-RPC codes. */
export function requestFailure(error: unknown, target: string, options: WireErrorOptions): McpError {
  if (error instanceof McpError) return error;
  const failure = asForesightError(error, target);
  const message = messageOf(failure, options);
  const data = { code: failure.code, kind: failure.kind };
  if (failure.code === errors.resourceNotFound.code) return new McpError(RESOURCE_NOT_FOUND, message, data);
  switch (failure.kind) {
    case 'invalid_input':
    case 'not_found':
      return new McpError(ErrorCode.InvalidParams, message, data);
    case 'timeout':
      return new McpError(ErrorCode.RequestTimeout, message, data);
    default:
      return new McpError(ErrorCode.InternalError, message, data);
  }
}
