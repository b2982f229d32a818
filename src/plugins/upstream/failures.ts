// How an upstream failure reads in messages and logs: HTTP answers named by status and the server's own words,
// a spawned server's exit by its code or signal and its last stderr lines.
import { SdkHttpError } from '@modelcontextprotocol/client';
import { describeThrown } from '../../contract/index.js';
import type { UpstreamTarget } from './options.js';
import type { ProcessExit, StderrTail } from './stderr-tail.js';

/** The `message` of a JSON-RPC error body, when the text (from its first `{`) is one. */
function jsonRpcMessage(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start === -1) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}

/** What the server said with its refusal: its JSON-RPC error message, else its body, else the SDK's message. */
function serverSaid(error: SdkHttpError): string {
  const body = error.data.text;
  if (typeof body === 'string' && body.trim() !== '') return jsonRpcMessage(body) ?? body.trim();
  return jsonRpcMessage(error.message) ?? error.message;
}

/**
 * One line for a failure to reach or use the server. An HTTP refusal says its status, what the server said,
 * and, for 401/403, which variable the token came from (never the token).
 */
export function describeFailure(error: unknown, target: UpstreamTarget): string {
  if (!(error instanceof SdkHttpError) || error.status < 400) return describeThrown(error);
  const status = `HTTP ${error.status}: ${serverSaid(error)}`;
  if ((error.status === 401 || error.status === 403) && target.kind === 'http')
    return target.tokenEnv === undefined
      ? `the server wants a bearer token (${status}); set token_env to the variable holding it`
      : `the server refused the bearer token from ${target.tokenEnv} (${status})`;
  return `the server refused the request (${status})`;
}

/** Last meaningful stderr lines quoted in a message (E_UPSTREAM_UNAVAILABLE, ...): a crash's own last word. */
export const MESSAGE_STDERR_LINES = 1;
/** Last meaningful stderr lines in the health detail (`foresight check`): the warning before the error, too. */
export const DETAIL_STDERR_LINES = 3;

/** A failure as each place shows it: `message` in errors, `detail` in health; `stderr` and `exit` for the log. */
export interface FailureReport {
  message: string;
  detail: string;
  /** The spawned server's last stderr lines, all of those kept (redacted). */
  stderr?: readonly string[];
  exit?: ProcessExit;
}

/** A failure with no more to say than its one line. */
export function plainReport(message: string): FailureReport {
  return { message, detail: message };
}

/** Lines that say nothing of why: blank, a stack frame, the caret under a source line, Node's version footer. */
function meaningful(line: string): boolean {
  const text = line.trim();
  return text !== '' && !/^at\s/.test(text) && !/^\^+$/.test(text) && !/^Node\.js v\d/.test(text);
}

function howItEnded(exit: ProcessExit): string {
  return exit.signal === null
    ? `the server process exited with code ${exit.code ?? 'unknown'}`
    : `the server process exited on signal ${exit.signal}`;
}

/** `the server process exited with code 1 at start: "…" / "…"`, quoting the last `quoted` meaningful lines. */
function describeExit(exit: ProcessExit, lines: readonly string[], atStart: boolean, quoted: number): string {
  const ended = `${howItEnded(exit)}${atStart ? ' at start' : ''}`;
  const last = lines.filter(meaningful).slice(-quoted);
  return last.length === 0 ? ended : `${ended}: ${last.map((line) => JSON.stringify(line)).join(' / ')}`;
}

/**
 * How a spawned server's process ended, in its own words (its last stderr lines), once it has ended; undefined
 * while it runs, or when it was never started (a missing program is described by the spawn error).
 */
export function exitReport(tail: StderrTail | undefined, atStart: boolean): FailureReport | undefined {
  const exit = tail?.exit;
  if (tail === undefined || exit === undefined) return undefined;
  const stderr = tail.lines();
  return {
    message: describeExit(exit, stderr, atStart, MESSAGE_STDERR_LINES),
    detail: describeExit(exit, stderr, atStart, DETAIL_STDERR_LINES),
    stderr,
    exit,
  };
}

/** Why connecting failed: the spawned server's exit and last words when it ended, else the error itself. */
export function startFailure(error: unknown, target: UpstreamTarget, tail?: StderrTail): FailureReport {
  return exitReport(tail, true) ?? plainReport(describeFailure(error, target));
}
