// The one place where error kinds become wire answers: isError tool results or JSON-RPC errors.
import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ForesightError, describeThrown, errors, isForesightError } from '../host/index.js';

/** What both transports answer (-32600) to valid JSON that is not a JSON-RPC 2.0 message. */
export const NOT_JSON_RPC = 'invalid request: not a JSON-RPC 2.0 request, notification or response';

/** JSON-RPC code MCP uses for an unknown resource. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A JSON-RPC error as the SDK's request handler passes it on (code, message, data). Not McpError, whose
 * message already carries an "MCP error N:" prefix that the client would then add a second time.
 */
export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface WireErrorOptions {
  /** Removes secret values from any text sent to a client. */
  redact: (text: string) => string;
  /** Removes secret values from a whole result before it is sent. */
  redactResult: <T>(value: T) => T;
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
  // A tool that is not listed is a bad request, whether it never existed or its category is not served.
  if (failure.code === errors.toolNotFound.code || failure.code === errors.toolHidden.code) {
    throw new WireError(ErrorCode.InvalidParams, messageOf(failure, options), {
      code: failure.code,
      kind: failure.kind,
    });
  }
  return {
    isError: true,
    content: [{ type: 'text', text: messageOf(failure, options) }],
    _meta: { 'foresight/error': { code: failure.code, kind: failure.kind } },
  };
}

/**
 * Any other request: kinds map to JSON-RPC codes. `notFoundCode` lets resources/read answer a missing
 * resource with -32002, as MCP asks, whichever plugin reported it.
 */
export function requestFailure(
  error: unknown,
  target: string,
  options: WireErrorOptions,
  notFoundCode: number = ErrorCode.InvalidParams,
): WireError {
  if (error instanceof WireError) return error;
  const failure = asForesightError(error, target);
  const message = messageOf(failure, options);
  const data = { code: failure.code, kind: failure.kind };
  if (failure.code === errors.resourceNotFound.code) return new WireError(RESOURCE_NOT_FOUND, message, data);
  switch (failure.kind) {
    case 'not_found':
      return new WireError(notFoundCode, message, data);
    case 'invalid_input':
      return new WireError(ErrorCode.InvalidParams, message, data);
    case 'timeout':
      return new WireError(ErrorCode.RequestTimeout, message, data);
    default:
      return new WireError(ErrorCode.InternalError, message, data);
  }
}
