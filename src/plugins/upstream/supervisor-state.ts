// The states an upstream supervisor goes through, and what each says: the health it reports, and why a call it
// could not serve failed.
import { errors, type PluginHealth } from '../../contract/index.js';
import type { UpstreamConnection } from './connection.js';
import type { FailureReport } from './failures.js';

/**
 * `restart` counts the failures in a row: 0 while connecting the first time, N while waiting for or making the
 * Nth attempt to restart; `failure` is the last failure; `attemptAt` (Date.now() time) is when that attempt begins.
 */
export type SupervisorState =
  | { kind: 'connecting'; restart: 0 }
  | { kind: 'restarting'; restart: number; failure: FailureReport; attemptAt: number }
  | { kind: 'connected'; connection: UpstreamConnection; since: number }
  | { kind: 'closed' };

/**
 * `failure`: its message (in errors) or its longer detail (in health). Neither is redacted here beyond the
 * secrets the server was given (see StderrTail): the host redacts error messages on the wire, the CLI what it
 * prints, and the host's logger every line.
 */
function describeRestart(state: { restart: number }, failure: string): string {
  return `unavailable, restarting (attempt ${state.restart}): ${failure}`;
}

/** The health of a server at `where` in `state`; `tools` says how many tools it lists (last good ones when down). */
export function healthOf(state: SupervisorState, where: string, tools: string): PluginHealth {
  switch (state.kind) {
    case 'connecting':
      return { state: 'starting', detail: `connecting to ${where}` };
    case 'connected':
      return { state: 'ready', detail: `connected to ${where}, ${tools}` };
    case 'restarting':
      return {
        state: 'down',
        detail: `${describeRestart(state, state.failure.detail)}; listing its last good catalog (${tools})`,
      };
    case 'closed':
      return { state: 'down', detail: `closed (${where})` };
  }
}

/** The state in a call's error message. */
export function stateDetail(state: SupervisorState): string {
  return state.kind === 'restarting'
    ? describeRestart(state, state.failure.message)
    : state.kind === 'connecting'
      ? 'still connecting'
      : state.kind === 'closed'
        ? 'closed'
        : 'connected';
}

/** The server is not there, and the call was not sent to it (`again`: not sent a second time). */
export function unsentError(where: string, state: SupervisorState, again: boolean, why?: string): Error {
  const what = again
    ? 'the call, cut off when the server went away, was not sent again'
    : 'the call was not sent';
  return errors.upstreamUnavailable(
    where,
    `${stateDetail(state)}; ${what}${why === undefined ? '' : ` (${why})`}, so it is safe to make again once the server is back`,
  );
}

/** The server went away with the call's request out: `cutOff` false when the request never reached it. */
export function lostError(where: string, state: SupervisorState, cutOff: boolean): Error {
  if (!cutOff) return unsentError(where, state, false);
  return errors.upstreamUnavailable(
    where,
    `${stateDetail(state)}; it went away while the call was in flight, so the call may or may not have taken effect: check before making it again`,
  );
}
