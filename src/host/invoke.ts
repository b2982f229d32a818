// The one guarded boundary through which the host calls plugin code: deadline, cancellation, shutdown, isolation.
import { CallsInFlight } from './calls-in-flight.js';
import { describeThrown, errors, isForesightError, type RequestContext } from '../contract/index.js';
import { runInPluginScope } from './isolation.js';
import type { Mount, PluginMethod } from './mount.js';
import { type CallEnvironment, CallContext } from './request-context.js';

const NO_ENVIRONMENT: CallEnvironment = {};

export interface InvokeOptions {
  mount: Pick<Mount, 'name' | 'deadlines'>;
  method: PluginMethod;
  /** Public name of what is called, for messages: `tool "gh__get_issue"`. */
  target: string;
  /** Fires when the host shuts down. */
  shutdown: AbortSignal;
  env?: CallEnvironment;
  /** The tool called has no side effects (`RequestContext.readOnly`). */
  readOnly?: boolean;
}

/** The watch over each shutdown signal's calls: one listener per signal, one timer per deadline length. */
const watches = new WeakMap<AbortSignal, CallsInFlight>();

function callsUnder(shutdown: AbortSignal): CallsInFlight {
  let calls = watches.get(shutdown);
  if (calls === undefined) {
    calls = new CallsInFlight(shutdown);
    watches.set(shutdown, calls);
  }
  return calls;
}

/**
 * Runs `fn` under the plugin's deadline for `method`. The signal handed to the plugin aborts on the deadline,
 * on client cancellation and on shutdown, with a ForesightError as its reason; the call then rejects with
 * that error at once and a late result is dropped. A call that settles normally leaves the signal alone.
 */
export function invokePlugin<T>(
  options: InvokeOptions,
  fn: (ctx: RequestContext) => T | Promise<T>,
): Promise<T> {
  const { mount, method, target, shutdown } = options;
  const env = options.env ?? NO_ENVIRONMENT;
  // A call that may become a task answers no client while it runs long: it gets the longer of the two limits.
  const deadlineMs =
    method === 'callTool' && env.deadline === 'task'
      ? Math.max(mount.deadlines.task, mount.deadlines.callTool)
      : mount.deadlines[method];

  return new Promise<T>((resolve, reject) => {
    if (env.aborted ?? env.signal?.aborted) return reject(errors.cancelled(target));
    if (method !== 'shutdown' && shutdown.aborted) return reject(errors.shuttingDown(target));
    const watched = callsUnder(shutdown).watch(
      deadlineMs,
      (why) =>
        ctx.abort(why === 'deadline' ? errors.deadline(target, deadlineMs) : errors.shuttingDown(target)),
      method !== 'shutdown',
    );
    const ctx = new CallContext(
      env,
      target,
      (reason) => {
        watched.release();
        reject(reason);
      },
      Date.now() + deadlineMs,
      options.readOnly,
    );
    const settle = (outcome: () => void) => {
      if (!ctx.isOpen) return;
      ctx.finish();
      watched.release();
      outcome();
    };

    const scope = {
      plugin: mount.name,
      target,
      // The plugin's work for this call is now unwanted: the signal tells whatever still listens.
      fail: (error: unknown) => ctx.abort(errors.pluginCrashed(target, describeThrown(error))),
    };
    let result: T | Promise<T>;
    try {
      result = runInPluginScope(scope, () => fn(ctx));
    } catch (error) {
      return settle(() => reject(asCallError(error, target)));
    }
    Promise.resolve(result).then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(asCallError(error, target))),
    );
  });
}

/** A plugin's own ForesightError keeps its kind; anything else becomes a plugin failure with its message. */
export function asCallError(error: unknown, target: string): Error {
  if (isForesightError(error)) return error;
  const failure = errors.pluginFailed(target, describeThrown(error));
  failure.cause = error;
  return failure;
}

/** The plugin's own words when the host wrapped them, for messages that already name the plugin. */
export function innerMessage(error: unknown): string {
  const inner = isForesightError(error) && error.code === errors.pluginFailed.code ? error.cause : error;
  return describeThrown(inner ?? error);
}
