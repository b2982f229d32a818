// The one place where error kinds become wire answers: isError tool results or JSON-RPC errors.
import { type CallToolResult, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describeThrown, errors, type ForesightError, isForesightError } from '../contract/index.js';

/** What both transports answer (-32600) to valid JSON that is not a JSON-RPC 2.0 message. */
export const NOT_JSON_RPC = 'invalid request: not a JSON-RPC 2.0 request, notification or response';

/**
 * JSON-RPC code MCP 2025 uses for an unknown resource; the SDK's 2026-07-28 codec turns it into -32602, as that
 * revision asks.
 */
export const RESOURCE_NOT_FOUND = ProtocolErrorCode.ResourceNotFound;
/** What a request answers when it runs out of time (implementation-defined range, as in MCP 2025). */
export const REQUEST_TIMEOUT = -32001;

/**
 * Failures that concern the request, not the tool: a tools/call answers them as JSON-RPC errors too, like an
 * unknown tool (a client must fix the request, not read a tool's failure).
 */
const REQUEST_ERRORS: ReadonlySet<string> = new Set([
  errors.toolNotFound.code,
  errors.toolHidden.code,
  errors.requestStateInvalid.code,
  errors.requestStateExpired.code,
  errors.requestStateForeign.code,
  errors.requestStateMismatch.code,
  errors.requestStateTooLarge.code,
  errors.inputRoundsExceeded.code,
]);

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

/** The protocol era a failure answers (errors reach 2026-07-28 clients with codes their revision defines). */
export type WireEra = 'legacy' | 'modern';

export interface WireErrorOptions {
  /** Removes secret values from any text sent to a client. */
  redact: (text: string) => string;
  /** Removes secret values from a whole result before it is sent. */
  redactResult: <T>(value: T) => T;
  /** The same for a list that is rebuilt rather than changed (the tool list): its redacted copy may be reused. */
  redactListing: <T extends object>(value: T) => T;
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
 * A 2026-07-28 request whose processing needs a capability the client did not declare is answered
 * MissingRequiredClientCapability (-32021, HTTP 400) naming it, whichever request it was.
 */
function missingCapability(failure: ForesightError, options: WireErrorOptions, era: WireEra) {
  if (era !== 'modern' || failure.code !== errors.capabilityMissing.code || !failure.details)
    return undefined;
  return new WireError(ProtocolErrorCode.MissingRequiredClientCapability, messageOf(failure, options), {
    requiredCapabilities: failure.details.requiredCapabilities,
    code: failure.code,
    kind: failure.kind,
  });
}

/**
 * tools/call: an unknown tool is a protocol error (-32602); every other failure is a tool result with
 * isError, so the agent reads what went wrong and can correct its call.
 */
export function toolCallFailure(
  error: unknown,
  tool: string,
  options: WireErrorOptions,
  era: WireEra = 'legacy',
): CallToolResult {
  const failure = asForesightError(error, `tool "${tool}"`);
  const missing = missingCapability(failure, options, era);
  if (missing) throw missing;
  // A tool that is not listed is a bad request, whether it never existed or its category is not served; so is
  // a requestState the server refuses.
  if (REQUEST_ERRORS.has(failure.code)) {
    throw new WireError(ProtocolErrorCode.InvalidParams, messageOf(failure, options), {
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
 * What a task ends `failed` with, where a tools/call would answer a tool result with isError: the server behind
 * the tool answered with a JSON-RPC error (an upstream's), which the tasks extension calls a protocol-level error,
 * under the server's own code. Undefined for every other failure: a plain call keeps its isError answer, which the
 * agent reads, and a task `completed` with it.
 */
export function taskProtocolFailure(error: unknown, options: WireErrorOptions): WireError | undefined {
  if (!isForesightError(error) || error.code !== errors.upstreamProtocolError.code) return undefined;
  const code = error.details?.jsonRpcCode;
  return new WireError(
    typeof code === 'number' && Number.isInteger(code) ? code : ProtocolErrorCode.InternalError,
    messageOf(error, options),
    { code: error.code, kind: error.kind },
  );
}

/**
 * Any other request: kinds map to JSON-RPC codes. `notFoundCode` lets resources/read answer a missing
 * resource with -32002, as MCP asks, whichever plugin reported it.
 */
export function requestFailure(
  error: unknown,
  target: string,
  options: WireErrorOptions,
  notFoundCode: number = ProtocolErrorCode.InvalidParams,
  era: WireEra = 'legacy',
): WireError {
  if (error instanceof WireError) return error;
  const failure = asForesightError(error, target);
  const missing = missingCapability(failure, options, era);
  if (missing) return missing;
  const message = messageOf(failure, options);
  const data = { code: failure.code, kind: failure.kind };
  if (failure.code === errors.resourceNotFound.code) return new WireError(RESOURCE_NOT_FOUND, message, data);
  switch (failure.kind) {
    case 'not_found':
      return new WireError(notFoundCode, message, data);
    case 'invalid_input':
      return new WireError(ProtocolErrorCode.InvalidParams, message, data);
    case 'timeout':
      return new WireError(REQUEST_TIMEOUT, message, data);
    default:
      return new WireError(ProtocolErrorCode.InternalError, message, data);
  }
}
